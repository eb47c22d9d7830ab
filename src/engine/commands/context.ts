/**
 * What command knowledge needs from the interpreter, and nothing more: handlers in
 * src/engine/commands record writes and problems, resolve and set the cwd, read and set variables and
 * run nested code through this interface, which src/engine/interpret/interpreter.ts implements. The
 * commands layer imports no interpreter class (the dependency runs one way: interpret -> commands).
 */
import type { Confidence } from '../effects/confidence.js';
import type { Effect, Evidence, GitEffect, WriteOp } from '../effects/types.js';
import type { FileKind, TestContext, Truth } from '../shell/conditions.js';
import type { SourceLine } from '../shell/extras.js';
import type { Field } from '../shell/field.js';
import type { ArrayValue, CwdValue, State } from '../shell/state.js';
import type { Assignment, Range, Script } from '../syntax/ir.js';

/** Where a command's standard input comes from, when that matters (shells reading a script). */
export type Stdin =
  | { kind: 'text'; text: string; known: boolean }
  | { kind: 'paths'; prefix: string }
  | { kind: 'unknown' };

export interface Invocation {
  /** The command name as bashguard looks it up (basename). */
  name: string;
  /** The name as written, for messages. */
  shown: string;
  args: Field[];
  st: State;
  /** Prefix assignments and `env VAR=x`: the environment of this command only. */
  env: Map<string, Field>;
  range: Range;
  via: string[];
  stdin: Stdin;
}

export interface WriteOptions {
  subtree?: boolean;
  redirect?: boolean;
  cwdOverride?: CwdValue;
  confidenceCap?: Confidence;
  linkTarget?: string;
  /** Written by renaming a new file over the path (WriteEffect.replaces): a link there is replaced, not followed. */
  replaces?: boolean;
  /** A hard link's source as written (`ln SRC DST`): the link shares SRC's inode (WriteEffect.hardLinkSource). */
  hardLinkSource?: string;
  /** The source as written when the command moves or copies it without following a symlink there (WriteEffect.linkFrom). */
  linkFrom?: string;
  viaDescriptor?: { fd: number; text: string };
  /** Creates names not known statically below the path (a tree writer). */
  tree?: boolean;
}

export interface CommandContext {
  /** The analysis' own context: nested parses, the host's files, the checkout root of a directory. */
  readonly ctx: {
    parse(source: string): Script | { error: string; limit?: boolean };
    host?: { readFile?(path: string): string | null; realpath?(path: string): string | null; stat?(path: string): FileKind | null };
    gitToplevel?(dir: string): string | null;
  };
  /** The effects recorded so far. */
  readonly effects: readonly Effect[];
  /** Whether an effect recorded so far may have created, changed or removed `path` (or a program bashguard does not know ran). */
  touched(path: string): boolean;
  /** Files the script itself wrote, with their text when known (absolute, normalized). */
  readonly writtenFiles: ReadonlyMap<string, { text: string; known: boolean }>;
  /** A write of `field` (resolved against the cwd candidates): one effect per candidate. */
  write(op: WriteOp, field: Field, st: State, range: Range, command: string, opts?: WriteOptions): void;
  git(effect: Omit<GitEffect, 'kind' | 'via'>): void;
  /** Code that cannot be known statically (BG4002); `elsewhere`: run by another process (a daemon). */
  dynamicProblem(reason: string, text: string, range: Range, elsewhere?: true): void;
  /** Every absolute path `code` mentions may be written. */
  maybeWrites(code: string, range: Range, command: string, what: string): void;
  /** `how`: what changes the directory, for the evidence (`cd`, `git -C`, `tar -C` ...). */
  resolveCd(st: State, target: Field, range: Range, physical: boolean, how?: string): CwdValue;
  setCwd(st: State, next: CwdValue, range: Range, command: string): void;
  /**
   * The command may fail, and then the shell goes on in `failure` (a copy of `st` from before the
   * command changed it) with exit status 1; `st` is the path where it succeeded (status 0).
   */
  mayFail(st: State, failure: State): void;
  /** The command's exit status is known: 0 (`ok`) or not. */
  exitStatus(ok: boolean): void;
  /** False where a `cd` is taken to succeed (Host#cdTakenToSucceed). */
  readonly cdMayFail: boolean;
  /**
   * Whether a process can make `path` (absolute) its cwd now: true when the host says it is a
   * directory it can search, false when nothing or no directory is there, null when unknown or
   * when something this command ran before may have changed it.
   */
  enterable(path: string): boolean | null;
  pwd(st: State): string | null;
  setVar(st: State, name: string, value: string, confidence: Confidence, evidence: Evidence[], exported?: boolean): void;
  /** Runs `run`; what it records is at most possible (code bash runs only on a condition the analysis cannot decide). */
  possibly(run: () => void): void;
  /** Shell code run in `st` (`bash -c`, `eval`, code a program runs). */
  runNested(source: string, st: State, range: Range, label: string, stdin?: Stdin): void;
  /** `fields` run as a command from `st` (wrappers: sudo, xargs, find -exec). */
  runWrapped(fields: Field[], env: Map<string, Field>, st: State, range: Range, label: string, stdin: Stdin, cwd?: CwdValue): void;
  sourceFile(path: Field, st: State, range: Range, stdin?: Stdin): void;
  /** A child shell's state (`bash -c`): cwd and exported variables. */
  child(st: State): State;
  /** What the command prints, where its output is captured. */
  emitOutput(text: string): void;
}

