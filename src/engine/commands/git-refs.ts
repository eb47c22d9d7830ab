/**
 * Which refs a git call writes besides this checkout's own HEAD and index: the local branches it
 * moves, creates or deletes (`branch -f`, `update-ref`, `push . a:b`, `fetch . a:b`, `checkout -B`),
 * and in which namespace a ref name lives.
 */
import { HOLE, type RefSpace } from '../effects/types.js';
import type { Field } from '../shell/field.js';
import { operandsSkipping } from './git-args.js';

/** The namespace of a full ref name (`refs/tags/v1` -> tags); HEAD-like and unknown names are `other`. */
export function refSpaceOf(ref: string): RefSpace {
  if (ref.startsWith('refs/heads/')) return 'branches';
  if (ref.startsWith('refs/tags/')) return 'tags';
  if (ref === 'refs/stash') return 'stash';
  if (ref.startsWith('refs/remotes/')) return 'remotes';
  if (ref.startsWith('refs/notes/')) return 'notes';
  if (ref.startsWith('refs/replace/')) return 'replace';
  return 'other';
}

/**
 * A ref each worktree has its own of (git-worktree(1), "Refs"): HEAD, a pseudo-ref (ORIG_HEAD,
 * FETCH_HEAD, any all-caps top-level name), refs/worktree/, refs/bisect/, refs/rewritten/. Written
 * through HEAD, the branch HEAD names moves, as a commit moves it. Not `main-worktree/HEAD` or
 * `worktrees/<name>/HEAD`: those name another checkout's.
 */
function ownRef(ref: string): boolean {
  return /^[A-Z][A-Z0-9_]*$/.test(ref) || /^refs\/(?:worktree|bisect|rewritten)\//.test(ref);
}

/** A ref name as git writes it: the branch name for `refs/heads/X`, else null. */
export function branchOf(ref: string, bare: 'branch' | 'other'): string | null {
  if (ref.includes(HOLE)) return HOLE;
  if (ref.startsWith('refs/heads/')) return ref.slice('refs/heads/'.length);
  if (ref.startsWith('refs/') || ref === 'HEAD' || ref === '') return null;
  return bare === 'branch' ? ref : null;
}

/** The branch a refspec writes (`[+]src:dst`, or `src` alone for push), or null. */
function refspecDestination(spec: string, sub: 'fetch' | 'push'): string | null {
  const s = spec.replace(/^\+/, '');
  const colon = s.indexOf(':');
  if (colon < 0) return sub === 'push' ? (s === 'HEAD' ? HOLE : branchOf(s, 'branch')) : null;
  const dst = s.slice(colon + 1);
  if (dst === '') return null;
  return branchOf(dst, 'branch');
}

/** Local remotes of push and fetch that are this very repository (`.`, a checkout's path is handled by path). */
const SELF_REMOTES = new Set(['.', './']);

/**
 * What a subcommand writes besides this worktree's own branch and index: the local branches it
 * moves, creates or deletes, and what other shared state. null: nothing shared.
 */
