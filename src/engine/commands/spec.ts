/**
 * A command's spec: what bashguard knows about one command (or one program under several names):
 * its names, what it does with its operands, options and subcommands (`build`, run on the first
 * lookup), what it prints for `$(...)` (`output`), and beside it, as the module's
 * `examples` export, the hook's decision for some commands, run as tests
 * (test/unit/engine/commands/examples.test.ts). One module per spec under specs/; registry.ts
 * finds them by name. Nothing in src imports the examples, so the bundles leave them out.
 */
import type { BuiltinHost, CommandContext, Invocation } from './context.js';
import type { ExpectedDecision } from '../effects/types.js';

export interface CommandSpec {
  /** What kind of knowledge this entry holds (shown by `bashguard explain --commands`). */
  category: 'writes' | 'wrapper' | 'shell' | 'code' | 'builtin' | 'project' | 'git' | 'read';
  /** Prints nothing (so `$(cmd)` is empty rather than unknown). */
  silent?: boolean;
  run(inv: Invocation, interp: CommandContext): void;
  /** What the command prints where its output is captured (`$(...)`), or null: not known. */
  output?(inv: Invocation, interp: CommandContext): string | null;
  /** See SpecModule.pathList. */
  pathList?(args: string[], cwd: string): string | null;
}

/** A command and the hook's decision for it in the standard layout (cwd: the worktree b1 of /home/dev/repo). */
export type Example = readonly [cmd: string, expect: ExpectedDecision];

/**
 * A builtin's shell-level part: what it does to the shell state the interpreter tracks (exit
 * status, variables `read` and `printf -v` set, the directory stack, aliases, traps, options).
 * It runs before the function lookup's fallbacks and `build`'s knowledge; false hands the
 * command on to `build`'s knowledge.
 */
export type ShellHandler = (inv: Invocation, sh: BuiltinHost) => boolean;

export interface SpecModule {
  /** The names it is looked up by (basenames); the first names the module's file. */
  names: readonly string[];
  /** The command's knowledge, built on the first lookup of one of its names. */
  build(): CommandSpec | undefined;
  /** What the command prints for `$(...)`, where that is known (`pwd`, `dirname`, `mktemp` ...). */
  output?(inv: Invocation, interp: CommandContext): string | null;
  /**
   * A command that prints a list of paths under a directory known from its words (`find DIR ...`,
   * `ls`, `git ls-files`): that directory with a trailing `/`, what a pipeline hands on
   * (`... | xargs rm`); null otherwise. `args` are the words after the name as written, before
   * expansion; `cwd` is the one cwd the command runs in.
   */
  pathList?(args: string[], cwd: string): string | null;
  /**
   * The builtin's shell-level part (see ShellHandler). A builtin whose whole behaviour is there
   * (`alias`, `trap`, `shopt`, the keywords) has a `build` that returns nothing: it is no entry
   * of the command table.
   */
  shell?: ShellHandler;
  /** What `shell` handles prints something not known statically (`alias`, `set`, `pushd +1`): `$(...)` of it is unknown. */
  shellPrints?: boolean;
}

/** A spec module's one export (the identity: it gives the object its type). */
export function command(spec: SpecModule): SpecModule {
  return spec;
}

let registered: ((name: string) => CommandSpec | undefined) | null = null;

/**
 * The registry's lookup, for a handler that hands over to another command's knowledge (`python -m
 * MODULE`). registry.ts sets it: a spec importing the registry would be an import cycle.
 */
export function lookupSpec(name: string): CommandSpec | undefined {
  return registered?.(name);
}

export function registerLookup(lookup: (name: string) => CommandSpec | undefined): void {
  registered = lookup;
}
