/**
 * The abstract interpreter: walks the syntax IR carrying the shell state (cwd candidates,
 * directory stack, variables, functions) and emits effects. It runs nothing; command knowledge
 * comes from the table in src/engine/commands, the file system only through the injected Host.
 *
 * This class holds what a run shares (the record, the exit status, the output being captured, the
 * loop and return frames) and sends each node to the piece that runs it: simple commands
 * (simple.ts), compound commands (compound.ts), functions (functions.ts), nested shells
 * (nested.ts), assignments (assign.ts), redirects (redirects.ts), the cwd (cwd.ts). Each piece
 * sees it through a small interface of its own (CompoundHost, CommandHost ...), as the command
 * specs see it through CommandContext.
 */
import { arithmeticCode } from './arith-code.js';
import type { ArithText } from '../commands/context.js';
import type { Assignment, Command, FunctionDef, Range, Redirect, Script, SimpleCommand, Word } from '../syntax/ir.js';
import { HOLE, type CwdEvent, type Effect, type Evidence, type GitEffect, type WriteOp } from '../effects/types.js';
import type { Confidence } from '../effects/confidence.js';
import { assignState, cloneState, isPositionalKey, joinStates, NO_POSITIONAL, type ArrayValue, type CwdValue, type Positional, type State, type Variable } from '../shell/state.js';
import { CowMap } from '../shell/cow-map.js';
import { emptyExtras, type SourceLine } from '../shell/extras.js';
import { joinPath, normalizeLogical } from '../shell/paths.js';
import type { TestContext, Truth } from '../shell/conditions.js';
import type { BuiltinHost, CommandContext, DeclareFlags, Invocation, Stdin, WriteOptions } from '../commands/context.js';
import type { ExpandHooks, Field } from './expand.js';
import { HOME_KNOWN, type Analysis, type AnalyzeContext, type Host } from './analyze-context.js';
import { EffectLog, type CommandTrace } from './effect-log.js';
import { Sources } from './sources.js';
import { SimpleCommands, type CommandHost } from './simple.js';
import { andOr, caseCommand, ifCommand, loop, pipeline, subshell, testCommand, type CompoundHost } from './compound.js';
import { LoopFrames, ReturnFrames } from './control-flow.js';
import { Functions, type FunctionHost } from './functions.js';
import { NestedShells, type NestedHost } from './nested.js';
import { assignVariable, setArray, setPositional, setVar, type AssignHost } from './assign.js';
import { closeRedirects, openRedirects, type RedirectHost, type RedirectLayer } from './redirects.js';
import { resolveCd, setCwd } from './cwd.js';
import { Reachability } from './reachability.js';

export { HOME_KNOWN };
export type { Analysis, AnalyzeContext, CommandTrace, DeclareFlags, Host };

/** The variables and positional parameters of each frozen environment (see Interpreter#initialState). */
const ENV_VARS = new WeakMap<object, { vars: CowMap<string, Variable>; pos: Positional }>();

/**
 * The environment's entries as exported variables; one named like a positional parameter (`1=x`)
 * is one, as set from the environment.
 */
function envVariables(env: Record<string, string | undefined>, freeze: boolean): { vars: CowMap<string, Variable>; pos: Positional } {
  const vars = CowMap.of<string, Variable>();
  let pos: Map<string, Variable> | null = null;
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    const variable: Variable = { value: v, confidence: 'certain', evidence: [], exported: true, fromEnvironment: true };
    if (freeze) {
      Object.freeze(variable.evidence);
      Object.freeze(variable);
    }
    if (isPositionalKey(k)) (pos ??= new Map()).set(k, variable);
    else vars.set(k, variable);
  }
  return { vars, pos: pos ?? NO_POSITIONAL };
}

export class Interpreter implements ExpandHooks, CommandContext, BuiltinHost, CompoundHost, RedirectHost, AssignHost, FunctionHost, NestedHost, CommandHost {
  /** The effects, timeline, traces and written files (effect-log.ts); the arrays below are its own. */
  readonly log = new EffectLog();
  readonly effects: Effect[] = this.log.effects;
  readonly timeline: CwdEvent[] = this.log.timeline;
  readonly commands: CommandTrace[] = this.log.commands;
  readonly writtenFiles = this.log.writtenFiles;

  get stepLimitReached(): boolean {
    return this.simple.limitReached;
  }

  constructor(readonly ctx: AnalyzeContext) {
    this.reach = ctx.everyFunction ? new Reachability() : null;
    this.functions = new Functions(this, !!ctx.everyFunction);
    this.nested = new NestedShells(this);
    this.simple = new SimpleCommands(this);
  }

