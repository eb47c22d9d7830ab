/**
 * git: which repository an invocation acts on (-C chains, --git-dir, --work-tree, GIT_DIR and
 * GIT_WORK_TREE) and what it does to it (read, mutate the checkout, shared config/hooks/refs,
 * worktrees), plus the paths it writes (`worktree add DIR`, `clone URL DIR`, `archive -o FILE`).
 */
import { HOLE, type GitAccess } from '../effects/types.js';
import type { Field } from '../shell/field.js';
import type { CommandContext, Invocation } from './context.js';
import { displayPath, joinPath, normalizeLogical } from '../shell/paths.js';
import { weakest, type Confidence } from '../effects/confidence.js';
import type { CwdValue } from '../shell/state.js';
import { envOf } from './env.js';
import { unlisted } from './unknown.js';
import { patchTargets, patchText } from './patch-files.js';
import { resolveGitCommand, splitCommandLine } from './git-resolve.js';

/** How many aliases in a row are followed (git itself stops at the first one it meets twice). */
const MAX_ALIAS_DEPTH = 16;

/** Subcommands that only read. */
const READ = new Set([
  'status', 'log', 'diff', 'show', 'rev-parse', 'rev-list', 'blame', 'annotate', 'grep', 'ls-files', 'ls-tree',
  'ls-remote', 'cat-file', 'describe', 'shortlog', 'for-each-ref', 'show-ref', 'name-rev', 'merge-base', 'help',
  'version', 'var', 'check-ignore', 'check-attr', 'check-ref-format', 'diff-tree', 'diff-files', 'diff-index',
  'whatchanged', 'count-objects', 'fsck', 'verify-commit', 'verify-tag', 'verify-pack', 'cherry', 'range-diff',
  'show-branch', 'get-tar-commit-id', 'fetch', 'push',
  'instaweb', 'request-pull', 'send-email', 'fetch-pack', 'send-pack', 'ls-refs', 'hash-object',
  'interpret-trailers', 'column', 'credential', 'difftool', 'citool', 'gitk', 'hook', 'mergetool', 'bugreport',
  'diagnose', 'archive', 'format-patch', 'bundle', 'shell', 'stripspace', 'mailinfo', 'mailsplit', 'patch-id',
  'unpack-file', 'check-mailmap', 'show-index', 'replay', 'fast-export', 'mktree', 'mktag', 'merge-tree',
  'unpack-objects', 'index-pack', 'pack-objects', 'verify-pack', 'fmt-merge-msg', 'show-index', 'get-tar-commit-id',
  // Serve or send what the repository holds, print, or talk to a user's credential store.
  'pack-redundant', 'upload-pack', 'upload-archive', 'upload-archive--writer', 'http-push', 'imap-send', 'credential-cache',
  'credential-cache--daemon', 'credential-store', 'last-modified',
  // Helpers and shell libraries git ships in its exec path.
  'sh-setup', 'sh-i18n', 'sh-i18n--envsubst', 'sh-prompt', 'web--browse', 'mergetool--lib', 'difftool--helper', 'env--helper',
  'fsmonitor--daemon',
]);

/** Other names git accepts for a command (git.c's command list): classified as the command. */
const SYNONYMS: Record<string, string> = { 'init-db': 'init', stage: 'add', 'fsck-objects': 'fsck', pickaxe: 'blame' };

/**
 * Subcommands that write state every checkout shares, with what they write (git-gc(1),
 * git-maintenance(1), git-pack-refs(1), git-reflog(1), git-replace(1), git-commit-graph(1)):
 * at least asked, whichever checkout runs them.
 */
const SHARED: Record<string, string> = {
  gc: 'packs, packed-refs and reflogs',
  repack: 'packs',
  'prune-packed': 'packs',
  maintenance: 'packs, refs and the maintenance schedule',
  'pack-refs': 'packed-refs',
  'commit-graph': 'the commit graph',
  'multi-pack-index': 'the multi-pack index',
  'update-server-info': 'info/refs',
  replace: 'replace refs',
  prune: 'the object store',
  'filter-branch': 'refs',
  'filter-repo': 'refs',
  'fast-import': 'refs',
  // A push received, served or relayed into the repository (git-receive-pack(1), git-http-backend(1), git-daemon(1)).
  'receive-pack': 'refs pushed into the repository',
  'http-backend': 'refs pushed through it',
  daemon: 'refs pushed through it (daemon.receivepack or --enable=receive-pack)',
  // Fetches: objects and refs (git-http-fetch(1) -w writes a ref; remote helpers fetch into the object store).
  'http-fetch': 'objects and refs',
  'remote-http': 'objects and refs',
  'remote-https': 'objects and refs',
  'remote-ftp': 'objects and refs',
  'remote-ftps': 'objects and refs',
  'remote-fd': 'objects and refs',
  'remote-ext': 'objects and refs',
  backfill: 'packs',
  // Importers and bridges to other version control systems: branches and remote refs (git-cvsimport(1), git-archimport(1), git-svn(1), git-p4(1)).
  cvsimport: 'branches',
  cvsserver: 'refs committed through it',
  archimport: 'branches',
  svn: 'refs under refs/remotes and branches',
  p4: 'refs under refs/remotes/p4 and branches',
  subtree: 'branches',
  refs: 'refs (migrated to another backend)',
};

/** Subcommands that mutate the working tree, index or HEAD of the checkout they act on. */
const CHECKOUT = new Set([
  'add', 'rm', 'mv', 'commit', 'reset', 'checkout', 'switch', 'restore', 'merge', 'rebase', 'cherry-pick', 'revert',
  'pull', 'am', 'apply', 'clean', 'stash', 'checkout-index', 'read-tree', 'update-index', 'sparse-checkout', 'bisect',
  'submodule', 'mergetool', 'merge-file', 'commit-tree', 'write-tree', 'merge-index', 'merge-one-file', 'gui',
  // Merge strategies (git-merge(1), MERGE STRATEGIES) run by merge: the index and the files.
  'merge-ours', 'merge-recursive', 'merge-recursive-ours', 'merge-recursive-theirs', 'merge-subtree', 'merge-octopus', 'merge-resolve',
  // Commits patches (git-quiltimport(1)); writes a CVS working copy, the cwd without -w (git-cvsexportcommit(1)).
  'quiltimport', 'cvsexportcommit',
  'checkout--worker', 'submodule--helper', 'bisect--helper', 'add--interactive', 'rebase--interactive',
]);