/**
 * Where arithmetic text comes from (src/engine/interpret/arith-code.ts): the script's own
 * expression or subscript (its substitutions run from the IR), a value (a variable's, an expanded
 * operand), or an array subscript given as a value (`read 'a[$(cmd)]'`), which bash expands.
 */
export type ArithText = 'source' | 'value' | 'subscript';

/** The options of `declare -Anx ...` / `local -n` / `export`. */
export interface DeclareFlags {
  exported?: boolean;
  assoc?: boolean;
  indexed?: boolean;
  nameref?: boolean;
}

/**
 * What a builtin's shell-level part (SpecModule.shell) needs of the interpreter: shell state it
 * sets, the problems it reports and the nested runs it starts. The interpreter implements it.
 */
export interface BuiltinHost {
  status: Truth;
  readsUnknown: boolean;
  assignVariable(st: State, a: Assignment, value: Field | null, flags: DeclareFlags): void;
  dynamicProblem(reason: string, text: string, range: Range, elsewhere?: true): void;
  limitProblem(reason: string, text: string, range: Range): void;
  /** Valid bash that tree-sitter read otherwise (src/engine/effects/types.ts ProblemEffect.misread): BG0001. */
  misreadProblem(reason: string, text: string, range: Range): void;
  /** `break N` / `continue N`: the path leaves N loops (src/engine/interpret/control-flow.ts LoopFrames). */
  loopJump(st: State, kind: 'break' | 'continue', levels: number): void;
  emitOutput(text: string): void;
  runBackground(fields: Field[], inv: Invocation): void;
  runTrap(code: string, st: State, range: Range, label: string, inPlace: boolean): void;
  /** Runs `run`; what it records is at most possible (code bash runs only on a condition the analysis cannot decide). */
  possibly(run: () => void): void;
  setArray(st: State, name: string, arr: ArrayValue, confidence: Confidence, evidence: Evidence[], exported?: boolean): void;
  setCwd(st: State, next: CwdValue, range: Range, command: string): void;
  mayFail(st: State, failure: State): void;
  exitStatus(ok: boolean): void;
  /** False where a `cd` is taken to succeed (Host#cdTakenToSucceed). */
  readonly cdMayFail: boolean;
  enterable(path: string): boolean | null;
  setPositional(st: State, values: Field[] | null): void;
  setVar(st: State, name: string, value: string, confidence: Confidence, evidence: Evidence[], exported?: boolean): void;
  sourceLine(range: Range): SourceLine;
  testContext(st: State, doubleBracket: boolean): TestContext;
  /** The code an arithmetic evaluation of `text` runs through the variables it names (`let`). */
  arithmetic?(text: string, st: State, range: Range, how: ArithText): void;
}
