/**
 * What a git subcommand does to the repository it acts on, by family: reads, changes the
 * checkout (working tree, index, HEAD), writes shared refs, config, hooks or the worktree list,
 * moves the git dir, or is not known. The meaning the policy sees is built from this
 * (git-writes.ts).
 */
import { HOLE, type GitAccess } from '../effects/types.js';
import type { Field } from '../shell/field.js';
import { dryRun, has, operands, operandsSkipping } from './git-args.js';
import { refMoves } from './git-refs.js';

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


const SHARED_NAMES: Record<string, string> = { tag: 'tags', notes: 'notes', reflog: 'reflogs', 'update-ref': 'refs', rerere: 'the rerere cache', 'symbolic-ref': 'refs', stash: 'the stash' };

/** Subcommands that write shared refs. */
const REFS = new Set(['update-ref', 'reflog']);

/** What a `refs` subcommand writes, for the message: the table's, else what its ref moves say (`moved`). */
export function sharedOf(sub: string | null, moved: string | undefined): string | undefined {
  return SHARED[sub ?? ''] ?? moved ?? SHARED_NAMES[sub ?? ''];
}

/** A name git accepts for another command, or undefined. */
export function synonymOf(sub: string): string | undefined {
  return SYNONYMS[sub];
}

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
    case 'subtree':
    case 'svn':
    case 'p4':
      return bridgeAccess(sub, args, ops);
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
      // The stash is one ref (refs/stash and its reflog) every checkout shares: `drop` and `clear`
      // destroy entries another checkout made and touch no checkout (git-stash(1)).
      if (ops[0] && ['drop', 'clear'].includes(ops[0].value)) return 'refs';
      return ops[0] && ['list', 'show'].includes(ops[0].value) ? 'read' : 'checkout';
    case 'worktree':
      return ops[0] && ['list'].includes(ops[0].value) ? 'read' : 'worktrees';
    case 'remote':
      return ops.length === 0 || ['show', 'get-url'].includes(ops[0]!.value) ? 'read' : 'config';
    case 'symbolic-ref':
      if (ops.length < 2 && !has(args, '-d', '--delete')) return 'read';
      // (what it writes besides this checkout's own refs, git-refs.ts: none for HEAD's own refs, the
      // branch HEAD is pointed at, a shared ref)
      return refMoves(sub, args) ? 'refs' : 'checkout';
    case 'update-ref':
      return operandsSkipping(args.map((a) => a.value), ['-m']).length > 0 && !refMoves(sub, args) ? 'checkout' : 'refs';
    case 'config':
      return configAccess(args, ops);
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

/** `git config ...`: which config it writes, if any. */
function configAccess(args: Field[], ops: Field[]): GitAccess {
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

/** Bridges to other systems and subtree: which of their commands only read. */
function bridgeAccess(sub: 'subtree' | 'svn' | 'p4', args: Field[], ops: Field[]): GitAccess {
  switch (sub) {
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
  }
}

/** `git for-each-repo --config=KEY [--keep-going] [--] ARGS`: the git command it runs, or null. */
export function forEachRepoCommand(args: Field[]): { sub: string; args: Field[] } | 'none' | null {
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
