/**
 * What an analysis is given (the cwd, the environment, the machine through Host, its limits) and
 * what it returns (Analysis). src/engine/analyze.ts builds the one and reads the other.
 */
import type { Script } from '../syntax/ir.js';
import type { CwdEvent, Effect } from '../effects/types.js';
import type { FileKind } from '../shell/conditions.js';
import type { CommandTrace } from './effect-log.js';
import type { Unreachable } from './reachability.js';

/** What the interpreter may ask of the machine. Everything is optional: a pure analysis works without it. */
export interface Host {
  /** Physical path of an existing directory (for `cd -P`); null if unknown. */
  realpath?(path: string): string | null;
  /** Contents of a small file (for `source FILE`); null if unreadable. */
  readFile?(path: string): string | null;
  /**
   * What is at a path now, following symlinks ('missing' when nothing is), for `[ -d X ]` and
   * friends; null when it cannot tell. Without it, file tests are undecided.
   */
  stat?(path: string): FileKind | null;
  /**
   * Whether a process of this user can make the directory at `path` its cwd now (chdir(2): search
   * permission on it and every directory above it); null when it cannot tell. Without it, no `cd`
   * is taken to succeed for certain.
   */
  searchable?(path: string): boolean | null;
  /**
   * Every `cd` is taken to succeed (no path where it failed and the shell stayed): lint without
   * `--read-disk`, which analyzes a script for a disk it does not read and reports what the script
   * does where its directories are there.
   */
  cdTakenToSucceed?: boolean;
}

export interface AnalyzeContext {
  /** Absolute cwd the command starts in. */
  cwd: string;
  /** Environment visible to the command (HOME, TMPDIR, USER ...). Values count as literal. */
  env: Record<string, string | undefined>;
  host?: Host;
  /** Re-parses nested shell code (`bash -c`, `eval`, heredocs piped to a shell). */
  parse(source: string): Script | { error: string; limit?: boolean };
  /** performance.now() after which the analysis stops (reported as an analysis limit). */
  deadline?: number;
  /**
   * false: no CommandTrace per simple command (Analysis#commands stays empty). The traces are for
   * `bashguard explain`; a decision reads only the effects, and the argv of every command was
   * built for nothing in the hook and in lint.
   */
  commandTraces?: boolean;
  /** How deep `bash -c` / `eval` / `source` may nest before the rest is "cannot analyze". */
  maxShellDepth?: number;
  /** Budget of interpreter steps (simple commands + function calls). */
  maxSteps?: number;
  /** The file being analyzed (lint): effects of code in other files (sourced) carry an Origin. */
  file?: string;
  /**
   * Lint: after the script, every function no call reached is analyzed too, with unknown
   * arguments (a library, a plugin, a completion file). The hook analyzes only what runs.
   */
  everyFunction?: boolean;
  /**
   * Lint's source hints (`# bashguard source=`, `source-path=`): the file the `source` command on
   * a line of the analyzed file reads, and directories (absolute) a sourced name is looked for in
   * when its own path is not known or not there.
   */
  sourceHints?: { at: Map<number, string>; dirs: string[] };
  /** The checkout root containing a directory (for `$(git rev-parse --show-toplevel)`), when known. */
  gitToplevel?(dir: string): string | null;
  /**
   * The variables of `env` a condition may be decided on: the analyzed shell provably has their
   * values. The rest of `env` names an effect's likely path but decides nothing, as does a
   * variable the script does not set (it may come from the environment). Default: HOME_KNOWN.
   */
  knownEnv?: readonly string[];
}

/**
 * The hook's default: HOME, because the agent's client starts the hook and the agent's shell as
 * the same user, and both inherit the client's HOME (bash keeps it; a login shell sets it from
 * the same password entry). $PWD is not read from the environment at all: it is the cwd the
 * client gives, which the interpreter tracks. Every other variable of the hook's environment may
 * differ in the agent's shell (its start-up files run there, not here).
 */
export const HOME_KNOWN: readonly string[] = ['HOME'];

export interface Analysis {
  effects: Effect[];
  timeline: CwdEvent[];
  commands: CommandTrace[];
  /** Lint (everyFunction): the regions of the analyzed text no path reaches, when every path was followed. */
  unreachable?: Unreachable[];
}

