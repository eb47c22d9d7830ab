/**
 * The abstract interpreter: walks the syntax IR carrying the shell state (cwd candidates,
 * directory stack, variables, functions) and emits effects. It runs nothing; command knowledge
 * comes from the table in src/engine/commands, the file system only through the injected Host.
 */
import type { Assignment, Command, FunctionDef, Range, Redirect, Script, SimpleCommand, Word, WordPart } from '../syntax/ir.js';
import { HOLE, type CwdEvent, type Effect, type Evidence, type GitEffect, type WriteEffect, type WriteOp } from '../effects/types.js';
import { weakest, type Confidence } from '../effects/confidence.js';
import { assignState, childState, cloneState, dropVar, getVar, isPositionalKey, joinStates, NO_POSITIONAL, putVar, type ArrayValue, type CwdValue, type Positional, type State, type Variable } from '../shell/state.js';
import { CowMap } from '../shell/cow-map.js';
import { emptyExtras, type FdTarget, type SourceLine } from '../shell/extras.js';
import { expandScalar, expandWord, holeConfidence, resolveNameref, subscriptKey, type ExpandHooks, type Field } from './expand.js';
import { basenameOf, collapseHoleDots, descriptorOfPath, dirnameOf, displayPath, isInside, joinPath, normalizeLogical } from '../shell/paths.js';
import { BUILTINS } from './builtins.js';
import { evaluateTest, type FileKind, type TestContext, type Truth } from '../shell/conditions.js';
import { lookupCommand } from '../commands/registry.js';
import { pathArguments, unknownCommand, unlisted } from '../commands/unknown.js';
import { type AssignHost, assignVariable, declare, setArray, setPositional, setVar } from './assign.js';
import { type RedirectHost, closeRedirects, descriptor, NO_REDIRECTS, namedDescriptors, openRedirects, type RedirectLayer } from './redirects.js';
import { EffectLog, type CommandTrace } from './effect-log.js';
import { resolveCd, setCwd } from './cwd.js';
import { LoopFrames, ReturnFrames } from './control-flow.js';
import { Sources, type Site } from './sources.js';
import { Functions, type FunctionHost } from './functions.js';
import { NestedShells, pathOf, type NestedHost } from './nested.js';
import { HOME_KNOWN, type Analysis, type AnalyzeContext, type Host } from './analyze-context.js';
import { type CompoundHost, andOr, caseCommand, ifCommand, loop, pipeline, subshell, testCommand } from './compound.js';
import { Reachability, type FunctionSite, type Unreachable } from './reachability.js';
import { extglobField, globsMatchHidden, unknownVariable } from '../shell/shell-options.js';

export { HOME_KNOWN };
export type { Analysis, AnalyzeContext, CommandTrace, Host };

import type { CommandContext, Invocation, Stdin, WriteOptions } from '../commands/context.js';
import type { DeclareFlags } from './builtin-host.js';
import type { BuiltinHost } from './builtin-host.js';
export type { DeclareFlags };

/** Builtins whose output is known (printf prints its own) or empty. */
/** BUILTINS as a Map: the object has ~100 keys, and an own-property test of a word not yet interned cost more. */
const BUILTIN_HANDLERS = new Map(Object.entries(BUILTINS));

const SILENT_BUILTINS = new Set([':', 'true', 'false', '[', 'test', 'read', 'mapfile', 'readarray', 'printf', 'unalias', 'shift', 'let', 'getopts', 'declare', 'typeset', 'local', 'export', 'readonly', 'coproc', 'wait', 'disown', 'bg', 'break', 'continue', 'enable', 'history', 'if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', '{', '}', '!', '[[', ']]']);

const DEFAULT_STEPS = 20_000;


/** The environment of a command without prefix assignments. Never written (only simple() fills a fresh one). */
const NO_ENV: Map<string, Field> = new Map();

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

export class Interpreter implements ExpandHooks, CommandContext, BuiltinHost, CompoundHost, RedirectHost, AssignHost, FunctionHost, NestedHost {
  /** The effects, timeline, traces and written files (effect-log.ts); the arrays below are its own. */
  readonly log = new EffectLog();
  readonly effects: Effect[] = this.log.effects;
  readonly timeline: CwdEvent[] = this.log.timeline;
  readonly commands: CommandTrace[] = this.log.commands;
  readonly writtenFiles = this.log.writtenFiles;
  private steps = 0;
  private stepLimitReported = false;

  get stepLimitReached(): boolean {
    return this.stepLimitReported;
  }
  private nextNamedFd = 10;

