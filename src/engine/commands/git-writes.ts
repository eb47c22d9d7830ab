/**
 * What a git call writes, as meaning the policy decides from (issue 51 item 2): which refs (named
 * branches, or tags, the stash, remotes, notes, replace refs, packed-refs, reflogs), which state
 * (the checkout's working tree, index and HEAD; the files it drops by their git state; config,
 * hooks, the worktree list, the git dir). The policy reads these, never git's arguments.
 *
 * Files dropped by their git state (issue #12 item 2): `git clean` removes untracked files
 * (ignored ones too with -x, only those with -X), `git stash -u/-a` stashes them away, `git
 * stash`, `git checkout -- PATH`, `git checkout -f`, `git restore`, `git reset --hard` and `git
 * switch --discard-changes` revert local changes of tracked files, `git rm` / `git mv` delete or
 * move tracked ones. Whether a control file is in such a state is the workspace's question
 * (src/policy/workspace/git-state.ts).
 */
import { HOLE, type FileState, type GitAccess, type GitWrite, type RefSpace } from '../effects/types.js';
import { operandsSkipping } from './git-args.js';
import { refSpaceOf } from './git-refs.js';

export interface ControlRisk {
  /** The states in which a file is dropped or rewritten. */
  states: Set<FileState>;
  /** The pathspecs that limit the command (as written), or null: every file. */
  pathspecs: string[] | null;
  /** How the command changes such a file, for the message. */
  verb: string;
}

/** The ref namespaces a subcommand that writes shared refs writes, where the subcommand says. */
const SPACES: Record<string, RefSpace[]> = {
  tag: ['tags'],
  stash: ['stash'],
  notes: ['notes'],
  replace: ['replace'],
  reflog: ['reflogs'],
  'pack-refs': ['packed-refs'],
  gc: ['packed-refs', 'reflogs'],
  maintenance: ['packed-refs', 'reflogs'],
  fetch: ['remotes', 'branches'],
  push: ['branches', 'tags'],
  svn: ['remotes', 'branches'],
  p4: ['remotes', 'branches'],
  subtree: ['branches'],
  cvsimport: ['branches'],
  archimport: ['branches'],
  'filter-branch': ['branches', 'tags'],
  'filter-repo': ['branches', 'tags'],
  'fast-import': ['branches', 'tags'],
};

/** The namespaces written by a `refs` call: from a ref it names where it names one (`update-ref refs/tags/x`). */
function spacesOf(sub: string | null, args: string[]): RefSpace[] {
  if (sub === 'update-ref' || sub === 'symbolic-ref') {
    const ref = operandsSkipping(args, ['-m'])[0];
    if (ref !== undefined && !ref.includes(HOLE) && !ref.includes('\u2026')) return [refSpaceOf(ref)];
  }
  return SPACES[sub ?? ''] ?? ['other'];
}

/**
 * Whether a housekeeping call may write no ref at all: `gc --auto` and `maintenance run --auto`
 * do nothing while the repository is under git's thresholds (git-gc(1), git-maintenance(1)),
 * `maintenance run --task=X` runs only the tasks named (gc and pack-refs are the ones that pack
 * refs), and maintenance's other verbs (register, start, stop, unregister) change the schedule.
 */
function mayDoNothing(sub: string | null, args: string[]): boolean {
  const auto = args.includes('--auto');
  if (sub === 'gc') return auto;
  if (sub !== 'maintenance') return false;
  if (auto || operandsSkipping(args, ['--task', '--schedule', '--scheduler', '--config-file'])[0] !== 'run') return true;
  const tasks = args.flatMap((a, i) => (a === '--task' ? [args[i + 1] ?? ''] : a.startsWith('--task=') ? [a.slice('--task='.length)] : []));
  return tasks.length > 0 && !tasks.some((t) => t === 'gc' || t === 'pack-refs');
}

export interface GitWritesInput {
  sub: string | null;
  /** The arguments as shown (HOLE displayed), the way pathspecs are reported. */
  args: string[];
  access: GitAccess;
  /** Branches the call moves, creates or deletes (git-refs.ts `refMoves`), with what it writes besides. */
  moves: { branches: string[]; shared: string } | null;
  /** The message's description of what shared state a `refs` call writes. */
  shared: string | undefined;
  /** New branches the call creates and checks out (git-refs.ts `createdBranches`). */
  created: string[];
}

const OBJECT_WRITERS = new Set(['hash-object', 'fetch', 'pull', 'gc', 'repack', 'fast-import', 'unpack-objects', 'index-pack', 'mktree', 'mktag', 'notes', 'tag', 'replace', 'filter-branch']);
/** Subcommands that change the checkout from objects it already has. */
const NO_NEW_OBJECTS = new Set(['rm', 'mv', 'reset', 'restore', 'checkout', 'switch', 'clean', 'checkout-index', 'read-tree', 'update-index', 'sparse-checkout', 'bisect', 'apply']);

