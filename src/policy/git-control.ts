import { operandsSkipping } from '../engine/commands/git.js';
/**
 * Git commands that drop or rewrite a control file inside the worktree (issue #12 item 2):
 * `git clean` removes untracked files (ignored ones too with -x, only those with -X), `git stash
 * -u/-a` stashes them away, `git stash`, `git checkout -- PATH`, `git checkout -f`, `git restore`,
 * `git reset --hard` and `git switch --discard-changes` revert local changes of tracked files,
 * `git rm` / `git mv` delete or move tracked ones. A hook entry an orchestrator wrote into an
 * untracked `.claude/settings.json` (or into a tracked one, as a local change) is gone after any of
 * these, and Claude Code reloads its settings mid-session.
 *
 * Whether a file is untracked, ignored or locally modified needs the index: the workspace asks git
 * (`git status`) only when such a command names the worktree and a control file exists there
 * (src/policy/workspace/git-state.ts). Without an answer every state is assumed (fail closed).
 */

/** A file's state in its checkout, as far as git commands that drop files care. */
export type FileState = 'untracked' | 'ignored' | 'modified' | 'clean';

export interface ControlRisk {
  /** The states in which a file is dropped or rewritten. */
  states: Set<FileState>;
  /** The pathspecs that limit the command (as written), or null: every file. */
  pathspecs: string[] | null;
  /** How the command changes such a file, for the message. */
  verb: string;
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

/** Whether a pathspec (already absolute) can match `file` or something below it. */
export function pathspecReaches(spec: string, file: string): boolean {
  if (/[*?[]|^:/.test(spec) || spec.includes('\u2026')) return true;
  const s = spec.replace(/\/+$/, '') || '/';
  return file === s || file.startsWith(s === '/' ? '/' : s + '/') || s.startsWith(file + '/');
}