export function refMoves(sub: string | null, args: Field[] | string[]): { branches: string[]; shared: string } | null {
  const a = (args as Array<Field | string>).map((x) => (typeof x === 'string' ? x : x.value));
  const flag = (...names: string[]) => a.some((v) => names.includes(v) || names.some((n) => n.startsWith('--') && v.startsWith(n + '=')) || names.some((n) => /^-[a-zA-Z]$/.test(n) && /^-[a-zA-Z]+$/.test(v) && !v.startsWith('--') && v.includes(n[1]!)));
  const ops = (withValue: string[]) => operandsSkipping(a, withValue);
  const named = (list: Array<string | null>) => list.filter((b): b is string => b !== null);
  switch (sub) {
    case 'branch': {
      const o = ops(['-u', '--set-upstream-to', '--track', '--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '--format', '--sort', '--column']);
      if (flag('-d', '-D', '--delete')) return { branches: named(o.map((b) => branchOf(b, 'branch'))), shared: 'branches' };
      if (flag('-m', '-M', '--move', '-c', '-C', '--copy')) return { branches: named(o.map((b) => branchOf(b, 'branch'))), shared: 'branches' };
      if (flag('-u', '--set-upstream-to', '--unset-upstream', '--edit-description')) return null;
      if (flag('--list', '-l', '-a', '--all', '-r', '--remotes', '--show-current', '--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '-v', '-vv', '--verbose', '--format', '--sort')) return null;
      return o[0] ? { branches: named([branchOf(o[0], 'branch')]), shared: 'branches' } : null;
    }
    case 'update-ref': {
      if (flag('--stdin')) return { branches: [HOLE], shared: 'refs' };
      const o = ops(['-m']);
      const ref = o[0];
      if (!ref || ownRef(ref)) return null;
      const b = branchOf(ref, 'other');
      return { branches: b === null ? [] : [b], shared: b === null ? `the ref ${ref}` : 'branches' };
    }
    case 'symbolic-ref': {
      const o = ops(['-m']);
      if (o.length < 2 && !flag('-d', '--delete')) return null;
      // `symbolic-ref HEAD refs/heads/X`: the commits made here from now on move X, as after `checkout --ignore-other-worktrees X`.
      if (o[0] === 'HEAD' && o[1] !== undefined) {
        const target = branchOf(o[1], 'other');
        return target === null ? { branches: [], shared: `the ref ${o[1]}, which HEAD then names` } : { branches: [target], shared: 'branches' };
      }
      if (ownRef(o[0] ?? '')) return null;
      const b = branchOf(o[0] ?? '', 'other');
      return { branches: b === null ? [] : [b], shared: `the ref ${o[0]}` };
    }
    case 'checkout':
    case 'switch': {
      const out: string[] = [];
      for (let i = 0; i < a.length; i++) {
        const v = a[i]!;
        if (v === '--') break;
        if (['-B', '-C', '--force-create'].includes(v) && a[i + 1]) out.push(a[++i]!);
        else if (v.startsWith('--force-create=')) out.push(v.slice('--force-create='.length));
      }
      // `--ignore-other-worktrees BRANCH`: checks out a branch another worktree uses; the next commit moves it.
      if (flag('--ignore-other-worktrees')) out.push(...ops(['-b', '-B', '-c', '-C', '--orphan', '--conflict']).slice(0, 1));
      return out.length > 0 ? { branches: named(out.map((b) => branchOf(b, 'branch'))), shared: 'branches' } : null;
    }
    case 'rebase':
      return flag('--update-refs') ? { branches: [HOLE], shared: 'branches (--update-refs)' } : null;
    case 'worktree': {
      const o = a.filter((x) => !x.startsWith('-'));
      if (o[0] !== 'add') return null;
      const i = a.findIndex((x) => x === '-B');
      return i >= 0 && a[i + 1] ? { branches: named([branchOf(a[i + 1]!, 'branch')]), shared: 'branches' } : null;
    }
    case 'fetch':
    case 'push': {
      const o = ops(['-o', '--push-option', '--repo', '--receive-pack', '--exec', '--upload-pack', '--depth', '--deepen', '--shallow-since', '--shallow-exclude', '-j', '--jobs', '--negotiation-tip', '--refmap', '--server-option', '--filter', '--signed', '--recurse-submodules-default', '--submodule-prefix']);
      const remote = o[0];
      if (remote === undefined) return null;
      const specs = o.slice(1);
      if (sub === 'push' && SELF_REMOTES.has(remote)) {
        if (flag('--all', '--mirror', '--branches', '--tags') || specs.length === 0) return { branches: [HOLE], shared: 'branches pushed into this repository' };
        return { branches: named(specs.map((x) => refspecDestination(x, 'push'))), shared: 'refs pushed into this repository' };
      }
      if (sub === 'fetch') {
        // `git fetch REMOTE src:dst`: dst is a local branch (a name without refs/ means refs/heads/).
        const dsts = named(specs.map((x) => refspecDestination(x, 'fetch')));
        if (dsts.length > 0) return { branches: dsts, shared: 'branches fetched into' };
      }
      return null;
    }
    case 'tag':
    case 'notes':
      return null;
  }
  return null;
}

/**
 * The new branches a call creates and checks out (`checkout -b X`, `checkout --orphan X`,
 * `switch -c X`, `worktree add -b X`): git refuses a name that exists, so none is another's.
 */
export function createdBranches(sub: string | null, args: string[]): string[] {
  const names = sub === 'checkout' ? ['-b', '--orphan'] : sub === 'switch' ? ['-c', '--create', '--orphan'] : sub === 'worktree' && operandsSkipping(args, ['-b', '-B', '--reason'])[0] === 'add' ? ['-b'] : [];
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!;
    if (v === '--') break;
    const long = names.find((n) => n.startsWith('--') && v.startsWith(`${n}=`));
    if (long) out.push(v.slice(long.length + 1));
    else if (names.includes(v) && args[i + 1] !== undefined) out.push(args[++i]!);
  }
  return out;
}