  initialState(): State {
    const env = this.ctx.env;
    // A frozen environment (Workspace.check's, one per cwd) cannot change: its variables are built
    // once and every run starts from a fork (copied on its first assignment). The variables are
    // frozen too, so an in-place change anywhere would throw instead of leaking into the next run.
    let template = ENV_VARS.get(env);
    if (!template && Object.isFrozen(env)) ENV_VARS.set(env, (template = envVariables(env, true)));
    const { vars, pos } = template ? { vars: template.vars.fork(), pos: template.pos } : envVariables(env, false);
    const cwd: CwdValue = { paths: [normalizeLogical(this.ctx.cwd)], confidence: 'certain', evidence: [], changed: false };
    return { cwd, oldpwd: null, dirStack: [], vars, pos, funcs: CowMap.of(), terminated: false, returned: false, returns: [], extras: emptyExtras() };
  }

  run(script: Script, st: State = this.initialState()): Analysis {
    for (const p of script.problems) {
      this.effects.push({ kind: 'problem', reason: p.reason, category: p.limit ? 'analysis-limit' : 'syntax', text: p.text, range: p.range, via: this.log.via });
    }
    this.sources.start(script.source, this.ctx.file ?? null);
    this.exec(script.body, st, { kind: 'unknown' });
    this.runExitTraps(st);
    if (this.ctx.everyFunction) this.functions.runUncalled(st);
    // A limit left paths unfollowed; a parse error left the file's structure partly unknown (a
    // command read as unconditional may be the right side of `||`): no region is said unreachable.
    const limited = this.reach !== null && (script.problems.length > 0 || this.loopUnsettled || this.effects.some((e) => e.kind === 'problem' && e.category === 'analysis-limit'));
    return { effects: this.effects, timeline: this.timeline, commands: this.commands, unreachable: this.reach && !limited ? this.reach.result() : undefined };
  }

  // ---------------------------------------------------------------- shell state the builtins use

  /** The exit status of the last command when it is known (tests on known values, `true`, `false`). */
  status: Truth = null;
  guesses = 0;

  envKnown(name: string): boolean {
    return (this.ctx.knownEnv ?? HOME_KNOWN).includes(name);
  }

  /** Lint (everyFunction): the commands of the analyzed text reached, and where paths ended (reachability.ts). */
  private readonly reach: Reachability | null;
  /** Function bodies and sourced files being run: `return` ends one of them; with none, it ends nothing. */
  readonly returns = new ReturnFrames();
  /** The loops being run, for `break` and `continue` (control-flow.ts). */
  readonly loops = new LoopFrames();
  /** A loop's passes ran out before its state settled: its result is not every path's, so nothing is said unreachable. */
  loopUnsettled = false;

  get returnDepth(): number {
    return this.returns.depth;
  }

  loopJump(st: State, kind: 'break' | 'continue', levels: number): void {
    this.loops.jump(st, kind, levels, this.returns.depth);
  }

  /** Set while a loop reads its input line by line without being unrolled: `read` gets unknown values. */
  readsUnknown = false;
  /** Which text is being read (sources.ts). */
  readonly sources = new Sources();
  /** Function definitions and calls (functions.ts). */
  private readonly functions: Functions;
  /** Simple commands: expansion, redirects, dispatch, the step budget (simple.ts). */
  private readonly simple: SimpleCommands;
  /** Nested shells, traps, aliases, wrapped commands (nested.ts). */
  private readonly nested: NestedShells;

  sourceLine(range: Range): SourceLine {
    return this.sources.line(range);
  }

  /** Decides file tests against the disk as it is now, unless this command changed the path before. */
  testContext(st: State, doubleBracket: boolean): TestContext {
    return {
      doubleBracket,
      fileKind: (p) => {
        const cwd = p.startsWith('/') ? '/' : st.cwd.paths?.length === 1 ? st.cwd.paths[0]! : null;
        if (cwd === null || cwd.includes(HOLE)) return null;
        const abs = joinPath(cwd, p);
        const norm = normalizeLogical(abs);
        const written = this.writtenFiles.get(norm);
        if (written) return 'file';
        if (this.touched(norm)) return null;
        return this.ctx.host?.stat?.(abs) ?? null;
      },
    };
  }

  /** Whether an effect recorded so far may have created, changed or removed `path`. */
  touched(path: string): boolean {
    return this.log.touched(path);
  }