/** Whether the call adds objects to the object store. */
export function writesObjects(sub: string | null, access: GitAccess, args: string[]): boolean {
  if (sub === 'hash-object') return args.includes('-w');
  if (sub === 'stash') return access === 'checkout';
  // Listing tags, notes or replacements writes nothing; making one writes its object.
  if (sub === 'tag' || sub === 'notes' || sub === 'replace') return access === 'refs';
  return (access === 'checkout' && !NO_NEW_OBJECTS.has(sub ?? '')) || access === 'refs' || OBJECT_WRITERS.has(sub ?? '');
}

/** Which of the checkout's working tree, index and HEAD a subcommand writes; absent: all three. */
const PARTS: Record<string, Array<'files' | 'index' | 'head'>> = {
  add: ['index'],
  'update-index': ['index'],
  commit: ['index', 'head'],
  clean: ['files'],
  'checkout-index': ['files'],
  'merge-file': ['files'],
};

/** The branches a call that changes the checkout makes its own: `checkout -B X`, `switch -C X`, `worktree add -B X`. */
const SWITCHES = new Set(['checkout', 'switch', 'worktree']);

/** What a git call writes, from its classification and the refs it moves. */
export function gitWrites(w: GitWritesInput): GitWrite[] {
  const out: GitWrite[] = [];
  const branches = w.moves?.branches ?? [];
  switch (w.access) {
    case 'read':
      break;
    case 'checkout': {
      out.push({ state: 'checkout', parts: PARTS[w.sub ?? ''] ?? ['files', 'index', 'head'] });
      const risk = controlRisk(w.sub, w.args);
      if (risk) out.push({ state: 'drops', states: [...risk.states], pathspecs: risk.pathspecs, verb: risk.verb });
      break;
    }
    case 'refs':
      // Only named branches (`branch -f x`, `update-ref refs/heads/x`): judged branch by branch
      // (this checkout's own is its own business); anything else is shared refs.
      if (!(w.shared === 'branches' && branches.length > 0)) out.push({ state: 'refs', spaces: spacesOf(w.sub, w.args), what: w.shared ?? 'refs', ...(mayDoNothing(w.sub, w.args) ? { confidence: 'possible' as const } : {}) });
      break;
    case 'config':
    case 'hooks':
    case 'worktrees':
    case 'gitdir':
    case 'unknown':
      out.push({ state: w.access });
      break;
  }
  if (writesObjects(w.sub, w.access, w.args)) out.push({ state: 'objects' });
  const kept = bookkeeping(w.sub, w.args, w.access);
  if (kept) out.push(kept);
  // A call that changes the checkout and names branches either switches to them (they become
  // its own) or moves branches it does not name (`rebase --update-refs`): those may be none.
  const switches = w.access !== 'refs' && SWITCHES.has(w.sub ?? '');
  for (const name of branches) {
    const maybe = w.access !== 'refs' && (name.includes(HOLE) || !switches);
    out.push({ state: 'branch', name, switches, ...(maybe ? { confidence: 'possible' as const } : {}) });
  }
  for (const name of w.created) if (!branches.includes(name)) out.push({ state: 'branch', name, switches: true, creates: true });
  return out;
}

/** Short options of `git <sub>` that take a value (so their value is not a pathspec). */
const VALUE_OPTS: Record<string, string[]> = {
  clean: ['-e', '--exclude'],
  stash: ['-m', '--message', '--pathspec-from-file'],
  checkout: ['-b', '-B', '--orphan', '--conflict', '--pathspec-from-file'],
  restore: ['-s', '--source', '--conflict', '--pathspec-from-file'],
  switch: ['-c', '-C', '--create', '--force-create', '--orphan', '--conflict'],
  rm: ['--pathspec-from-file'],
  mv: [],
  reset: ['--pathspec-from-file'],
};

function flags(args: string[]): { long: Set<string>; short: Set<string> } {
  const long = new Set<string>();
  const short = new Set<string>();
  for (const a of args) {
    if (a === '--') break;
    if (a.startsWith('--')) long.add(a.split('=')[0]!);
    else if (a.startsWith('-') && a.length > 1) for (const c of a.slice(1)) short.add(c);
  }
  return { long, short };
}

function operands(sub: string, args: string[]): string[] {
  return operandsSkipping(args, VALUE_OPTS[sub] ?? []);
}