/** `--option=VALUE` options whose value is handled above, or is not a path (formats, dates, names, modes). */
const DESCRIBED_VALUES = new Set(['output', 'separate-git-dir', 'template', 'prefix', 'directory', 'source', 'output-directory', 'pack-destination', 'format', 'pretty', 'date', 'since', 'until', 'after', 'before', 'author', 'committer', 'grep', 'message', 'color', 'abbrev', 'depth', 'jobs', 'expire', 'expire-unreachable', 'task', 'schedule', 'sort', 'points-at', 'contains', 'merged', 'no-merged', 'set-upstream-to', 'track', 'conflict', 'strategy', 'strategy-option', 'diff-filter', 'word-diff', 'stat', 'max-count', 'skip', 'decorate', 'encoding', 'exec', 'onto', 'reason', 'ref-format', 'object-format', 'initial-branch', 'shared', 'filter', 'branch', 'origin', 'cleanup', 'fixup', 'squash', 'reuse-message', 'reedit-message', 'trailer', 'gpg-sign', 'signoff', 'untracked-files', 'ignore-submodules', 'porcelain', 'whitespace', 'unified', 'function-context', 'find-renames', 'find-copies', 'relative', 'submodule', 'recurse-submodules', 'push-option', 'pathspec-from-file']);

const SHARED_NAMES: Record<string, string> = { tag: 'tags', notes: 'notes', reflog: 'reflogs', 'update-ref': 'refs', rerere: 'the rerere cache', 'symbolic-ref': 'refs' };

/** Subcommands that write shared refs. */
const REFS = new Set(['update-ref', 'reflog']);

const GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix', '--list-cmds', '--attr-source']);

interface Target {
  dir: CwdValue;
  /** `-c key=value` / `--config-env=key=VAR` / GIT_CONFIG_KEY_n: configuration for this run only. */
  config: Array<{ key: string; value: Field }>;
  gitDir: Field | null;
  workTree: Field | null;
  sub: string | null;
  args: Field[];
  /** A global option that may change how git finds the command (--exec-path, --git-dir, --bare ...). */
  lookupOptions: boolean;
}