  /** `set -- a b`, function arguments: $1 ... $N, $# and "$@"; null makes them unknown. */
  setPositional(st: State, values: Field[] | null): void {
    setPositional(st, values);
  }

  // ---------------------------------------------------------------- nested shells (nested.ts)

  /** A trap handler: EXIT handlers run when the shell ends; others may run at any time, so now, in a copy. */
  runTrap(code: string, st: State, range: Range, label: string, inPlace: boolean): void {
    this.nested.runTrap(code, st, range, label, inPlace);
  }

  runExitTraps(st: State): void {
    this.nested.runExitTraps(st);
  }

  /** `coproc cmd`, `cmd &`: runs in a background subshell. */
  runBackground(fields: Field[], inv: Invocation): void {
    this.nested.runBackground(fields, inv);
  }

  /** Analyzes shell source (`bash -c`, `eval`, a heredoc fed to a shell) in `st`. */
  runNested(source: string, st: State, range: Range, label: string, stdin: Stdin = { kind: 'unknown' }, file: string | null = null): void {
    this.nested.runNested(source, st, range, label, stdin, file);
  }

  /** `source FILE`: read and analyze it when possible, else report it as not analyzed. */
  sourceFile(path: Field, st: State, range: Range, stdin?: Stdin): void {
    this.nested.sourceFile(path, st, range, stdin);
  }

  /** Runs `fields` as a command in a child process started from `st` (wrappers like sudo, xargs). */
  runWrapped(fields: Field[], env: Map<string, Field>, st: State, range: Range, label: string, stdin: Stdin, cwd?: CwdValue): void {
    this.nested.runWrapped(fields, env, st, range, label, stdin, cwd);
  }

  /** A fresh child shell state (`bash -c`): cwd and exported variables only. */
  child(st: State): State {
    return this.nested.child(st);
  }

  /** Records what a command wrote into a file it names, when known, so running the file later can be analyzed. */
  recordFile(path: string, text: string | null, append: boolean): void {
    this.log.recordFile(path, text, append);
  }

  // ---------------------------------------------------------------- ExpandHooks

  commandSubstitution(body: Command, st: State, _text: string): string {
    const sub = cloneState(st);
    const out: string[] = [];
    this.execCapturing(body, sub, out);
    const joined = out.join('').replace(/\n+$/, '');
    return joined;
  }

  possibly(run: () => void): void {
    const from = this.log.effects.length;
    run();
    const effects = this.log.effects;
    for (let i = from; i < effects.length; i++) {
      const e = effects[i]!;
      if ('confidence' in e && e.confidence !== 'possible') effects[i] = { ...e, confidence: 'possible' } as typeof e;
    }
  }

  promptCode(value: string, st: State, range: Range): void {
    this.runNested(`: ${value}`, cloneState(st), range, 'prompt expansion (@P)');
  }

  arithmetic(text: string, st: State, range: Range, how: ArithText): void {
    arithmeticCode(this, text, st, range, how);
  }

  /** Descriptor numbers for `<(...)`, as bash hands them out (63, 62, ...), one per substitution of the analysis. */
  private nextProcFd = 63;

  /**
   * `<(cmd)` is a file holding what cmd prints: recorded like a file the command wrote, so a
   * shell or `source` reading it runs that text (unknown output: dynamic code). `>(cmd)` reads.
   */
  processSubstitution(body: Command, st: State, direction: '<' | '>'): string {
    if (direction === '>') {
      this.exec(body, cloneState(st), { kind: 'unknown' });
      return '/dev/fd/63';
    }
    const out: string[] = [];
    this.execCapturing(body, cloneState(st), out);
    // Past the numbers kept apart, one path is shared: what it holds is then not known.
    const spare = this.nextProcFd > 10;
    const path = `/dev/fd/${spare ? this.nextProcFd-- : this.nextProcFd}`;
    this.log.recordFile(path, spare ? out.join('') : null, false);
    return path;
  }

  problem(reason: string, text: string, word: Word): void {
    this.effects.push({ kind: 'problem', reason, category: 'syntax', text, range: word.range, via: this.log.via });
  }

  pwd(st: State): string | null {
    return st.cwd.paths?.length === 1 ? st.cwd.paths[0]! : null;
  }

  // ---------------------------------------------------------------- output capture

  /** Where what commands print goes, for `$(...)`; null where nothing captures it. */
  capture: string[] | null = null;

