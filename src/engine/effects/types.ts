/**
 * Effects: what a command does to the file system and to git, as the interpreter predicts it.
 * Paths are absolute and may contain holes (HOLE) where a value is unknown.
 */
import type { Range } from '../syntax/ir.js';
import type { Confidence } from './confidence.js';

/** Marks an unknown stretch inside a predicted path or value (never appears in real bash words). */
export const HOLE = '\u0000';

export interface Evidence {
  range: Range;
  note: string;
}

/**
 * Where an effect's code is when that is another file than the one analyzed (a function or the
 * top level of a sourced file): its range there, and how the analyzed file got to it. The
 * effect's own `range` is then the command of the analyzed file that led there (lint reports
 * at the origin, the hook at the command).
 */
export interface Origin {
  file: string;
  range: Range;
  /** Outermost first: `sources lib.sh`, `calls f` ..., each at its place in its own file. */
  chain: { file: string | null; line: number; note: string }[];
}

export type WriteOp =
  | 'write' // create or overwrite a file (>, tee, cp dest, dd of=, sort -o ...)
  | 'append' // >>, tee -a
  | 'create' // touch
  | 'mkdir'
  | 'delete' // rm, rmdir, unlink, shred, mv source, find -delete
  | 'move' // mv destination
  | 'link' // ln destination
  | 'modify' // sed -i, perl -i, truncate, patch
  | 'chmod' // chmod, chown, chgrp
  | 'extract' // tar -x, unzip, git clone, wget -P: writes somewhere under the path
  | 'maybe-write' // inline code or an unknown program mentions the path
  | 'unknown-command'; // a command bashguard does not know is given the path (reported only in protected regions)

export interface WriteEffect {
  kind: 'write';
  op: WriteOp;
  /** Absolute path, `..` not yet resolved (the policy resolves it physically); HOLE where unknown. null when nothing is known. */
  path: string | null;
  /** The word as written in the command. */
  text: string;
  /** True when the effect may touch anything below `path` (extract, rm -r, cp -r into a dir). */
  subtree: boolean;
  confidence: Confidence;
  /** The cwd the path was resolved against (null when absolute or unknown). */
  cwd: string | null;
  /** The command that does it (after peeling wrappers), e.g. `tee`, `>`, `sed -i`. */
  command: string;
  /** Wrappers peeled on the way, outermost first, e.g. ['sudo', 'bash -c']. */
  via: string[];
  range: Range;
  evidence: Evidence[];
  origin?: Origin;
  /**
   * For `ln -s TARGET LINK`: the link's target as written (HOLE where unknown), so later paths
   * through LINK resolve.
   */
  linkTarget?: string;
  /**
   * The absolute path of SRC (HOLE where unknown) when the command puts SRC itself at the path, not
   * what it points to (`mv SRC DST`, `cp -P`/`-d`/`-a`/`-R`): a symlink at SRC is then one at the path.
   */
  linkFrom?: string;
  /**
   * The command writes a new file beside the path and renames it over the path (`sed -i` without
   * --follow-symlinks, `perl -i`, `ruby -i`, `gawk -i inplace`): a symlink or hard link at the path
   * itself is replaced by a regular file, and what it pointed to is not written.
   */
  replaces?: boolean;
  /**
   * For a hard link (`ln SRC DST`, `link SRC DST`, `cp -l SRC DST`): the absolute path of SRC (HOLE
   * where unknown). A hard link shares SRC's inode, so every later write through DST is a write
   * to SRC: the policy judges the link as a write to SRC as well as to DST.
   */
  hardLinkSource?: string;
  /**
   * A tree writer (`cp -r`/`cp -a` of a directory, `mv` of a directory, `tar -x`, `unzip -o`,
   * `git apply`, `patch`, git checkout plumbing ...) that creates names below `path` it does not
   * know in advance. `names`: the relative paths it is known to create, when the command says
   * (an archive's listing, a patch's headers); absent: any name. The policy counts it as writing
   * every protected file below `path` whose name it could create (ask where the names are unknown).
   */
  treeWrite?: { names?: string[] };
  /**
   * Creates names not known statically below `path` (`mv` of what may be a directory, a patch);
   * `extract` and recursive copies/moves are tree writers without it.
   */
  tree?: boolean;
  /** A glob in `path` may match names starting with `.` (`shopt -s dotglob`, GLOBIGNORE, extglob). */
  dotglob?: boolean;
}

export type GitAccess =
  /** Reads only: status, log, diff, show ... */
  | 'read'
  /** Mutates the working tree, index or HEAD of the checkout it targets: commit, add, reset ... */
  | 'checkout'
  /** Writes repository-wide configuration (config without --worktree). */
  | 'config'
  /** Writes hooks (core.hooksPath, anything under hooks/). */
  | 'hooks'
  /** Writes shared refs: tag, branch -D, update-ref ... */
  | 'refs'
  /** Adds, removes or prunes worktrees. */
  | 'worktrees'
  /** Moves or re-creates the repository's git dir (`git init --separate-git-dir` in a checkout). */
  | 'gitdir'
  /** A subcommand bashguard does not know. */
  | 'unknown';

