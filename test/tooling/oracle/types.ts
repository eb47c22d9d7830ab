/**
 * The execution oracle: runs a command for real in a throwaway copy of the standard layout
 * (docs/conventions.md) and reports what it changed, so corpus labels can be checked against
 * reality. See oracle.ts.
 */

/** The standard scenario layout, as absolute paths (docs/conventions.md). */
export const ORACLE_LAYOUT = {
  home: '/home/dev',
  main: '/home/dev/repo',
  worktree: '/home/dev/repo/.builders/b1',
  sibling: '/home/dev/repo/.builders/b2',
  claudeWorktree: '/home/dev/repo/.claude/worktrees/w3',
  outside: '/home/dev/other',
  commonDir: '/home/dev/repo/.git',
  scratch: ['/tmp', '/var/tmp'],
} as const;

export interface OracleCase {
  id: string;
  /** Run as `bash -c CMD`. */
  cmd: string;
  /** Absolute (relative ones resolve against the worktree). Default: the worktree. */
  cwd?: string;
  /**
   * Extra state created before the run, on top of the standard layout. Paths are absolute
   * (under /home, /tmp or /var/tmp) or relative to the worktree. Nothing here counts as a change.
   */
  setup?: {
    files?: Record<string, string>;
    dirs?: string[];
    /** path -> link target (stored verbatim, so `/home/dev/repo` points into the layout). */
    symlinks?: Record<string, string>;
  };
  /** Added to the sandbox environment (HOME=/home/dev, PATH, TERM=dumb, LANG=C.UTF-8 ...). */
  env?: Record<string, string>;
  /** Per-case timeout; default OracleOptions.timeoutMs. */
  timeoutMs?: number;
}

/**
 * 'touched': only the inode change time moved (chmod/chown/touch to the values it already had, cp -a
 * of an identical file, an open for writing that wrote nothing): a write happened without effect.
 */
export type ChangeKind = 'created' | 'modified' | 'deleted' | 'touched';

/**
 * Where a change landed:
 * - inside: in the case's worktree (the linked worktree containing its cwd; b1 by default);
 * - commonDir: in the common git dir, written by git on the worktree's own behalf (objects,
 *   worktrees/<name>/**, the worktree's branch ref and its reflog, the stash) or a directory whose
 *   only change is that a lock file came and went;
 * - scratch: /tmp, /var/tmp;
 * - outside: anything else (the main checkout's files and git state, siblings, HOME, /etc ...).
 */
export type ChangeWhere = 'inside' | 'commonDir' | 'scratch' | 'outside';

export interface OracleChange {
  path: string;
  kind: ChangeKind;
  where: ChangeWhere;
}

export interface OracleResult {
  id: string;
  /** The command was executed. */
  ran: boolean;
  /**
   * Set when the result is no evidence either way, with the reason: judged before running
   * (`needs network: curl`, `interactive program: vim`; then ran is false) or from the run
   * (`program not installed: rsync`; ran is true).
   */
  skipped?: string;
  /** The harness could not run the case (bad setup path, cwd missing from the layout, sandbox failure). */
  error?: string;
  exitCode: number | null;
  timedOut: boolean;
  /**
   * The linked worktree the case ran in (the one containing its cwd), which inside/outside are
   * relative to; null when the cwd is in no linked worktree (then nothing is inside).
   */
  worktree: string | null;
  /** Absolute paths created/modified/deleted outside the worktree; excludes scratch, /dev and commonDir. */
  changedOutside: string[];
  /** Outside paths written without effect (kind 'touched'); not in changedOutside. */
  touchedOutside: string[];
  /** Absolute paths created/modified/deleted inside the worktree. */
  changedInside: string[];
  /** Legitimate git bookkeeping in the common dir (see ChangeWhere 'commonDir'). */
  changedCommonDir: string[];
  /** Writes under /tmp and /var/tmp. */
  changedScratch: string[];
  /** Every change (including 'touched' ones), sorted by path. */
  changes: OracleChange[];
  /**
   * Git-level view: `HEAD: ...`, `commit: a -> b`, `index changed`, `status +?? leak` per checkout;
   * `shared` holds other refs, config and worktree registrations.
   */
  gitChanges: { main: string[]; worktree: string[]; shared: string[] };
  stdout: string;
  stderr: string;
  /** Things worth knowing about the run: shims used, background processes killed, output truncated. */
  notes: string[];
  /** Wall time for the case inside the driver (copy, run, snapshots), ms. */
  ms: number;
}

export interface OracleOptions {
  /** Per-case timeout in ms (default 5000). */
  timeoutMs?: number;
  /** Cases run in parallel (default: number of CPUs, at most 4). */
  concurrency?: number;
  /** After the command exits, how long background jobs may keep running before being killed (default 200). */
  backgroundGraceMs?: number;
  /** Emulate sudo (we are root already) when it is not installed (default true). */
  sudoShim?: boolean;
  /** Size of the private tmpfs holding all case copies (default '2g'). */
  tmpfsSize?: string;
  /** Called as each result arrives (completion order). */
  onResult?: (result: OracleResult) => void;
  /** Overrides for the programs used (tests). */
  unshare?: string;
  node?: string;
}

export type OracleAvailability = { available: true } | { available: false; reason: string };