  execCapturing(body: Command, st: State, out: string[]): void {
    const saved = this.capture;
    this.capture = out;
    try {
      this.exec(body, st, { kind: 'unknown' });
    } finally {
      this.capture = saved;
    }
  }

  /** Records what a command prints, for `$(...)`. */
  emitOutput(text: string): void {
    if (this.capture) this.capture.push(text);
  }

  // ---------------------------------------------------------------- commands

  /**
   * The path on which the command just run failed, where that changes the state (a `cd` that may
   * fail leaves the cwd where it was): set by CommandContext#mayFail, for `st` only. `exec` joins it
   * back; `execSplit` hands it to the caller that decides on the exit status (`&&`, `||`, `if`, `!`).
   */
  private failed: { of: State; state: State } | null = null;

  /** Hands a part's failure path on as the enclosing command's (the last of a list, a group's body). */
  passFailure(st: State, failure: State | null): void {
    if (failure !== null) this.failed = { of: st, state: failure };
  }

  /** The failure path set for `st` by the command just run, not yet joined or handed on. */
  failureOf(st: State): State | null {
    return this.failed !== null && this.failed.of === st ? this.failed.state : null;
  }

  get cdMayFail(): boolean {
    return this.ctx.host?.cdTakenToSucceed !== true;
  }

  exitStatus(ok: boolean): void {
    this.status = ok;
  }

  mayFail(st: State, failure: State): void {
    this.failed = { of: st, state: failure };
    this.status = true;
  }

  /** Runs `cmd` on `st`; where it may fail with another state, the two paths are joined. */
  exec(cmd: Command, st: State, stdin: Stdin): void {
    const failure = this.execSplit(cmd, st, stdin);
    if (failure !== null) {
      assignState(st, joinStates([st, failure]));
      this.status = null;
    }
  }

  /**
   * Runs `cmd` on `st`. Where it may fail with a state of its own, returns that failure path and
   * leaves `st` the path where it succeeded (status true); else null (`st` is every path).
   */
  execSplit(cmd: Command, st: State, stdin: Stdin): State | null {
    this.failed = null;
    this.execOne(cmd, st, stdin);
    const f = this.failed as { of: State; state: State } | null;
    this.failed = null;
    if (f === null || f.of !== st) return null;
    if (st.terminated || st.returned) {
      // Only the failure goes on (`cd x && exit`): it is every path that does.
      assignState(st, joinStates([st, f.state]));
      this.status = false;
      return null;
    }
    return f.state;
  }

  private execOne(cmd: Command, st: State, stdin: Stdin): void {
    if (st.terminated || st.returned) return;
    if (this.reach !== null && this.sources.isMain()) this.reach.reach(cmd);
    if (cmd.kind !== 'simple' && 'redirects' in cmd && cmd.redirects.length > 0) {
      // Redirects on a compound command apply to its whole body, then end.
      const layer = this.openRedirects(cmd.redirects, st);
      try {
        this.execCommand(cmd, st, layer.stdin ?? stdin);
      } finally {
        this.closeRedirects(st, layer);
        const f = this.failureOf(st);
        if (f !== null) this.closeRedirects(f, layer);
      }
      return;
    }
    this.execCommand(cmd, st, stdin);
  }

  private execCommand(cmd: Command, st: State, stdin: Stdin): void {
    this.status = null;
    switch (cmd.kind) {
      case 'sequence':
        for (let i = 0; i < cmd.items.length; i++) {
          const item = cmd.items[i]!;
          if (st.terminated || st.returned) {
            if (this.reach !== null && this.sources.isMain()) this.reach.endedAt(cmd.items, i, st, this.functions.site);
            break;
          }
          if (item.background) this.exec(item.command, cloneState(st), { kind: 'unknown' });
          else if (i < cmd.items.length - 1) this.exec(item.command, st, stdin);
          else this.passFailure(st, this.execSplit(item.command, st, stdin));
        }
        return;
      case 'simple':
        this.simple.run(cmd, st, stdin);
        // `return` outside a function and a sourced file: bash says so and goes on (status 1).
        // Where the analyzed text is itself sourced it ends there; going on covers that too.
        if (st.returned && this.returns.depth === 0) st.returned = false;
        return;
      case 'pipeline':
        if (cmd.commands.length === 1) {
          // `! cmd` runs in the current shell: its failure path is the negation's success.
          const failure = this.execSplit(cmd.commands[0]!, st, stdin);
          if (failure !== null) {
            if (!cmd.negated) this.passFailure(st, failure);
            else {
              const succeeded = { ...st };
              assignState(st, failure);
              this.passFailure(st, succeeded);
              this.status = true;
            }
            return;
          }
        } else pipeline(this, cmd.commands, st, stdin);
        if (cmd.negated) this.status = this.status === null ? null : !this.status;
        return;
      case 'and-or':
        andOr(this, cmd, st, stdin);
        return;
      case 'subshell':
        subshell(this, cmd, st, stdin);
        return;
      case 'group':
        this.passFailure(st, this.execSplit(cmd.body, st, stdin));
        return;
      case 'if':
        ifCommand(this, cmd, st, stdin);
        return;
      case 'case':
        caseCommand(this, cmd, st, stdin);
        return;
      case 'loop':
        loop(this, cmd, st, stdin);
        this.status = null;
        return;
      case 'function':
        this.functions.define(cmd, st);
        return;
      case 'test':
        testCommand(this, cmd, st);
        return;
      case 'unknown':
        // Already reported as a problem by the builder.
        return;
    }
  }