/** What `git <sub> <args>` does to control files in the checkout it acts on, or null: nothing. */
export function controlRisk(sub: string | null, args: string[]): ControlRisk | null {
  if (sub === null) return null;
  const { long, short } = flags(args);
  const any = (...names: string[]) => names.some((n) => (n.startsWith('--') ? long.has(n) : short.has(n.slice(1))));
  const ops = operands(sub, args);
  const states = (...s: FileState[]) => new Set<FileState>(s);
  switch (sub) {
    case 'clean': {
      if (any('-n', '--dry-run')) return null;
      const s = any('-X') ? states('ignored') : any('-x') ? states('untracked', 'ignored') : states('untracked');
      return { states: s, pathspecs: ops.length ? ops : null, verb: 'deletes' };
    }
    case 'stash': {
      const verb0 = ops[0];
      if (verb0 && ['list', 'show', 'apply', 'pop', 'drop', 'clear', 'branch', 'create', 'store'].includes(verb0)) return null;
      const s = states('modified');
      if (any('-u', '--include-untracked')) s.add('untracked');
      if (any('-a', '--all')) (s.add('untracked'), s.add('ignored'));
      // `stash save MESSAGE` takes a message; `stash push [--] PATHSPEC...` limits.
      const specs = verb0 === 'save' ? [] : verb0 === 'push' ? ops.slice(1) : ops;
      return { states: s, pathspecs: specs.length ? specs : null, verb: 'stashes away (removes)' };
    }
    case 'reset':
      return any('--hard', '--merge', '--keep') ? { states: states('modified'), pathspecs: null, verb: 'reverts' } : null;
    case 'checkout': {
      if (any('-f', '--force')) return { states: states('modified'), pathspecs: null, verb: 'reverts' };
      // Without --, the first operand may be a branch (which keeps local changes); as a pathspec it
      // only matches a control file when it names it or a directory holding it.
      return ops.length ? { states: states('modified'), pathspecs: ops, verb: 'reverts' } : null;
    }
    case 'restore': {
      if (any('-S', '--staged') && !any('-W', '--worktree')) return null;
      const s = any('-s', '--source') ? states('modified', 'clean') : states('modified');
      return ops.length ? { states: s, pathspecs: ops, verb: 'rewrites' } : null;
    }
    case 'switch':
      return any('-f', '--force', '--discard-changes') ? { states: states('modified'), pathspecs: null, verb: 'reverts' } : null;
    case 'rm':
      return any('--cached') || any('-n', '--dry-run') ? null : ops.length ? { states: states('modified', 'clean'), pathspecs: ops, verb: 'deletes' } : null;
    case 'mv':
      return ops.length >= 2 ? { states: states('modified', 'clean'), pathspecs: ops.slice(0, -1), verb: 'moves away' } : null;
  }
  return null;
}

/** Options of `git fetch` and `git pull` that take a value as the next argument. */
// (not -S / --gpg-sign: their key is optional and only ever attached, `-S<key>`, `--gpg-sign=<key>`)
const FETCH_VALUES = ['-o', '--push-option', '--upload-pack', '--depth', '--deepen', '--shallow-since', '--shallow-exclude', '-j', '--jobs', '--negotiation-tip', '--server-option', '--filter', '--recurse-submodules-default', '--submodule-prefix', '-s', '--strategy', '-X', '--strategy-option', '--cleanup'];

/**
 * The shared refs git updates as bookkeeping of the call's own work (git-stash(1): the stash is
 * `refs/stash` and its reflog; git-fetch(1) "CONFIGURED REMOTE-TRACKING BRANCHES": a fetch from a
 * named remote moves its remote-tracking refs, those it names opportunistically, unless an empty
 * `--refmap=` maps them nowhere). null: none, or not certainly (a URL or path as the remote, a
 * remote not known statically, no remote named: the branch's upstream may be `.`, this
 * repository, which has no remote-tracking refs).
 */
export function bookkeeping(sub: string | null, args: string[], access: GitAccess): Extract<GitWrite, { state: 'bookkeeping' }> | null {
  if (access === 'read' && sub === 'stash') return null;
  if (sub === 'stash') {
    const verb = operandsSkipping(args, VALUE_OPTS.stash ?? [])[0];
    // (apply only reads the stash; drop and clear are `refs` calls, reported as such)
    if (access === 'refs' || verb === 'apply' || verb === 'list' || verb === 'show' || verb === 'create') return null;
    return { state: 'bookkeeping', spaces: ['stash'], what: 'the stash (refs/stash)' };
  }
  // git-bisect(1) start and reset delete its refs (BISECT_HEAD, refs/bisect/*, this worktree's
  // own) in one batch, and git's files backend (2.39 measured) rewrites the shared packed-refs for
  // such a batch whether or not it holds any of them.
  if (sub === 'bisect') {
    const verb = operandsSkipping(args, [])[0];
    return verb === 'start' || verb === 'reset' ? { state: 'bookkeeping', spaces: ['packed-refs'], what: 'packed-refs (which git rewrites to delete its bisect refs)' } : null;
  }
  if (sub !== 'fetch' && sub !== 'pull') return null;
  if (args.some((a) => a === '--dry-run' || a === '--refmap' || a.startsWith('--refmap='))) return null;
  const ops = operandsSkipping(args, FETCH_VALUES);
  // (--multiple: every operand is a repository or a group)
  const repositories = args.includes('--multiple') ? ops : ops.slice(0, 1);
  const names = repositories.filter((r) => !/[:/\\]|^\.{1,2}$/.test(r) && !r.includes(HOLE) && !r.includes('\u2026'));
  const all = args.includes('--all');
  if (!all && names.length === 0) return null;
  return { state: 'bookkeeping', spaces: ['remotes'], what: `the remote-tracking refs (refs/remotes/${all || names.length > 1 ? '*' : names[0]}/...)` };
}