/** Global options that do not change which command git runs for a name (git(1), OPTIONS). */
const LOOKUP_NEUTRAL = new Set(['-C', '-c', '--config-env', '-p', '--paginate', '-P', '--no-pager', '--no-replace-objects', '--no-lazy-fetch', '--no-optional-locks', '--no-advice', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs', '--namespace', '--attr-source']);

function parseGlobal(inv: Invocation, interp: CommandContext): Target {
  let dir: CwdValue = inv.st.cwd;
  let gitDir: Field | null = inv.env.get('GIT_DIR') ?? varField(inv, 'GIT_DIR');
  let workTree: Field | null = inv.env.get('GIT_WORK_TREE') ?? varField(inv, 'GIT_WORK_TREE');
  const args = inv.args;
  const config: Target['config'] = [];
  const count = Number(envOf(inv, 'GIT_CONFIG_COUNT')?.value ?? '0');
  for (let n = 0; n < Math.min(Number.isFinite(count) ? count : 0, 32); n++) {
    const k = envOf(inv, `GIT_CONFIG_KEY_${n}`);
    const v = envOf(inv, `GIT_CONFIG_VALUE_${n}`);
    if (k && v) config.push({ key: k.value, value: { value: v.value, confidence: v.confidence, evidence: v.evidence, glob: false } });
  }
  let i = 0;
  let lookupOptions = false;
  for (; i < args.length; i++) {
    const a = args[i]!.value;
    if (!a.startsWith('-')) break;
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(0, eq) : a;
    if (!LOOKUP_NEUTRAL.has(name)) lookupOptions = true;
    let value: Field | null = null;
    if (eq >= 0 && a.startsWith('--')) value = { ...args[i]!, value: a.slice(eq + 1) };
    else if (GLOBAL_WITH_VALUE.has(name) && name !== '--exec-path') value = args[++i] ?? null;
    if (name === '-C' && value) {
      // `-C` chains: each relative one is taken from the previous; an empty one is ignored.
      if (value.value !== '') dir = interp.resolveCd({ ...inv.st, cwd: dir }, value, inv.range, false, 'git -C');
    } else if (name === '-c' && value) {
      const eq = value.value.indexOf('=');
      config.push({ key: eq >= 0 ? value.value.slice(0, eq) : value.value, value: { ...value, value: eq >= 0 ? value.value.slice(eq + 1) : 'true' } });
    } else if (name === '--config-env' && value) {
      const eq = value.value.indexOf('=');
      const env = eq >= 0 ? envOf(inv, value.value.slice(eq + 1)) : null;
      if (eq >= 0) config.push({ key: value.value.slice(0, eq), value: { value: env?.value ?? HOLE, confidence: env?.confidence ?? 'possible', evidence: env?.evidence ?? [], glob: false } });
    } else if (name === '--git-dir' && value) gitDir = value;
    else if (name === '--work-tree' && value) workTree = value;
  }
  const sub = args[i]?.value ?? null;
  return { dir, config, gitDir, workTree, sub, args: args.slice(i + 1), lookupOptions };
}

function varField(inv: Invocation, name: string): Field | null {
  const v = inv.st.vars.get(name);
  if (!v || !v.exported) return null;
  return { value: v.value, confidence: v.confidence, evidence: v.evidence, glob: false };
}

function has(args: Field[], ...flags: string[]): boolean {
  return args.some((a) => flags.includes(a.value) || flags.some((f) => f.startsWith('--') && a.value.startsWith(f + '=')));
}

/** `-n` alone or in a cluster of the subcommand's short flags (`git clean -nd`), or `--dry-run`, before any `--`. */
function dryRun(args: Field[], shortFlags: string): boolean {
  const cluster = new RegExp(`^-[${shortFlags}]*n[${shortFlags}]*$`);
  for (const a of args) {
    if (a.value === '--') return false;
    if (a.value === '--dry-run' || cluster.test(a.value)) return true;
  }
  return false;
}

function operands(args: Field[]): Field[] {
  return args.filter((a) => !a.value.startsWith('-'));
}

/** Classifies a subcommand and its arguments. */
export function gitAccess(sub: string | null, args: Field[]): GitAccess {
  if (sub === null) return 'read';
  if (SYNONYMS[sub] !== undefined) return gitAccess(SYNONYMS[sub], args);
  const ops = operands(args);
  switch (sub) {
    case 'for-each-repo': {
      // git-for-each-repo(1): `git -C <repo> <arguments>` for every repository the --config key lists.
      const inner = forEachRepoCommand(args);
      return inner === 'none' ? 'read' : inner ? gitAccess(inner.sub, inner.args) : 'unknown';
    }
    case 'subtree': {
      // git-subtree(1): add, merge and pull commit to the current branch; split -b/--rejoin and push write refs.
      const s = ops[0]?.value;
      if (s === 'add' || s === 'merge' || s === 'pull') return 'checkout';
      if (s === 'split') return has(args, '-b', '--branch') ? 'refs' : has(args, '--rejoin') ? 'checkout' : 'read';
      return 'refs';
    }
    case 'svn': {
      // git-svn(1): the commands that only read the repository and the svn metadata.
      const s = ops[0]?.value;
      if (s !== undefined && ['log', 'blame', 'info', 'show-ignore', 'show-externals', 'find-rev', 'propget', 'proplist', 'help'].includes(s)) return 'read';
      if (s === 'create-ignore' || s === 'mkdirs') return 'checkout';
      if (s === 'clone') return 'read';
      return 'refs';
    }
    case 'p4': {
      // git-p4(1): clone makes a new repository; branches lists; the rest writes p4 refs and branches.
      const s = ops[0]?.value;
      return s === 'clone' || s === 'branches' ? 'read' : 'refs';
    }
    case 'refs': {
      const s = ops[0]?.value;
      return s === 'verify' || s === 'list' || s === 'exists' ? 'read' : 'refs';
    }
    case 'branch': {
      if (has(args, '-d', '-D', '--delete', '-m', '-M', '--move', '-c', '-C', '--copy', '-f', '--force', '-u', '--set-upstream-to', '--unset-upstream', '--edit-description')) return 'refs';
      if (has(args, '--list', '-l', '-a', '--all', '-r', '--remotes', '--show-current', '--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '-v', '-vv', '--verbose', '--format', '--sort')) return 'read';
      return ops.length > 0 ? 'refs' : 'read';
    }
    case 'tag':
      if (has(args, '-l', '--list', '-v', '--verify', '--contains', '--points-at', '--merged', '--no-merged')) return 'read';
      return ops.length > 0 || has(args, '-d', '--delete') ? 'refs' : 'read';
    case 'notes':
      return ops.length === 0 || ['list', 'show'].includes(ops[0]!.value) ? 'read' : 'refs';
    case 'stash':
      return ops[0] && ['list', 'show'].includes(ops[0].value) ? 'read' : 'checkout';
    case 'worktree':
      return ops[0] && ['list'].includes(ops[0].value) ? 'read' : 'worktrees';
    case 'remote':
      return ops.length === 0 || ['show', 'get-url'].includes(ops[0]!.value) ? 'read' : 'config';
    case 'symbolic-ref':
      return ops.length >= 2 || has(args, '-d', '--delete') ? 'refs' : 'read';
    case 'config': {
      // User, system or explicit-file config is not this repository's: the file write is an effect of its own.
      if (has(args, '--global', '--system', '-f', '--file', '--blob')) return 'read';
      if (has(args, '--worktree')) return has(args, '--get', '--get-all', '--get-regexp', '-l', '--list') ? 'read' : 'checkout';
      if (has(args, '--get', '--get-all', '--get-regexp', '--get-urlmatch', '--get-color', '--get-colorbool', '-l', '--list', '--show-origin', '--show-scope', '-e', '--edit') && !has(args, '-e', '--edit')) return 'read';
      const first = ops[0]?.value;
      if (first === 'get' || first === 'list') return 'read';
      const keyIndex = first === 'set' || first === 'unset' || first === 'rename-section' || first === 'remove-section' || first === 'edit' ? 1 : 0;
      const key = ops[keyIndex]?.value ?? '';
      const valueGiven = keyIndex === 1 || ops.length >= 2 || has(args, '--unset', '--unset-all', '--add', '--replace-all', '--rename-section', '--remove-section', '-e', '--edit');
      if (!valueGiven) return 'read';
      if (/^core\.hookspath$/i.test(key) || /^hook\./i.test(key)) return 'hooks';
      return 'config';
    }
    case 'init':
      // In an existing checkout: --separate-git-dir moves its git dir, --template copies hooks
      // into it, --shared rewrites its config (git-init(1) "Running git init in an existing
      // repository is safe ... reinitialize"). In a new directory: a new repository.
      if (has(args, '--separate-git-dir')) return 'gitdir';
      if (has(args, '--template')) return 'hooks';
      if (has(args, '--shared')) return 'config';
      return 'read';
    case 'clone':
      return 'read';
    case 'reflog':
      // git-reflog(1): `show` is the default, and any other first word is its ref (`git reflog main`).
      return ops[0] && ['expire', 'delete'].includes(ops[0].value) ? 'refs' : 'read';
    case 'prune':
    case 'prune-packed':
      return has(args, '-n', '--dry-run') ? 'read' : 'refs';
    case 'replace':
      return ops.length === 0 || has(args, '-l', '--list') ? 'read' : 'refs';
    case 'rerere':
      return ops[0] && ['clear', 'forget', 'gc'].includes(ops[0].value) ? 'refs' : 'read';
    case 'commit-graph':
    case 'multi-pack-index':
      return ops[0]?.value === 'verify' ? 'read' : 'refs';
    case 'maintenance':
      return 'refs';
    case 'lfs': {
      const s = ops[0]?.value;
      if (s === 'install' || s === 'uninstall' || s === 'update') return 'hooks';
      return s === undefined || ['ls-files', 'status', 'env', 'version', 'logs', 'ls'].includes(s) ? 'read' : 'checkout';
    }
    case 'fetch':
    case 'push':
      return refMoves(sub, args) ? 'refs' : 'read';
    case 'apply':
      return has(args, '--check', '--stat', '--numstat', '--summary') && !has(args, '--apply') ? 'read' : 'checkout';
    case 'hook':
      return 'read';
    // A trial run writes nothing: clean, add, rm and mv take -n (alone or in a cluster of their
    // short flags) or --dry-run (git-clean(1), git-add(1), git-rm(1), git-mv(1)).
    case 'clean':
      return dryRun(args, 'dfinqxX') ? 'read' : 'checkout';
    case 'add':
      return dryRun(args, 'vfnuAN') ? 'read' : 'checkout';
    case 'rm':
      return dryRun(args, 'fnrq') ? 'read' : 'checkout';
    case 'mv':
      return dryRun(args, 'fnkv') ? 'read' : 'checkout';
    case 'commit':
      return has(args, '--dry-run') ? 'read' : 'checkout';
    case 'submodule':
      // git-submodule(1): with no command, `status`; `status` and `summary` only report.
      return ops.length === 0 || ['status', 'summary'].includes(ops[0]!.value) ? 'read' : 'checkout';
  }
  if (READ.has(sub)) return 'read';
  if (CHECKOUT.has(sub)) return 'checkout';
  if (REFS.has(sub) || SHARED[sub] !== undefined) return 'refs';
  return 'unknown';
}

/** `git for-each-repo --config=KEY [--keep-going] [--] ARGS`: the git command it runs, or null. */
function forEachRepoCommand(args: Field[]): { sub: string; args: Field[] } | 'none' | null {
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '--') {
      i++;
      break;
    }
    if (v === '--config') i++;
    else if (!v.startsWith('-')) break;
  }
  const first = args[i];
  // No command: `git` alone in each repository prints its usage.
  if (!first) return 'none';
  if (first.value.startsWith('-') || first.value.includes(HOLE)) return null;
  return { sub: first.value, args: args.slice(i + 1) };
}

/** The top-level directory of the checkout `dir` is in, as far as the analysis knows. */
function topOf(dir: CwdValue, interp: CommandContext): string | null {
  const d = dir.paths?.length === 1 ? dir.paths[0]! : null;
  return d === null || d.includes(HOLE) ? null : interp.ctx.gitToplevel?.(d) ?? d;
}

/** A ref name as git writes it: the branch name for `refs/heads/X`, else null. */
function branchOf(ref: string, bare: 'branch' | 'other'): string | null {
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
      if (!ref) return null;
      const b = branchOf(ref, 'other');
      return { branches: b === null ? [] : [b], shared: b === null ? `the ref ${ref}` : 'branches' };
    }
    case 'symbolic-ref': {
      const o = ops(['-m']);
      if (o.length < 2 && !flag('-d', '--delete')) return null;
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

export function runGit(inv: Invocation, interp: CommandContext): void {
  const t = parseGlobal(inv, interp);
  // `git X --help` runs `git help X` (git.c handle_builtin: a first argument `--help`), and a
  // command git ships given `-h` alone prints its usage (parse-options): nothing is written.
  if (t.sub !== null && (t.args[0]?.value === '--help' || (t.args.length === 1 && t.args[0]!.value === '-h' && gitAccess(t.sub, []) !== 'unknown'))) return;
  const resolved: string[] = [];
  const seen = new Set<string>();
  let access = gitAccess(t.sub, t.args);
  // A name git.ts does not classify: what git would run for it (git-resolve.ts), aliases followed
  // as git follows them; git stops at the first alias it meets again ("alias loop detected").
  for (let depth = 0; access === 'unknown' && t.sub !== null && SYNONYMS[t.sub] === undefined && t.sub !== 'for-each-repo'; depth++) {
    const name = t.sub;
    if (depth >= MAX_ALIAS_DEPTH || seen.has(name.toLowerCase())) {
      resolved.push(depth >= MAX_ALIAS_DEPTH ? `aliases nest deeper than ${MAX_ALIAS_DEPTH} at ${name}` : `the aliases loop back to ${name}`);
      break;
    }
    seen.add(name.toLowerCase());
    const cmdline = t.config.map((c) => ({ key: c.key, value: c.value.value }));
    let r = resolveGitCommand(name, inv, interp, t.dir, cmdline, t.lookupOptions || t.gitDir !== null || t.workTree !== null);
    // Without the machine's facts, an alias this very command line defines is taken as what runs.
    const own = [...t.config].reverse().find((c) => c.key.toLowerCase() === `alias.${name.toLowerCase()}`);
    if (r.kind === 'unknown' && own) r = { kind: 'alias', value: own.value.value, from: 'the command line', toplevel: '' };
    if (r.kind === 'alias') {
      const from = r.from === 'the command line' ? `git -c alias.${name}` : `alias.${name} (${displayPath(r.from)})`;
      if (r.value.startsWith('!')) {
        // git-config(1), alias.*: run by the shell from the top-level directory, with the arguments appended.
        const code = [r.value.slice(1), ...t.args.map((a) => shellQuote(a.value))].join(' ');
        const top = r.toplevel !== '' ? r.toplevel : topOf(t.dir, interp);
        const cwd: CwdValue = top ? { paths: [top], confidence: t.dir.confidence, evidence: t.dir.evidence, changed: true } : t.dir;
        runGitCode(inv, interp, { ...t, dir: cwd }, { value: code, confidence: own?.value.confidence ?? 'certain', evidence: own?.value.evidence ?? [], glob: false }, from);
        return;
      }
      const words = splitCommandLine(r.value);
      if (words === null || words.length === 0 || words[0]!.startsWith('-')) {
        resolved.push(`${from} is \`${r.value}\`, a command line not followed here`);
        break;
      }
      resolved.push(`${from} runs \`git ${r.value}\``);
      const base = own?.value ?? { value: '', confidence: 'certain' as const, evidence: [], glob: false };
      t.sub = words[0]!;
      t.args = [...words.slice(1).map((w) => ({ ...base, value: w })), ...t.args];
      access = gitAccess(t.sub, t.args);
      continue;
    }
    if (r.kind === 'none') access = 'read';
    resolved.push(r.kind === 'external' ? `git runs ${displayPath(r.path)}, an external git command` : r.why);
    break;
  }
  if (t.sub !== null && SYNONYMS[t.sub] !== undefined) t.sub = SYNONYMS[t.sub]!;
  const dirPath = t.dir.paths?.length === 1 ? t.dir.paths[0]! : t.dir.paths === null ? null : t.dir.paths[0]!;
  const fieldConf = (f: Field | null): Confidence => (f ? weakest(f.confidence, f.value.includes(HOLE) ? 'possible' : 'certain') : 'certain');
  let confidence = weakest(t.dir.confidence, weakest(fieldConf(t.gitDir), fieldConf(t.workTree)));
  if (t.dir.paths === null) confidence = 'possible';
  const absolute = (f: Field | null): string | null => {
    if (!f) return null;
    if (f.value.startsWith('/')) return f.value;
    return dirPath ? normalizeLogical(joinPath(dirPath, f.value)) : null;
  };
  const shown = ['git', ...inv.args.map((a) => displayPath(a.value))].join(' ');
  const evidence = [...t.dir.evidence];
  if (t.gitDir) evidence.push({ range: inv.range, note: `git dir is ${displayPath(absolute(t.gitDir))}${inv.env.has('GIT_DIR') ? ' (GIT_DIR)' : ''}` });
  if (t.workTree) evidence.push({ range: inv.range, note: `work tree is ${displayPath(absolute(t.workTree))}` });
  evidence.push({ range: inv.range, note: `\`${shown.length > 80 ? shown.slice(0, 77) + '...' : shown}\` runs in ${displayPath(dirPath)}` });
  for (const note of resolved) evidence.push({ range: inv.range, note });
  const moves = refMoves(t.sub, t.args);
  const shared = access === 'refs' ? SHARED[t.sub ?? ''] ?? moves?.shared ?? SHARED_NAMES[t.sub ?? ''] : undefined;
  let candidates = t.dir.paths ?? [null];
  if (t.sub === 'for-each-repo') {
    // The repositories come from a config key's values: which checkouts they are is not known here.
    candidates = [null];
    const inner = forEachRepoCommand(t.args);
    evidence.push({ range: inv.range, note: inner && inner !== 'none' ? `runs \`git ${[inner.sub, ...inner.args.map((a) => a.value)].join(' ')}\` in every repository a config key lists` : 'runs a git command line not followed here in every repository a config key lists' });
  }
  if (t.sub === 'init' && access !== 'read') {
    // The repository git init (re)initializes is its directory operand, else the cwd.
    const dir = operandsSkipping(t.args, ['--template', '--separate-git-dir', '-b', '--initial-branch', '--object-format', '--ref-format'])[0];
    if (dir) {
      const cd = interp.resolveCd({ ...inv.st, cwd: t.dir }, dir, inv.range, false);
      candidates = cd.paths ?? [null];
    }
  }
  if (t.sub === 'push' && !moves) {
    // `git push ../.. HEAD:x`: a repository given by path receives refs (and objects).
    const remote = operandsSkipping(t.args, ['-o', '--push-option', '--repo', '--receive-pack', '--exec'])[0];
    if (remote && /^(?:\.\.?\/|\/|\.\.$|file:\/\/)/.test(remote.value)) {
      const path = { ...remote, value: remote.value.replace(/^file:\/\//, '') };
      interp.write('unknown-command', path, inv.st, inv.range, 'git push', { cwdOverride: t.dir, subtree: true, confidenceCap: 'possible' });
    }
  }
  for (const d of candidates) {
    interp.git({
      ...(moves && moves.branches.length > 0 ? { branches: moves.branches } : {}),
      ...(shared ? { shared } : {}),
      subcommand: t.sub,
      args: t.args.map((a) => displayPath(a.value)),
      access,
      dir: d,
      gitDir: absolute(t.gitDir),
      workTree: absolute(t.workTree),
      confidence: candidates.length > 1 ? 'possible' : confidence,
      range: inv.range,
      evidence,
      text: shown,
    });
  }
  gitPathWrites(t, inv, interp);
  // Closed world: the value of a `--option=VALUE` not described here may be a path it writes.
  const undescribed = t.args.filter((a) => /^--[A-Za-z][\w-]*=./.test(a.value) && !DESCRIBED_VALUES.has(a.value.slice(2, a.value.indexOf('='))));
  if (undescribed.length > 0) unlisted(inv, interp, undescribed.map((a) => ({ ...a, value: a.value.slice(a.value.indexOf('=') + 1) })), 'the value of an option bashguard does not describe');
  gitCodeOptions(t, access, inv, interp);
  gitEnvWrites(t, access, inv, interp);
}

// ---------------------------------------------------------------- code that git runs

/** Configuration whose value git runs as shell code (or a program), as data. */
const CODE_KEYS: Array<{ key: RegExp; when?: (sub: string | null, access: GitAccess) => boolean; bang?: boolean }> = [
  { key: /^core\.fsmonitor$/i },
  { key: /^core\.sshcommand$/i, when: (sub) => NETWORK.has(sub ?? '') },
  { key: /^core\.gitproxy$/i, when: (sub) => NETWORK.has(sub ?? '') },
  { key: /^core\.askpass$/i, when: (sub) => NETWORK.has(sub ?? '') },
  { key: /^credential\..*helper$/i, when: (sub) => NETWORK.has(sub ?? ''), bang: true },
  { key: /^(?:core|sequence)\.editor$/i, when: (sub, access) => access !== 'read' },
  { key: /^diff\.external$/i, when: (sub) => ['diff', 'log', 'show'].includes(sub ?? '') },
  { key: /^diff\..+\.(?:textconv|command)$/i },
  { key: /^filter\..+\.(?:clean|smudge|process)$/i },
  { key: /^merge\..+\.driver$/i, when: (sub, access) => access !== 'read' },
  { key: /^gpg(?:\..+)?\.program$/i, when: (sub, access) => access !== 'read' },
  { key: /^uploadpack\.packobjectshook$/i },
];

const NETWORK = new Set(['fetch', 'pull', 'push', 'clone', 'ls-remote', 'submodule', 'remote', 'archive']);

/** Environment variables whose value git runs. */
const CODE_ENV = ['GIT_SSH_COMMAND', 'GIT_SSH', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR', 'GIT_EXTERNAL_DIFF', 'GIT_ASKPASS'];

function shellQuote(v: string): string {
  return /^[A-Za-z0-9_./=:@%+-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`;
}

/** Analyzes shell code git runs, from the directory git acts on. */
function runGitCode(inv: Invocation, interp: CommandContext, t: Target, code: Field, label: string): void {
  if (code.value.includes(HOLE)) {
    interp.dynamicProblem(`${label} runs code that cannot be known statically`, displayPath(code.value), inv.range);
    return;
  }
  const child = interp.child(inv.st);
  child.cwd = t.dir;
  interp.runNested(code.value, child, inv.range, label);
}

function gitCodeOptions(t: Target, access: GitAccess, inv: Invocation, interp: CommandContext): void {
  for (const c of t.config) {
    const key = c.key;
    if (/^core\.hookspath$/i.test(key)) {
      if (access !== 'read') interp.dynamicProblem(`git -c core.hooksPath=${displayPath(c.value.value)} runs hooks from that directory, which are not analyzed`, `git -c ${key}`, inv.range);
      continue;
    }
    if (/^include(?:if\..*)?\.path$/i.test(key)) {
      interp.dynamicProblem(`git -c ${key} reads configuration (which may run code) from ${displayPath(c.value.value)}, not analyzed`, `git -c ${key}`, inv.range);
      continue;
    }
    const spec = CODE_KEYS.find((k) => k.key.test(key));
    if (!spec || (spec.when && !spec.when(t.sub, access))) continue;
    let v = c.value.value;
    if (/^(?:true|false|yes|no|on|off|0|1|)$/i.test(v)) continue;
    if (spec.bang) {
      if (!v.startsWith('!')) continue;
      v = v.slice(1);
    }
    runGitCode(inv, interp, t, { ...c.value, value: v }, `git -c ${key}`);
  }
  for (const name of CODE_ENV) {
    const v = envOf(inv, name);
    if (!v || v.fromEnvironment || v.value === '' || v.value === ':' || v.value === 'true') continue;
    if ((name === 'GIT_SSH_COMMAND' || name === 'GIT_SSH' || name === 'GIT_ASKPASS') && !NETWORK.has(t.sub ?? '')) continue;
    if ((name === 'GIT_EDITOR' || name === 'GIT_SEQUENCE_EDITOR') && access === 'read') continue;
    runGitCode(inv, interp, t, { value: v.value, confidence: v.confidence, evidence: v.evidence, glob: false }, `git (${name})`);
  }
  // Subcommand options whose value is a command: rebase --exec, bisect run, submodule foreach, filter-branch filters.
  const a = t.args;
  const valueOf = (names: string[]): Field[] => {
    const out: Field[] = [];
    for (let i = 0; i < a.length; i++) {
      const v = a[i]!.value;
      for (const n of names) {
        if (v === n && a[i + 1]) out.push(a[++i]!);
        else if (n.startsWith('--') && v.startsWith(`${n}=`)) out.push({ ...a[i]!, value: v.slice(n.length + 1) });
      }
    }
    return out;
  };
  switch (t.sub) {
    case 'rebase':
      for (const c of valueOf(['--exec', '-x'])) runGitCode(inv, interp, t, c, 'git rebase --exec');
      return;
    case 'filter-branch':
      for (const c of valueOf(['--tree-filter', '--index-filter', '--msg-filter', '--env-filter', '--commit-filter', '--parent-filter', '--tag-name-filter'])) runGitCode(inv, interp, t, c, 'git filter-branch');
      return;
    case 'difftool':
      for (const c of valueOf(['--extcmd', '-x'])) runGitCode(inv, interp, t, c, 'git difftool --extcmd');
      return;
    case 'remote-ext': {
      // git-remote-ext(1): `git remote-ext <remote> <command>` runs the command (words with % escapes, read here as shell).
      const cmd = operands(a)[1];
      if (cmd) runGitCode(inv, interp, t, { ...cmd, value: cmd.value.replace(/^ext::/, '').replace(/%[sS]/g, 'git-upload-pack').replace(/%(.)/g, '$1') }, 'git remote-ext');
      return;
    }
    case 'grep':
      for (const c of valueOf(['--open-files-in-pager', '-O'])) runGitCode(inv, interp, t, c, 'git grep -O');
      return;
    case 'bisect':
      if (a[0]?.value === 'run' && a.length > 1) runGitCode(inv, interp, t, { ...a[1]!, value: a.slice(1).map((f) => shellQuote(f.value)).join(' ') }, 'git bisect run');
      return;
    case 'submodule': {
      const fi = a.findIndex((f) => f.value === 'foreach');
      const rest = fi >= 0 ? a.slice(fi + 1).filter((f) => f.value !== '--recursive' && f.value !== '--quiet' && f.value !== '-q') : [];
      if (rest.length > 0) runGitCode(inv, interp, t, { ...rest[0]!, value: rest.map((f) => f.value).join(' ') }, 'git submodule foreach');
      return;
    }
  }
}

// ---------------------------------------------------------------- environment that moves git's writes

const INDEX_READERS = new Set(['status', 'diff', 'describe', 'stash']);
const OBJECT_WRITERS = new Set(['hash-object', 'fetch', 'pull', 'gc', 'repack', 'fast-import', 'unpack-objects', 'index-pack', 'mktree', 'mktag', 'notes', 'tag', 'replace', 'filter-branch']);

/** GIT_INDEX_FILE and GIT_OBJECT_DIRECTORY move the index and the object store git writes. */
function gitEnvWrites(t: Target, access: GitAccess, inv: Invocation, interp: CommandContext): void {
  const index = envOf(inv, 'GIT_INDEX_FILE');
  if (index && !index.fromEnvironment && index.value !== '') {
    // Commands that change the checkout write the index; status/diff refresh it when stat data moved.
    const certain = access === 'checkout';
    if (certain || INDEX_READERS.has(t.sub ?? '')) {
      interp.write('write', { value: index.value, confidence: certain ? index.confidence : 'possible', evidence: [...index.evidence, { range: inv.range, note: `GIT_INDEX_FILE=${displayPath(index.value)}: \`git ${t.sub ?? ''}\` writes its index there` }], glob: false }, inv.st, inv.range, `git ${t.sub ?? ''} (GIT_INDEX_FILE)`.trim(), { cwdOverride: t.dir });
    }
  }
  const objects = envOf(inv, 'GIT_OBJECT_DIRECTORY');
  if (objects && !objects.fromEnvironment && objects.value !== '') {
    const writes = (access === 'checkout' && !['rm', 'mv', 'reset', 'restore', 'checkout', 'switch', 'clean', 'checkout-index', 'read-tree', 'update-index', 'sparse-checkout', 'bisect', 'apply'].includes(t.sub ?? '')) || access === 'refs' || OBJECT_WRITERS.has(t.sub ?? '');
    if (writes && !(t.sub === 'hash-object' && !t.args.some((a) => a.value === '-w'))) {
      interp.write('extract', { value: objects.value, confidence: objects.confidence, evidence: [...objects.evidence, { range: inv.range, note: `GIT_OBJECT_DIRECTORY=${displayPath(objects.value)}: \`git ${t.sub ?? ''}\` writes objects there` }], glob: false }, inv.st, inv.range, `git ${t.sub ?? ''} (GIT_OBJECT_DIRECTORY)`.trim(), { cwdOverride: t.dir, subtree: true });
    }
  }
}

/** Paths git writes as files: new worktrees, clones, archives, patches, bundles, user config. */
function gitPathWrites(t: Target, inv: Invocation, interp: CommandContext): void {
  const ops = operands(t.args);
  const w = (op: 'write' | 'extract' | 'mkdir', f: Field, command: string, subtree = false) =>
    interp.write(op, f, inv.st, inv.range, command, { cwdOverride: t.dir, subtree });
  const optionValue = (...names: string[]): Field | null => {
    for (let i = 0; i < t.args.length; i++) {
      const a = t.args[i]!.value;
      for (const n of names) {
        if (a === n && t.args[i + 1]) return t.args[i + 1]!;
        if (n.startsWith('--') && a.startsWith(n + '=')) return { ...t.args[i]!, value: a.slice(n.length + 1) };
        if (!n.startsWith('--') && a.startsWith(n) && a.length > n.length) return { ...t.args[i]!, value: a.slice(n.length) };
      }
    }
    return null;
  };
  switch (t.sub) {
    case 'checkout':
    case 'restore':
    case 'checkout-index':
    case 'read-tree':
    case 'stash':
    case 'apply':
    case 'am':
      gitTreeWrites(t, inv, interp);
      return;
    case 'worktree': {
      if (ops[0]?.value === 'add') {
        const rest = t.args.slice(t.args.indexOf(ops[0]) + 1);
        const path = operandsSkipping(rest, ['-b', '-B', '--reason'])[0];
        if (path) w('extract', path, 'git worktree add', true);
      }
      return;
    }
    case 'clone': {
      const positional = operandsSkipping(t.args, ['-o', '--origin', '-b', '--branch', '-u', '--upload-pack', '--reference', '--separate-git-dir', '--depth', '--shallow-since', '--shallow-exclude', '-c', '--config', '--template', '-j', '--jobs', '--filter', '--server-option', '--bundle-uri', '--ref-format']);
      const url = positional[0];
      const dir = positional[1] ?? (url ? { ...url, value: url.value.replace(/\/+$/, '').replace(/\.git$/, '').split(/[/:]/).pop() ?? HOLE } : null);
      if (dir) w('extract', dir, 'git clone', true);
      return;
    }
    case 'init': {
      const positional = operandsSkipping(t.args, ['--template', '--separate-git-dir', '-b', '--initial-branch', '--object-format', '--shared', '--ref-format']);
      const dir = positional[0] ?? { value: '.', confidence: 'certain' as const, evidence: [], glob: false };
      if (t.gitDir && !t.gitDir.value.includes(HOLE)) {
        // GIT_DIR / --git-dir: the repository is made there (relative to DIR, which git enters
        // first), and DIR gets nothing but itself (git-init(1), GIT_DIR).
        const g = t.gitDir.value.startsWith('/') || !positional[0] ? t.gitDir : { ...t.gitDir, value: `${dir.value.replace(/\/+$/, '')}/${t.gitDir.value}` };
        w('mkdir', g, 'git init', true);
        if (positional[0]) w('mkdir', dir, 'git init', false);
        return;
      }
      // A repository's own files (`.git/...`), not a tree of names not known statically.
      w('mkdir', dir, 'git init', true);
      return;
    }
    case 'archive': {
      const out = optionValue('-o', '--output');
      if (out) w('write', out, 'git archive -o');
      return;
    }
    case 'format-patch': {
      const out = optionValue('-o', '--output-directory');
      // NNNN-subject.patch files directly in the directory.
      if (out) w('write', { ...out, value: `${out.value.replace(/\/+$/, '')}/*.patch`, glob: true }, 'git format-patch -o');
      else if (!has(t.args, '--stdout')) w('write', { value: './*.patch', confidence: 'certain', evidence: [], glob: true }, 'git format-patch');
      return;
    }
    case 'bundle': {
      if (ops[0]?.value === 'create' && ops[1]) w('write', ops[1], 'git bundle create');
      return;
    }
    case 'credential-store': {
      // git-credential-store(1): `store` and `erase` rewrite the --file (default ~/.git-credentials).
      const file = optionValue('--file');
      const action = operandsSkipping(t.args, ['--file'])[0]?.value;
      if (file && (action === 'store' || action === 'erase')) w('write', file, `git credential-store ${action}`);
      return;
    }
    case 'diff':
    case 'log':
    case 'show': {
      const out = optionValue('--output');
      if (out) w('write', out, `git ${t.sub} --output`);
      return;
    }
    case 'config': {
      const scope = has(t.args, '--global') ? 'global' : has(t.args, '--system') ? 'system' : null;
      const file = optionValue('-f', '--file');
      const rest = t.args.filter((a, i) => !['--global', '--system', '-f', '--file'].includes(a.value) && !a.value.startsWith('--file=') && !['-f', '--file'].includes(t.args[i - 1]?.value ?? ''));
      if (gitAccess('config', rest) === 'read') return;
      if (file) w('write', file, 'git config --file');
      else if (scope === 'global') {
        // GIT_CONFIG_GLOBAL, else $HOME/.gitconfig (a HOME the command sets moves it).
        const global = envOf(inv, 'GIT_CONFIG_GLOBAL');
        const home = envOf(inv, 'HOME');
        const path = global?.value || `${home?.value ?? HOLE}/.gitconfig`;
        const src = global ?? home;
        interp.write('write', { value: path, confidence: src?.confidence ?? 'certain', evidence: src && !src.fromEnvironment ? [...src.evidence, { range: inv.range, note: `${global ? 'GIT_CONFIG_GLOBAL' : 'HOME'}=${displayPath(src.value)} moves the global git config` }] : [], glob: false }, inv.st, inv.range, 'git config --global');
      } else if (scope === 'system') {
        interp.write('write', { value: '/etc/gitconfig', confidence: 'certain', evidence: [], glob: false }, inv.st, inv.range, 'git config --system');
      }
      return;
    }
  }
}

/**
 * Git commands that write a tree into the checkout (#38): `checkout <tree-ish> -- PATHS`,
 * `restore --source`, `checkout-index`, `read-tree -u`, `stash pop|apply`, `apply`, `am`. What
 * they write comes from a commit, the stash, the index or a patch: where that cannot be known
 * statically, any name may land below the pathspec (a control file included); a patch that can
 * be read names its files.
 */
function gitTreeWrites(t: Target, inv: Invocation, interp: CommandContext): void {
  const a = t.args;
  const dir = t.dir.paths?.length === 1 ? t.dir.paths[0]! : null;
  const top = dir ? interp.ctx.gitToplevel?.(dir) ?? dir : null;
  const topCwd: CwdValue | undefined = top ? { paths: [top], confidence: t.dir.confidence, evidence: t.dir.evidence, changed: true } : undefined;
  const dot = (note: string): Field => ({ value: '.', confidence: 'certain', evidence: [{ range: inv.range, note }], glob: false });
  const tree = (f: Field, what: string, base: CwdValue | undefined = t.dir) => interp.write('write', f, inv.st, inv.range, `git ${what}`, { cwdOverride: base, subtree: true, tree: true });
  const value = (...names: string[]): Field | null => {
    for (let i = 0; i < a.length; i++) {
      const v = a[i]!.value;
      for (const n of names) {
        if (v === n && a[i + 1]) return a[i + 1]!;
        if (n.startsWith('--') && v.startsWith(n + '=')) return { ...a[i]!, value: v.slice(n.length + 1) };
        if (!n.startsWith('--') && v.startsWith(n) && v.length > n.length) return { ...a[i]!, value: v.slice(n.length) };
      }
    }
    return null;
  };
  const dd = a.findIndex((f) => f.value === '--');
  const before = dd >= 0 ? a.slice(0, dd) : a;
  const after = dd >= 0 ? a.slice(dd + 1) : [];
  switch (t.sub) {
    case 'checkout': {
      if (has(a, '--pathspec-from-file')) return tree(dot('pathspecs from a file'), 'checkout --pathspec-from-file', topCwd);
      const ops = operandsSkipping(before, ['-b', '-B', '--orphan', '--conflict', '-c']);
      // `checkout TREE-ISH -- PATHS` (or `checkout TREE-ISH PATHS`): the paths as that commit has them.
      const paths = dd >= 0 ? (ops.length >= 1 ? after : []) : ops.slice(1);
      for (const p of paths) tree(p, 'checkout <tree-ish> -- <path>');
      return;
    }
    case 'restore': {
      if (!value('--source', '-s')) return;
      if (has(a, '--staged', '-S') && !has(a, '--worktree', '-W')) return;
      const paths = [...operandsSkipping(before, ['-s', '--source', '--conflict', '--pathspec-from-file']), ...after];
      for (const p of paths) tree(p, 'restore --source');
      if (has(a, '--pathspec-from-file')) tree(dot('pathspecs from a file'), 'restore --source', topCwd);
      return;
    }
    case 'checkout-index': {
      const prefix = value('--prefix');
      const base = prefix ? interp.resolveCd({ ...inv.st, cwd: topCwd ?? t.dir }, { ...prefix, value: prefix.value.endsWith('/') ? prefix.value : prefix.value.replace(/[^/]*$/, '') || '.' }, inv.range, false) : topCwd;
      const files = operandsSkipping(a, ['--prefix', '--stage']).filter((f) => f.value !== '--');
      if (has(a, '-a', '--all', '--stdin') || files.length === 0) tree(dot('every file of the index'), 'checkout-index', base);
      else for (const f of files) interp.write('write', f, inv.st, inv.range, 'git checkout-index', { cwdOverride: prefix ? base : t.dir });
      return;
    }
    case 'read-tree': {
      if (!has(a, '-u')) return;
      const prefix = value('--prefix');
      tree(prefix ?? dot('the tree read'), 'read-tree -u', topCwd);
      return;
    }
    case 'stash': {
      const sub = operands(a)[0]?.value;
      if (sub === 'pop' || sub === 'apply' || sub === 'branch') tree(dot('the stash'), `stash ${sub}`, topCwd);
      return;
    }
    case 'apply': {
      if (has(a, '--cached', '--check', '--stat', '--numstat', '--summary') && !has(a, '--index', '--apply')) return;
      const strip = value('-p');
      const root = value('--directory');
      const files = operandsSkipping(before, ['-p', '-C', '--directory', '--include', '--exclude', '--whitespace', '--build-fake-ancestor']);
      const texts = files.length === 0 ? [patchText(inv, interp, undefined)] : files.map((f) => patchText(inv, interp, f));
      const n = strip ? Number(strip.value) : 1;
      const targets = texts.every((x) => x !== null) && Number.isInteger(n) ? texts.map((x) => patchTargets(x!, n)) : null;
      if (targets && targets.every((x) => x !== null)) {
        for (const f of targets.flat().slice(0, 64)) {
          const path = root ? `${root.value.replace(/\/+$/, '')}/${f}` : f;
          interp.write('modify', { value: path, confidence: 'likely', evidence: [{ range: inv.range, note: `the patch changes ${path}` }], glob: false }, inv.st, inv.range, 'git apply', { cwdOverride: topCwd });
        }
        return;
      }
      tree(root ?? dot('the patch'), 'apply', topCwd);
      return;
    }
    case 'am':
      if (!has(a, '--abort', '--quit', '--show-current-patch')) tree(dot('the patches'), 'am', topCwd);
      return;
  }
}

/**
 * The operands of a git subcommand's arguments: options skipped (with the value of those in
 * `withValue`), everything after `--` kept. Works on expanded fields or on plain strings.
 */
export function operandsSkipping<T extends Field | string>(args: T[], withValue: readonly string[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const a = typeof arg === 'string' ? arg : arg.value;
    if (a === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('-')) {
      if (withValue.includes(a)) i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}