export interface GitEffect {
  kind: 'git';
  /** The subcommand and its arguments as shown, for messages and `explain`; the policy judges `writes`. */
  subcommand: string | null;
  args: string[];
  /** The subcommand's family (what `explain` prints); `writes` says what it means. */
  access: GitAccess;
  /** The directory git starts in (cwd after every -C), HOLE where unknown, null when unknown. */
  dir: string | null;
  /** From --git-dir or GIT_DIR. */
  gitDir: string | null;
  /** From --work-tree or GIT_WORK_TREE. */
  workTree: string | null;
  confidence: Confidence;
  via: string[];
  range: Range;
  evidence: Evidence[];
  origin?: Origin;
  /** A one-line description for messages, e.g. `git -C /repo commit`. */
  text: string;
  /**
   * Local branches the command moves, creates or deletes (`refs/heads/<name>`), HOLE for ones
   * not known statically: a branch another checkout has checked out moves that checkout.
   */
  branches?: string[];
  /** What shared state a `refs` command writes, for the message (tags, packs, reflogs ...). */
  shared?: string;
  /**
   * What the call writes, as meaning: the policy decides from these alone (never from `args`).
   * Empty: it only reads. The repository they land in is the one `dir`/`gitDir`/`workTree` name.
   */
  writes: GitWrite[];
}

/** A file's state in its checkout, as far as git commands that drop files care. */
export type FileState = 'untracked' | 'ignored' | 'modified' | 'clean';

/** Where a ref lives: the branch namespace, or one of the others every checkout shares. */
export type RefSpace = 'branches' | 'tags' | 'stash' | 'remotes' | 'notes' | 'replace' | 'packed-refs' | 'reflogs' | 'other';

/**
 * One piece of git state a call writes. `confidence`, where present, caps the effect's own (the
 * piece may not be written at all); `note` says how, for the evidence.
 */
export type GitWrite =
  /** The working tree, index and HEAD of the checkout the call acts on (and the branch its HEAD names). */
  | { state: 'checkout'; parts: Array<'files' | 'index' | 'head'>; confidence?: Confidence }
  /**
   * Files of that checkout the command deletes, reverts or moves away by their git state
   * (`git clean`, `stash -u`, `checkout -- PATH`, `reset --hard`, `rm`, `mv`): those in one of
   * `states`, below one of `pathspecs` (as written, relative to `dir`; null: every file).
   */
  | { state: 'drops'; states: FileState[]; pathspecs: string[] | null; verb: string }
  /**
   * The branch `refs/heads/<name>` (HOLE: a branch not known statically). `switches`: the call
   * then has it checked out in this checkout (`checkout -B`), so it becomes this checkout's own.
   * `creates`: only a new branch (`checkout -b`, `switch -c`, `worktree add -b`: git refuses a
   * name that exists), so no other checkout's branch moves.
   */
  | { state: 'branch'; name: string; switches: boolean; creates?: boolean; confidence?: Confidence }
  /** Refs other than named branches, packed-refs or reflogs, shared by every checkout; `what` for the message. */
  | { state: 'refs'; spaces: RefSpace[]; what: string; confidence?: Confidence }
  /**
   * Refs every checkout shares that git updates as bookkeeping of the call's own work: the stash
   * entry `git stash` pushes or pops, the remote-tracking refs `git fetch`/`git pull` move. Not a
   * finding of their own (they follow what the call does), but a linked worktree whose shared
   * refs the kernel holds cannot write them (src/policy/shared-git.ts).
   */
  | { state: 'bookkeeping'; spaces: RefSpace[]; what: string }
  /** The repository config (shared by every checkout). */
  | { state: 'config' }
  /** Which hooks run (hooks/, core.hooksPath, a template's hooks). */
  | { state: 'hooks' }
  /** The list of worktrees (adds, removes, prunes, moves one). */
  | { state: 'worktrees' }
  /** Moves or re-creates the repository's git dir itself. */
  | { state: 'gitdir' }
  /** New objects in the object store (shared, but only added to: inside the line). */
  | { state: 'objects' }
  /** A subcommand bashguard does not know: anything git can write. */
  | { state: 'unknown' };

export interface ProblemEffect {
  kind: 'problem';
  /** Why this part could not be analyzed. */
  reason: string;
  /** analysis-limit: input/recursion budget hit; syntax: parse error; dynamic: eval of unknown, source, unknown command name. */
  category: 'syntax' | 'analysis-limit' | 'dynamic';
  text: string;
  range: Range;
  via: string[];
  origin?: Origin;
  /** The code runs in another process, outside this call and any sandbox it runs in (a daemon: tmux, ssh, docker, at). */
  elsewhere?: true;
  /**
   * (syntax) tree-sitter read valid text, but not as bash reads it: a construct the grammar split
   * (`! { ...; }`, `time for ...`), whose code runs unanalyzed. Unlike a parse error, what such a
   * place runs may have changed any file.
   */
  misread?: true;
}

export type Effect = WriteEffect | GitEffect | ProblemEffect;

/** One step of the cwd timeline shown by `explain`. */
export interface CwdEvent {
  range: Range;
  command: string;
  /** Candidate cwds after the step (more than one after branches that disagree); null if unknown. */
  cwd: string[] | null;
  confidence: Confidence;
}

/** The decision a command spec's example expects (the policy's, for the standard layout). */
export type ExpectedDecision = 'allow' | 'ask' | 'deny';