  /** One assignment (assign.ts). */
  assignVariable(st: State, a: Assignment, value: Field | null, flags: DeclareFlags): void {
    assignVariable(this, st, a, value, flags);
  }

  /** Sets an array variable (element 0 is also its scalar value). */
  setArray(st: State, name: string, arr: ArrayValue, confidence: Confidence, evidence: Evidence[], exported?: boolean): void {
    setArray(st, name, arr, confidence, evidence, exported);
  }

  /** Runs argv (already expanded) from `st`. Also the entry point for wrappers' inner commands. */
  dispatch(fields: Field[], env: Map<string, Field>, st: State, range: Range, stdin: Stdin, bypassFunctions = false): void {
    this.simple.dispatch(fields, env, st, range, stdin, bypassFunctions);
  }

  callFunction(fn: FunctionDef, args: Field[], st: State, range: Range, stdin: Stdin): void {
    this.functions.call(fn, args, st, range, stdin);
  }

  expandAlias(cmd: SimpleCommand, st: State, stdin: Stdin): boolean {
    return this.nested.expandAlias(cmd, st, stdin);
  }

  runWritten(shown: string, name: string, args: Field[], st: State, range: Range): boolean {
    return this.nested.runWritten(shown, name, args, st, range);
  }

  setVar(st: State, name: string, value: string, confidence: Confidence, evidence: Evidence[], exported?: boolean, guessed?: boolean): void {
    setVar(st, name, value, confidence, evidence, exported, guessed);
  }

  // ---------------------------------------------------------------- redirects (redirects.ts)

  openRedirects(list: Redirect[], st: State): RedirectLayer {
    return openRedirects(this, list, st);
  }

  closeRedirects(st: State, layer: RedirectLayer): void {
    closeRedirects(st, layer);
  }

  // ---------------------------------------------------------------- effects (effect-log.ts)

  write(op: WriteOp, field: Field, st: State, range: Range, command: string, opts: WriteOptions = {}): void {
    this.log.write(op, field, st, range, command, opts);
  }

  git(effect: Omit<GitEffect, 'kind' | 'via'>): void {
    this.log.git(effect);
  }

  dynamicProblem(reason: string, text: string, range: Range, elsewhere?: true): void {
    this.log.dynamicProblem(reason, text, range, elsewhere);
  }

  limitProblem(reason: string, text: string, range: Range): void {
    this.log.limitProblem(reason, text, range);
  }

  misreadProblem(reason: string, text: string, range: Range): void {
    this.log.misreadProblem(reason, text, range);
  }

  maybeWrites(code: string, range: Range, command: string, what: string): void {
    this.log.maybeWrites(code, range, command, what);
  }

  // ---------------------------------------------------------------- cwd (cwd.ts)

  setCwd(st: State, next: CwdValue, range: Range, command: string): void {
    setCwd(this.timeline, st, next, range, command);
  }

  enterable(path: string): boolean | null {
    if (path.includes(HOLE)) return null;
    const norm = normalizeLogical(path);
    // Something this command ran before may have made, removed or replaced it.
    if (this.writtenFiles.has(norm) || this.log.mayHaveMoved(norm)) return null;
    const host = this.ctx.host;
    const kind = host?.stat?.(norm) ?? null;
    if (kind === 'directory') return host?.searchable?.(norm) === true ? true : null;
    return kind === null ? null : false;
  }

  resolveCd(st: State, target: Field, range: Range, physical: boolean, how = 'cd'): CwdValue {
    return resolveCd(this.ctx.host?.realpath, st, target, range, physical, how);
  }
}
