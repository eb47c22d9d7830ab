/**
 * The shared git state a call in a linked worktree certainly writes whenever it has anything to
 * do (a `git stash` with no local changes, a fetch already up to date, write nothing), as the
 * files git must create or replace for it in the common dir (issue 51 items 2 and 5). Where the OS
 * enforcement holds those files read-only (src/layers/sandbox/git-refs.ts), git fails there as
 * soon as it writes one, whatever the analyzer answered; the hook denies such a call early
 * instead, saying what to do (src/frontends/decide.ts). From the git effect's meaning (`writes`), never its arguments.
 */
import { HOLE, type GitEffect, type RefSpace } from '../engine/effects/types.js';
import { dirnameOf, isInside } from '../engine/shell/paths.js';
import { resolvePhysical, type PhysicalFs } from './physical.js';

/** What of the policy's context this reads (./policy.ts PolicyContext). */
export interface SharedGitContext {
  root: string;
  layout?: { current: { kind: string; commonDir: string } } | null;
  checkedOut?: (name: string) => string | null | undefined;
}

export interface SharedGitWrite {
  /** The git call, for the message (`git stash`, `git -C x fetch origin`). */
  text: string;
  /** What it writes, for the message (the stash, the tags, the branch x). */
  what: string;
  /**
   * Files in the common dir git must write for it (a ref, its reflog, a lock beside them): the
   * call fails where the enforcement holds any of them.
   */
  paths: string[];
  /** What to do instead, for the agent. */
  instead: string;
}

/** Where each shared namespace lives in the common dir (none for reflogs and unknown refs: which one is not known). */
const SPACE_PATHS: Partial<Record<RefSpace, string[]>> = {
  tags: ['refs/tags'],
  stash: ['refs/stash', 'logs/refs/stash'],
  remotes: ['refs/remotes'],
  notes: ['refs/notes'],
  replace: ['refs/replace'],
  'packed-refs': ['packed-refs'],
};

const LEAVE = 'leave refs every checkout shares to a person';
const BISECT = 'bisect by hand: `git checkout --detach <commit>` for each candidate, test it, and `git checkout -` (or this worktree\'s branch) at the end';

function insteadOf(space: RefSpace): string {
  if (space === 'stash')
    return `keep the work on this worktree's own branch instead: \`git commit -am wip\` (undo later with \`git reset --soft HEAD~1\`), or \`git stash create\`, which writes no ref (keep the commit id it prints; \`git stash apply <id>\` brings it back)`;
  if (space === 'remotes') return '`git fetch --refmap= <remote> <branch>` fetches into FETCH_HEAD only (this worktree\'s own); then `git merge FETCH_HEAD` or `git rebase FETCH_HEAD`';
  return LEAVE;
}

/**
 * The shared git state `e` certainly writes when it acts on this linked worktree, or []: another
 * checkout's target is the policy's own finding (BG2001), and what is not certain runs under the
 * kernel (it fails there if it writes a held file).
 */
export function sharedGitWrites(e: GitEffect, ctx: SharedGitContext, fs: PhysicalFs): SharedGitWrite[] {
  const current = ctx.layout?.current;
  if (current?.kind !== 'linked-worktree' || e.confidence !== 'certain' || !inThisRepository(e, ctx.root, fs)) return [];
  const common = current.commonDir;
  const out: SharedGitWrite[] = [];
  for (const w of e.writes) {
    if (w.state === 'refs' || w.state === 'bookkeeping') {
      if (w.state === 'refs' && w.confidence !== undefined && w.confidence !== 'certain') continue;
      for (const space of w.spaces) {
        if (w.state === 'bookkeeping' && space === 'packed-refs') {
          out.push({ text: e.text, what: w.what, paths: [`${common}/packed-refs`], instead: BISECT });
          continue;
        }
        const paths = SPACE_PATHS[space];
        if (paths) out.push({ text: e.text, what: space === 'stash' || space === 'remotes' ? w.what : `${w.what} (${paths.join(', ')})`, paths: paths.map((p) => `${common}/${p}`), instead: insteadOf(space) });
      }
    } else if (w.state === 'branch') {
      if (w.name.includes(HOLE) || (w.confidence !== undefined && w.confidence !== 'certain')) continue;
      // (this worktree's own branch, and `checkout -B` of it, are inside the line)
      if (ctx.checkedOut?.(w.name) === ctx.root) continue;
      const paths = [`${common}/refs/heads/${w.name}`, `${common}/logs/refs/heads/${w.name}`];
      const what = w.creates ? `a new branch \`${w.name}\`` : `the branch \`${w.name}\``;
      const instead = `commit on this worktree's own branch: a ${w.creates ? 'new ' : ''}branch is a ref every checkout shares, so ${LEAVE}`;
      out.push({ text: e.text, what, paths, instead });
    }
  }
  return out;
}

/**
 * Whether git, run as `e` says, certainly finds this worktree's repository: no --git-dir or
 * --work-tree, a directory known statically, and no `.git` between it and the worktree root (a
 * repository cloned inside the worktree has refs of its own). `find -execdir` runs in the
 * directories it finds, which the effect gives as the one find started from.
 */
function inThisRepository(e: GitEffect, root: string, fs: PhysicalFs): boolean {
  if (e.gitDir !== null || e.workTree !== null || e.dir === null || e.dir.includes(HOLE)) return false;
  if (e.via.some((v) => /-(exec|ok)dir$/.test(v))) return false;
  let dir = resolvePhysical(e.dir, fs);
  if (dir !== root && !isInside(dir, root)) return false;
  for (; dir !== root; dir = dirnameOf(dir)) if (fs.exists?.(`${dir}/.git`) !== false) return false;
  return true;
}