  constructor(readonly ctx: AnalyzeContext) {
    this.reach = ctx.everyFunction ? new Reachability() : null;
    this.functions = new Functions(this, !!ctx.everyFunction);
    this.nested = new NestedShells(this);
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
      this.effects.push({ kind: 'problem', reason: p.reason, category: 'syntax', text: p.text, range: p.range, via: this.log.via });
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
  sourceFile(path: Field, st: State, range: Range): void {
    this.nested.sourceFile(path, st, range);
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

  processSubstitution(body: Command, st: State): string {
    this.exec(body, cloneState(st), { kind: 'unknown' });
    return '/dev/fd/63';
  }

  problem(reason: string, text: string, word: Word): void {
    this.effects.push({ kind: 'problem', reason, category: 'syntax', text, range: word.range, via: this.log.via });
  }

  pwd(st: State): string | null {
    return st.cwd.paths?.length === 1 ? st.cwd.paths[0]! : null;
  }

  // ---------------------------------------------------------------- output capture

  private capture: string[] | null = null;

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

  exec(cmd: Command, st: State, stdin: Stdin): void {
    if (st.terminated || st.returned) return;
    if (this.reach !== null && this.sources.isMain()) this.reach.reach(cmd);
    if (cmd.kind !== 'simple' && 'redirects' in cmd && cmd.redirects.length > 0) {
      // Redirects on a compound command apply to its whole body, then end.
      const layer = this.openRedirects(cmd.redirects, st);
      try {
        this.execCommand(cmd, st, layer.stdin ?? stdin);
      } finally {
        this.closeRedirects(st, layer);
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
          else this.exec(item.command, st, stdin);
        }
        return;
      case 'simple':
        this.simple(cmd, st, stdin);
        // `return` outside a function and a sourced file: bash says so and goes on (status 1).
        // Where the analyzed text is itself sourced it ends there; going on covers that too.
        if (st.returned && this.returns.depth === 0) st.returned = false;
        return;
      case 'pipeline':
        pipeline(this, cmd.commands, st, stdin);
        if (cmd.negated) this.status = this.status === null ? null : !this.status;
        return;
      case 'and-or':
        andOr(this, cmd, st, stdin);
        return;
      case 'subshell':
        subshell(this, cmd, st, stdin);
        return;
      case 'group':
        this.exec(cmd.body, st, stdin);
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

  private tick(range: Range): boolean {
    this.steps++;
    const outOfTime = this.ctx.deadline !== undefined && (this.steps & 31) === 0 && performance.now() > this.ctx.deadline;
    if (outOfTime || this.stepLimitReported || this.steps > (this.ctx.maxSteps ?? DEFAULT_STEPS)) {
      if (!this.stepLimitReported) {
        this.stepLimitReported = true;
        this.effects.push({
          kind: 'problem',
          category: 'analysis-limit',
          reason: outOfTime ? 'analysis stopped at its time budget' : `analysis stopped after ${this.ctx.maxSteps ?? DEFAULT_STEPS} steps`,
          text: '',
          range,
          via: this.log.via,
        });
      }
      return false;
    }
    return true;
  }

  private simple(cmd: SimpleCommand, st: State, stdin: Stdin): void {
    if (!this.tick(cmd.range)) return;
    if (this.nested.expandAlias(cmd, st, stdin)) return;
    const fields: Field[] = [];
    for (const w of cmd.words) {
      const { fields: fs, truncated } = expandWord(w, st, this);
      if (truncated) {
        this.effects.push({
          kind: 'problem',
          category: 'analysis-limit',
          reason: 'brace expansion produces too many words to check',
          text: w.text,
          range: w.range,
          via: this.log.via,
        });
      }
      for (let i = 0; i < fs.length; i++) fields.push(fs[i]!);
    }
    // Prefix assignments: alone they set shell variables; before a command, its environment.
    const env = cmd.assigns.length > 0 ? new Map<string, Field>() : NO_ENV;
    for (const a of cmd.assigns) {
      const value = a.value ? expandScalar(a.value, st, this) : { value: a.unknownValue ? HOLE : '', confidence: 'certain' as Confidence, evidence: [], glob: false };
      if (fields.length === 0) this.assignVariable(st, a, value, {});
      else env.set(a.name, value);
    }
    // `exec {fd}>file`: bash picks a free descriptor (10 and up) and stores its number in fd.
    const named = namedDescriptors(cmd, fields);
    for (const n of named) {
      const fd = this.nextNamedFd++;
      this.setVar(st, n.variable, String(fd), 'certain', [{ range: n.redirect.range, note: `{${n.variable}} opened descriptor ${fd}` }]);
    }
    if (named.length > 0) fields.splice(0, fields.length, ...fields.filter((f) => !named.some((n) => n.field === f)));
    const redirects = named.length > 0 ? cmd.redirects.map((r) => named.find((n) => n.redirect === r) ? { ...r, fd: Number(getVar(st, named.find((n) => n.redirect === r)!.variable)!.value) } : r) : cmd.redirects;
    const layer = this.openRedirects(redirects, st);
    // `exec` without a command applies its redirects to the shell itself.
    const permanent = fields.length === 1 && fields[0]!.value === 'exec';
    // `cat > x.sh <<EOF`, `printf ... > do.sh`: what the command prints is the file's content.
    const outFile = !permanent && layer.saved.has(1) ? st.extras.fds.get(1) : undefined;
    const outPath = outFile && !outFile.path.includes(HOLE) ? outFile.path : null;
    const savedCapture = this.capture;
    // Output sent elsewhere (a file, /dev/null, stderr) is not what `$(...)` captures.
    const printed: string[] | null = !permanent && layer.saved.has(1) ? [] : null;
    if (printed !== null) this.capture = printed;
    try {
      this.simpleRun(cmd, fields, env, st, layer.stdin ?? stdin);
    } finally {
      this.capture = savedCapture;
      if (!permanent) this.closeRedirects(st, layer);
    }
    if (outPath !== null) this.recordFile(outPath, fields.length > 0 ? printed!.join('') : '', layer.appending.has(1));
  }

  private simpleRun(cmd: SimpleCommand, fields: Field[], env: Map<string, Field>, st: State, input: Stdin): void {
    if (this.ctx.commandTraces !== false && (fields.length > 0 || cmd.words.length > 0)) {
      const argv: string[] = [];
      for (let i = 0; i < fields.length; i++) {
        const v = fields[i]!.value;
        argv.push(v.includes(HOLE) ? displayPath(v) : v);
      }
      this.commands.push({ range: cmd.range, argv, cwd: st.cwd.paths, via: this.log.via });
    }
    if (fields.length === 0) return;
    declare(this, cmd, fields, st);
    this.dispatch(fields, env, st, cmd.range, input);
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
    this.status = null;
    let first = fields[0];
    if (!first) return;
    let shown = first.value;
    const args = fields.slice(1);
    // A lone `[` is no pattern (nothing closes it): it is the test builtin.
    if (shown.includes(HOLE) || (first.glob && shown !== '[')) {
      // `$CMD args`: we cannot know what runs. Absolute paths it is given may be written.
      this.log.unknownProgramRan = true;
      this.maybeWrites(args.map((a) => a.value).join(' '), range, `${displayPath(shown)}`, 'an unknown command');
      return;
    }
    const fn = bypassFunctions ? undefined : st.funcs.get(shown);
    if (fn && !shown.includes('/')) {
      this.functions.call(fn, args, st, range, stdin);
      return;
    }
    // Builtins: the interpreter's own, before the hash table and PATH.
    const builtin = shown.includes('/') ? undefined : BUILTIN_HANDLERS.get(shown);
    if (builtin) {
      const inv: Invocation = { name: shown, shown, args, st, env, range, via: this.log.via, stdin };
      const mark = this.capture?.length ?? 0;
      if (builtin(inv, this)) {
        if (!SILENT_BUILTINS.has(shown) && (this.capture?.length ?? 0) === mark) this.emitOutput(HOLE);
        return;
      }
    }
    // `hash -p PATH NAME`: NAME runs PATH.
    const hashed = shown.includes('/') ? undefined : st.extras.hashed.get(shown);
    if (hashed !== undefined) {
      first = { ...first, value: hashed, evidence: [...first.evidence, { range, note: `${shown} runs ${displayPath(hashed)} (hash -p)` }] };
      shown = hashed;
      if (hashed.includes(HOLE)) {
        this.log.unknownProgramRan = true;
      this.maybeWrites(args.map((a) => a.value).join(' '), range, `${displayPath(shown)}`, 'an unknown command');
        return;
      }
    }
    const name = shown.includes('/') ? basenameOf(shown) : shown;
    if (this.nested.runWritten(shown, name, args, st, range)) return;
    const inv: Invocation = { name, shown, args, st, env, range, via: this.log.via, stdin };
    const spec = lookupCommand(name);
    // What it prints matters only where output is captured (`$(...)`, a pipe, a file it writes).
    if (this.capture !== null) {
      const out = spec?.output ? spec.output(inv, this) : null;
      if (out !== null) this.emitOutput(out);
      else if (!spec?.silent) this.emitOutput(HOLE);
    }
    if (spec) {
      spec.run(inv, this);
      // nullglob: a glob without a match vanishes and the next word takes its place.
      if (st.extras.shopts.has('nullglob') && spec.category !== 'read' && args.some((a) => a.glob)) unlisted(inv, this, pathArguments(args), 'with nullglob, a glob may vanish and shift it');
    } else {
      this.log.unknownProgramRan = true;
      unknownCommand(inv, this);
    }
    // `tee FILE <<EOF`: the files get what tee reads.
    if (name === 'tee') {
      const append = args.some((a) => a.value === '-a' || a.value === '--append');
      for (const a of args) {
        if (a.value.startsWith('-')) continue;
        const path = pathOf(a.value, st);
        if (path !== null) this.recordFile(path, stdin.kind === 'text' && stdin.known ? stdin.text : null, append);
      }
    }
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

  dynamicProblem(reason: string, text: string, range: Range): void {
    this.log.dynamicProblem(reason, text, range);
  }

  limitProblem(reason: string, text: string, range: Range): void {
    this.log.limitProblem(reason, text, range);
  }

  maybeWrites(code: string, range: Range, command: string, what: string): void {
    this.log.maybeWrites(code, range, command, what);
  }

  // ---------------------------------------------------------------- cwd (cwd.ts)

  setCwd(st: State, next: CwdValue, range: Range, command: string): void {
    setCwd(this.timeline, st, next, range, command);
  }

  resolveCd(st: State, target: Field, range: Range, physical: boolean, how = 'cd'): CwdValue {
    return resolveCd(this.ctx.host?.realpath, st, target, range, physical, how);
  }
}
