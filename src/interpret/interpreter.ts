/**
 * The abstract interpreter: walks the syntax IR carrying the shell state (cwd candidates,
 * directory stack, variables, functions) and emits effects. It runs nothing; command knowledge
 * comes from the table in src/commands, the file system only through the injected Host.
 */
import type { Command, FunctionDef, Range, Redirect, Script, SimpleCommand, Word } from '../syntax/ir.js';
import { HOLE, type CwdEvent, type Effect, type Evidence, type GitEffect, type WriteEffect, type WriteOp } from '../effects/types.js';
import { weakest, type Confidence } from '../effects/confidence.js';
import { childState, cloneState, joinStates, type CwdValue, type State, type Variable } from './state.js';
import { CowMap } from './cow-map.js';
import { expandScalar, expandWord, holeConfidence, type ExpandHooks, type Field } from './expand.js';
import { basenameOf, dirnameOf, displayPath, joinPath, normalizeLogical } from './paths.js';
import { lookupCommand } from '../commands/table.js';
import { outputOf, pathListPrefix } from '../commands/output.js';
import { unknownCommand } from '../commands/unknown.js';

/** What the interpreter may ask of the machine. Everything is optional: a pure analysis works without it. */
export interface Host {
  /** Physical path of an existing directory (for `cd -P`); null if unknown. */
  realpath?(path: string): string | null;
  /** Contents of a small file (for `source FILE`); null if unreadable. */
  readFile?(path: string): string | null;
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
  /** How deep `bash -c` / `eval` / `source` may nest before the rest is "cannot analyze". */
  maxShellDepth?: number;
  /** Budget of interpreter steps (simple commands + function calls). */
  maxSteps?: number;
  /** The checkout root containing a directory (for `$(git rev-parse --show-toplevel)`), when known. */
  gitToplevel?(dir: string): string | null;
}

export interface CommandTrace {
  range: Range;
  argv: string[];
  cwd: string[] | null;
  via: string[];
}

export interface Analysis {
  effects: Effect[];
  timeline: CwdEvent[];
  commands: CommandTrace[];
}

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

const DEFAULT_SHELL_DEPTH = 12;
const DEFAULT_STEPS = 20_000;
const MAX_FUNCTION_DEPTH = 16;
const MAX_UNROLL = 16;

export class Interpreter implements ExpandHooks {
  readonly effects: Effect[] = [];
  readonly timeline: CwdEvent[] = [];
  readonly commands: CommandTrace[] = [];
  private steps = 0;
  private shellDepth = 0;
  private functionDepth = 0;
  private via: string[] = [];
  private stepLimitReported = false;

  constructor(readonly ctx: AnalyzeContext) {}

  initialState(): State {
    const vars = CowMap.of<string, Variable>();
    for (const [k, v] of Object.entries(this.ctx.env)) {
      if (v === undefined) continue;
      vars.set(k, { value: v, confidence: 'certain', evidence: [], exported: true, fromEnvironment: true });
    }
    const cwd: CwdValue = { paths: [normalizeLogical(this.ctx.cwd)], confidence: 'certain', evidence: [], changed: false };
    return { cwd, oldpwd: null, dirStack: [], vars, funcs: CowMap.of(), terminated: false, returned: false };
  }

  run(script: Script, st: State = this.initialState()): Analysis {
    for (const p of script.problems) {
      this.effects.push({ kind: 'problem', reason: p.reason, category: 'syntax', text: p.text, range: p.range, via: [...this.via] });
    }
    this.exec(script.body, st, { kind: 'unknown' });
    return { effects: this.effects, timeline: this.timeline, commands: this.commands };
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
    this.effects.push({ kind: 'problem', reason, category: 'syntax', text, range: word.range, via: [...this.via] });
  }

  pwd(st: State): string | null {
    return st.cwd.paths?.length === 1 ? st.cwd.paths[0]! : null;
  }

  // ---------------------------------------------------------------- output capture

  private capture: string[] | null = null;

  private execCapturing(body: Command, st: State, out: string[]): void {
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
    switch (cmd.kind) {
      case 'sequence':
        for (const item of cmd.items) {
          if (st.terminated || st.returned) break;
          if (item.background) this.exec(item.command, cloneState(st), { kind: 'unknown' });
          else this.exec(item.command, st, stdin);
        }
        return;
      case 'simple':
        this.simple(cmd, st, stdin);
        return;
      case 'pipeline':
        this.pipeline(cmd.commands, st, stdin);
        return;
      case 'and-or': {
        // `a || b`: b runs only when a failed, so it starts from the state before a (a failed
        // `cd x` did not move); the result joins a's success with b's outcome.
        const beforeLeft = cmd.op === '||' && !isTest(cmd.left) ? cloneState(st) : null;
        this.exec(cmd.left, st, stdin);
        if (st.terminated) return;
        if (beforeLeft) {
          this.exec(cmd.right, beforeLeft, stdin);
          assign(st, joinStates([st, beforeLeft]));
          return;
        }
        // `a && b`: b runs after a succeeded, so the chain is sequential (`cd x && cd y && cmd`).
        // After a test (`[ -d x ] && cd x`) or with `||`, b may not run: join both outcomes.
        if (cmd.op === '&&' && !isTest(cmd.left)) {
          this.exec(cmd.right, st, stdin);
          return;
        }
        const right = cloneState(st);
        this.exec(cmd.right, right, stdin);
        assign(st, joinStates([st, right]));
        return;
      }
      case 'subshell': {
        this.redirects(cmd.redirects, st);
        this.exec(cmd.body, cloneState(st), stdin);
        return;
      }
      case 'group':
        this.redirects(cmd.redirects, st);
        this.exec(cmd.body, st, stdin);
        return;
      case 'if': {
        this.redirects(cmd.redirects, st);
        const ends: State[] = [];
        const cur = st;
        for (const branch of cmd.branches) {
          this.exec(branch.condition, cur, { kind: 'unknown' });
          const b = cloneState(cur);
          this.exec(branch.body, b, stdin);
          ends.push(b);
        }
        const rest = cloneState(cur);
        if (cmd.elseBody) this.exec(cmd.elseBody, rest, stdin);
        ends.push(rest);
        assign(st, joinStates(ends));
        return;
      }
      case 'case': {
        this.redirects(cmd.redirects, st);
        expandScalar(cmd.subject, st, this);
        const ends: State[] = [];
        let hasDefault = false;
        for (const item of cmd.items) {
          if (item.patterns.some((p) => p.text === '*')) hasDefault = true;
          const b = cloneState(st);
          this.exec(item.body, b, stdin);
          ends.push(b);
        }
        if (!hasDefault) ends.push(cloneState(st));
        assign(st, joinStates(ends));
        return;
      }
      case 'loop':
        this.loop(cmd, st, stdin);
        return;
      case 'function':
        st.funcs.set(cmd.name, cmd);
        return;
      case 'test':
        this.redirects(cmd.redirects, st);
        for (const w of cmd.words) expandWord(w, st, this);
        return;
      case 'unknown':
        // Already reported as a problem by the builder.
        return;
    }
  }

  private loop(cmd: Extract<Command, { kind: 'loop' }>, st: State, stdin: Stdin): void {
    this.redirects(cmd.redirects, st);
    if (cmd.loop === 'for' || cmd.loop === 'select') {
      const values: Field[] = [];
      let exact = cmd.values !== null;
      for (const w of cmd.values ?? []) {
        const { fields } = expandWord(w, st, this);
        for (const f of fields) {
          if (f.glob || f.value.includes(HOLE)) exact = false;
          values.push(f);
        }
      }
      if (exact && values.length <= MAX_UNROLL && cmd.loop === 'for') {
        // Known values: run the body once per value, in order, as bash would.
        const before = cloneState(st);
        for (const v of values) {
          if (st.terminated) break;
          this.setVar(st, cmd.variable ?? '_', v.value, 'likely', [{ range: cmd.range, note: `loop variable ${cmd.variable}=${v.value}` }]);
          this.exec(cmd.body, st, stdin);
        }
        if (values.length === 0) assign(st, before);
        return;
      }
      const iter = cloneState(st);
      const sample = values.find((v) => v.value.includes('/')) ?? values[0];
      const value = sample && values.length === 1 && !sample.value.includes(HOLE) ? sample.value : sampleValue(values);
      // Values under one known directory (`for f in /dir/*`) keep that directory: the hole is judged by position.
      const loopConf: Confidence = value.includes('/') && !value.startsWith(HOLE) ? 'likely' : 'possible';
      this.setVar(iter, cmd.variable ?? '_', value, loopConf, [{ range: cmd.range, note: `loop variable ${cmd.variable} takes values not known statically` }]);
      this.exec(cmd.body, iter, stdin);
      assign(st, joinStates([st, iter]));
      return;
    }
    if (cmd.condition) this.exec(cmd.condition, st, { kind: 'unknown' });
    const iter = cloneState(st);
    this.exec(cmd.body, iter, stdin);
    if (cmd.condition && !iter.terminated) this.exec(cmd.condition, iter, { kind: 'unknown' });
    assign(st, joinStates([st, iter]));
  }

  private pipeline(commands: Command[], st: State, stdin: Stdin): void {
    // `! cmd` is a pipeline of one command: it runs in the current shell (its cd stays).
    if (commands.length === 1) {
      this.exec(commands[0]!, st, stdin);
      return;
    }
    let input: Stdin = stdin;
    commands.forEach((c, i) => {
      // Every part of a pipeline runs in a subshell: its cd and variables do not leak.
      const sub = cloneState(st);
      const out: string[] = [];
      const isLast = i === commands.length - 1;
      if (isLast) this.exec(c, sub, input);
      else {
        this.execCapturing(c, sub, out);
        input = pipeOutput(c, out, sub);
      }
    });
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
          via: [...this.via],
        });
      }
      return false;
    }
    return true;
  }

  private simple(cmd: SimpleCommand, st: State, stdin: Stdin): void {
    if (!this.tick(cmd.range)) return;
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
          via: [...this.via],
        });
      }
      fields.push(...fs);
    }
    // Prefix assignments: alone they set shell variables; before a command, its environment.
    const env = new Map<string, Field>();
    for (const a of cmd.assigns) {
      const value = a.value ? expandScalar(a.value, st, this) : { value: a.unknownValue ? HOLE : '', confidence: 'certain' as Confidence, evidence: [], glob: false };
      if (fields.length === 0) {
        const prev = a.append ? st.vars.get(a.name)?.value ?? '' : '';
        this.setVar(st, a.name, prev + value.value, weakest(value.confidence, 'likely'), [
          ...value.evidence,
          { range: a.range, note: `${a.name}=${displayPath(prev + value.value)} set at ${a.range.line}:${a.range.column}` },
        ]);
      } else env.set(a.name, value);
    }
    const heredocStdin = this.redirects(cmd.redirects, st);
    const input = heredocStdin ?? stdin;
    const trace: CommandTrace = { range: cmd.range, argv: fields.map((f) => displayPath(f.value)), cwd: st.cwd.paths, via: [...this.via] };
    if (fields.length === 0) {
      if (cmd.words.length > 0) this.commands.push(trace);
      return;
    }
    this.commands.push(trace);
    for (const d of cmd.declarations) {
      const value = d.value ? expandScalar(d.value, st, this) : null;
      const name0 = fields[0]!.value;
      if (value) {
        const prev = d.append ? st.vars.get(d.name)?.value ?? '' : '';
        this.setVar(st, d.name, prev + value.value, weakest(value.confidence, 'likely'), [
          ...value.evidence,
          { range: d.range, note: `${d.name}=${displayPath(prev + value.value)} set at ${d.range.line}:${d.range.column}` },
        ], name0 === 'export' || fields.some((f) => f.value === '-x'));
      } else if (d.unknownValue) {
        this.setVar(st, d.name, HOLE, 'possible', [], name0 === 'export');
      }
    }
    this.dispatch(fields, env, st, cmd.range, input);
  }

  /** Runs argv (already expanded) from `st`. Also the entry point for wrappers' inner commands. */
  dispatch(fields: Field[], env: Map<string, Field>, st: State, range: Range, stdin: Stdin, bypassFunctions = false): void {
    const first = fields[0];
    if (!first) return;
    const shown = first.value;
    const args = fields.slice(1);
    if (shown.includes(HOLE) || first.glob) {
      // `$CMD args`: we cannot know what runs. Absolute paths it is given may be written.
      this.maybeWrites(args.map((a) => a.value).join(' '), range, `${displayPath(shown)}`, 'an unknown command');
      return;
    }
    const fn = bypassFunctions ? undefined : st.funcs.get(shown);
    if (fn && !shown.includes('/')) {
      this.callFunction(fn, args, st, range, stdin);
      return;
    }
    const name = shown.includes('/') ? basenameOf(shown) : shown;
    const inv: Invocation = { name, shown, args, st, env, range, via: this.via, stdin };
    const spec = lookupCommand(name);
    const out = outputOf(inv, this);
    if (out !== null) this.emitOutput(out);
    else if (!spec?.silent) this.emitOutput(HOLE);
    if (spec) spec.run(inv, this);
    else unknownCommand(inv, this);
  }

  /** Functions on the call stack, and those being re-analyzed with unknown arguments. */
  private readonly activeFunctions = new Map<string, number>();
  private readonly summarizing = new Set<string>();

  private callFunction(fn: FunctionDef, args: Field[], st: State, range: Range, stdin: Stdin): void {
    if (this.functionDepth >= MAX_FUNCTION_DEPTH) {
      this.effects.push({ kind: 'problem', category: 'analysis-limit', reason: `function calls nest deeper than ${MAX_FUNCTION_DEPTH} (at ${fn.name})`, text: fn.name, range, via: [...this.via] });
      // What it would print is unknown, never empty: `$(f)/x` must not become `/x`.
      this.emitOutput(HOLE);
      return;
    }
    // Recursion: the body is analyzed once more with unknown arguments (covering every deeper
    // call), and calls made while doing so are summarized by that analysis.
    if (this.activeFunctions.has(fn.name)) {
      if (this.summarizing.has(fn.name)) {
        this.emitOutput(HOLE);
        return;
      }
      this.summarizing.add(fn.name);
      try {
        this.runFunctionBody(fn, args.map((a) => ({ ...a, value: HOLE, confidence: 'possible' as const })), st, stdin);
      } finally {
        this.summarizing.delete(fn.name);
      }
      return;
    }
    this.runFunctionBody(fn, args, st, stdin);
  }

  private runFunctionBody(fn: FunctionDef, args: Field[], st: State, stdin: Stdin): void {
    this.functionDepth++;
    this.activeFunctions.set(fn.name, (this.activeFunctions.get(fn.name) ?? 0) + 1);
    const saved = new Map<string, Variable | undefined>();
    args.forEach((a, i) => {
      const k = String(i + 1);
      saved.set(k, st.vars.get(k));
      st.vars.set(k, { value: a.value, confidence: a.confidence, evidence: a.evidence, exported: false, fromEnvironment: false });
    });
    try {
      this.redirects(fn.redirects, st);
      this.exec(fn.body, st, stdin);
    } finally {
      st.returned = false;
      for (const [k, v] of saved) {
        if (v) st.vars.set(k, v);
        else st.vars.delete(k);
      }
      const n = (this.activeFunctions.get(fn.name) ?? 1) - 1;
      if (n > 0) this.activeFunctions.set(fn.name, n);
      else this.activeFunctions.delete(fn.name);
      this.functionDepth--;
    }
  }

  setVar(st: State, name: string, value: string, confidence: Confidence, evidence: Evidence[], exported?: boolean): void {
    const prev = st.vars.get(name);
    st.vars.set(name, {
      value,
      confidence,
      evidence: evidence.slice(-6),
      exported: exported ?? prev?.exported ?? false,
      fromEnvironment: false,
    });
  }

  // ---------------------------------------------------------------- redirects

  /** Emits write effects for redirects; returns the stdin a heredoc or herestring provides. */
  redirects(list: Redirect[], st: State): Stdin | null {
    let stdin: Stdin | null = null;
    for (const r of list) {
      if (r.heredoc) {
        const body = r.heredoc.quoted
          ? { value: r.heredoc.body.parts.map((p) => (p.kind === 'text' ? p.value : '')).join(''), confidence: 'certain' as Confidence }
          : expandScalar(r.heredoc.body, st, this);
        let text = body.value;
        if (r.op === '<<-') text = text.replace(/^\t+/gm, '');
        stdin = { kind: 'text', text, known: !text.includes(HOLE) };
        continue;
      }
      if (!r.target) continue;
      if (r.op === '<<<') {
        const f = expandScalar(r.target, st, this);
        stdin = { kind: 'text', text: f.value + '\n', known: !f.value.includes(HOLE) };
        continue;
      }
      const f = expandScalar(r.target, st, this);
      let op: WriteOp | null = null;
      switch (r.op) {
        case '>':
        case '>|':
        case '&>':
          op = 'write';
          break;
        case '>>':
        case '&>>':
          op = 'append';
          break;
        case '<>':
          op = 'create';
          break;
        case '>&':
          // `>&word` with a word that is not a number or `-` is `&>word`.
          if (!/^\d+$/.test(f.value) && f.value !== '-') op = 'write';
          break;
        default:
          op = null;
      }
      if (op) this.write(op, f, st, r.range, r.op, { redirect: true });
    }
    return stdin;
  }

  // ---------------------------------------------------------------- effects

  /** Resolves a path field against the cwd candidates; one effect per candidate. */
  write(
    op: WriteOp,
    field: Field,
    st: State,
    range: Range,
    command: string,
    opts: { subtree?: boolean; redirect?: boolean; cwdOverride?: CwdValue; confidenceCap?: Confidence; linkTarget?: string } = {},
  ): void {
    const value = field.value;
    const text = displayPath(value);
    const cwd = opts.cwdOverride ?? st.cwd;
    const via = [...this.via];
    const base = (path: string | null, cwdPath: string | null, conf: Confidence, ev: Evidence[]): WriteEffect => ({
      kind: 'write',
      op,
      path,
      text,
      subtree: opts.subtree ?? false,
      confidence: opts.confidenceCap ? weakest(conf, opts.confidenceCap) : conf,
      cwd: cwdPath,
      command,
      via,
      range,
      evidence: [...ev, { range, note: `\`${command}\` ${describeOp(op)} ${text}` }],
      ...(opts.linkTarget !== undefined ? { linkTarget: opts.linkTarget } : {}),
    });
    if (value.startsWith('/')) {
      const conf = weakest(field.confidence, holeConfidence(value, field.glob));
      this.effects.push(base(value, null, conf, field.evidence));
      return;
    }
    if (value.startsWith(HOLE) || value === '') {
      this.effects.push(base(null, null, 'possible', [...field.evidence, { range, note: `the path ${text} cannot be resolved statically` }]));
      return;
    }
    if (cwd.paths === null) {
      this.effects.push(base(null, null, 'possible', [...cwd.evidence, { range, note: `the cwd is unknown here, so ${text} cannot be resolved` }]));
      return;
    }
    for (const c of cwd.paths) {
      const abs = joinPath(c, value);
      const conf = weakest(weakest(field.confidence, cwd.confidence), holeConfidence(abs, field.glob));
      const cwdNote = cwd.paths.length > 1 ? [{ range, note: `the cwd is one of ${cwd.paths.join(', ')} here` }] : [];
      this.effects.push(base(abs, c, conf, [...cwd.evidence, ...cwdNote, ...field.evidence]));
    }
  }

  git(effect: Omit<GitEffect, 'kind' | 'via'>): void {
    this.effects.push({ kind: 'git', ...effect, via: [...this.via] });
  }

  dynamicProblem(reason: string, text: string, range: Range): void {
    this.effects.push({ kind: 'problem', category: 'dynamic', reason, text, range, via: [...this.via] });
  }

  limitProblem(reason: string, text: string, range: Range): void {
    this.effects.push({ kind: 'problem', category: 'analysis-limit', reason, text, range, via: [...this.via] });
  }

  /**
   * Inline code in another language (python -c, node -e, awk ...) or an unknown program: every
   * absolute path literal it mentions may be written (low confidence; policy drops those inside).
   */
  maybeWrites(code: string, range: Range, command: string, what: string): void {
    const seen = new Set<string>();
    const re = /(?:^|[\s'"`=(,:[{>])(\/(?:[A-Za-z0-9._@+~-][A-Za-z0-9._@+~/-]*)?)/g;
    for (const m of code.matchAll(re)) {
      let p = m[1]!;
      p = p.replace(/[.,;:]+$/, '');
      // `/a/` with nothing after it is a regex literal (sed, perl, ruby, awk), not a path.
      if (p.length < 2 || seen.has(p) || /^\/[^/]+\/$/.test(p)) continue;
      seen.add(p);
      this.effects.push({
        kind: 'write',
        op: 'maybe-write',
        path: p,
        text: p,
        subtree: false,
        confidence: 'possible',
        cwd: null,
        command,
        via: [...this.via],
        range,
        evidence: [{ range, note: `${what} (\`${command}\`) mentions ${p} and may write it` }],
      });
    }
  }

  // ---------------------------------------------------------------- cwd

  /** Sets the cwd (cd, pushd, popd) and records the timeline. */
  setCwd(st: State, next: CwdValue, range: Range, command: string): void {
    st.oldpwd = st.cwd;
    st.cwd = next;
    if (next.paths?.length === 1) {
      st.vars.set('PWD', { value: next.paths[0]!, confidence: next.confidence, evidence: next.evidence, exported: true, fromEnvironment: false });
    }
    this.timeline.push({ range, command, cwd: next.paths, confidence: next.confidence });
  }

  /** Resolves a `cd` target the way bash does (logical by default, physical with -P). */
  resolveCd(st: State, target: Field, range: Range, physical: boolean): CwdValue {
    const text = displayPath(target.value);
    const note = (n: string): Evidence => ({ range, note: n });
    if (target.value.includes(HOLE) || target.glob) {
      const known = target.value.startsWith('/') ? target.value.slice(0, target.value.indexOf(HOLE) >= 0 ? target.value.indexOf(HOLE) : undefined) : null;
      return {
        paths: null,
        confidence: 'possible',
        evidence: [...target.evidence, note(`cwd became unknown at \`cd ${text}\` (${range.line}:${range.column})${known ? ` (somewhere under ${dirnameOf(known + 'x')})` : ''}`)],
        changed: true,
      };
    }
    const bases = target.value.startsWith('/') ? ['/'] : st.cwd.paths;
    if (bases === null) {
      return { paths: null, confidence: 'possible', evidence: [...st.cwd.evidence, note(`\`cd ${text}\` from an unknown cwd`)], changed: true };
    }
    const paths = [...new Set(bases.map((b) => {
      const logical = normalizeLogical(joinPath(b, target.value));
      if (!physical) return logical;
      return this.physicalPath(b, target.value) ?? logical;
    }))];
    const conf = target.value.startsWith('/') ? target.confidence : weakest(target.confidence, st.cwd.confidence);
    const where = paths.length === 1 ? paths[0]! : `one of ${paths.join(', ')}`;
    return {
      paths,
      confidence: conf,
      evidence: [
        ...(target.value.startsWith('/') ? [] : st.cwd.evidence),
        ...target.evidence,
        note(`cwd became ${where} at \`cd ${text}\` (${range.line}:${range.column})`),
      ].slice(-8),
      changed: true,
    };
  }

  /** `cd -P`: like the kernel, resolve symlinks in what comes before each `..`. */
  private physicalPath(base: string, rel: string): string | null {
    const realpath = this.ctx.host?.realpath;
    if (!realpath) return null;
    let cur = rel.startsWith('/') ? '/' : base;
    for (const seg of rel.split('/')) {
      if (seg === '' || seg === '.') continue;
      if (seg === '..') {
        const real = realpath(cur) ?? normalizeLogical(cur);
        cur = dirnameOf(real) || '/';
      } else cur = joinPath(cur, seg);
    }
    return realpath(cur) ?? normalizeLogical(cur);
  }

  // ---------------------------------------------------------------- nested shells

  /** Analyzes shell source (`bash -c`, `eval`, a heredoc fed to a shell) in `st`. */
  runNested(source: string, st: State, range: Range, label: string, stdin: Stdin = { kind: 'unknown' }): void {
    if (this.shellDepth >= (this.ctx.maxShellDepth ?? DEFAULT_SHELL_DEPTH)) {
      this.limitProblem(`nested shells deeper than ${this.ctx.maxShellDepth ?? DEFAULT_SHELL_DEPTH} levels`, label, range);
      return;
    }
    const parsed = this.ctx.parse(source);
    if ('error' in parsed) {
      this.effects.push({ kind: 'problem', category: parsed.limit ? 'analysis-limit' : 'syntax', reason: `${label}: ${parsed.error}`, text: source.slice(0, 200), range, via: [...this.via] });
      return;
    }
    this.shellDepth++;
    const savedVia = this.via;
    this.via = [...this.via, label];
    try {
      // Ranges inside the nested source are relative to it; report them at the outer command.
      for (const p of parsed.problems) {
        this.effects.push({ kind: 'problem', category: 'syntax', reason: p.reason, text: p.text, range, via: [...this.via] });
      }
      const before = this.effects.length;
      const tl = this.timeline.length;
      const cmds = this.commands.length;
      this.exec(parsed.body, st, stdin);
      for (let i = before; i < this.effects.length; i++) relocate(this.effects[i]!, range);
      for (let i = tl; i < this.timeline.length; i++) this.timeline[i]!.range = range;
      for (let i = cmds; i < this.commands.length; i++) this.commands[i]!.range = range;
    } finally {
      this.via = savedVia;
      this.shellDepth--;
    }
  }

  /** `source FILE`: read and analyze it when possible, else report it as not analyzed. */
  sourceFile(path: Field, st: State, range: Range): void {
    const abs = path.value.startsWith('/') ? path.value : st.cwd.paths?.length === 1 ? joinPath(st.cwd.paths[0]!, path.value) : null;
    const text = abs && !abs.includes(HOLE) ? this.ctx.host?.readFile?.(abs) ?? null : null;
    if (text === null) {
      this.dynamicProblem(`sources ${displayPath(path.value)}, which was not analyzed`, `source ${displayPath(path.value)}`, range);
      return;
    }
    this.runNested(text, st, range, `source ${displayPath(path.value)}`);
  }

  /** Runs `fields` as a command in a child process started from `st` (wrappers like sudo, xargs). */
  runWrapped(fields: Field[], env: Map<string, Field>, st: State, range: Range, label: string, stdin: Stdin, cwd?: CwdValue): void {
    const savedVia = this.via;
    this.via = [...this.via, label];
    // `builtin pwd` / `command rm` skip shell functions of that name; external wrappers never see them.
    const bypass = true;
    try {
      if (cwd) {
        const child = cloneState(st);
        this.setCwd(child, cwd, range, label);
        this.dispatch(fields, env, child, range, stdin, bypass);
      } else {
        this.dispatch(fields, env, st, range, stdin, bypass);
      }
    } finally {
      this.via = savedVia;
    }
  }

  /** A fresh child shell state (`bash -c`): cwd and exported variables only. */
  child(st: State): State {
    return childState(st);
  }
}

function describeOp(op: WriteOp): string {
  switch (op) {
    case 'write': return 'writes';
    case 'append': return 'appends to';
    case 'create': return 'creates';
    case 'mkdir': return 'creates the directory';
    case 'delete': return 'deletes';
    case 'move': return 'moves into';
    case 'link': return 'creates the link';
    case 'modify': return 'modifies';
    case 'chmod': return 'changes permissions of';
    case 'extract': return 'writes files under';
    case 'maybe-write': return 'may write';
    case 'unknown-command': return 'is given';
  }
}

const TEST_COMMANDS = new Set(['[', 'test', '[[']);

/** Commands whose success is a condition rather than an action. */
function isTest(cmd: Command): boolean {
  if (cmd.kind === 'test') return true;
  if (cmd.kind === 'simple') return cmd.words.length > 0 && TEST_COMMANDS.has(cmd.words[0]!.text);
  if (cmd.kind === 'pipeline') return cmd.negated || (cmd.commands.length === 1 && isTest(cmd.commands[0]!));
  if (cmd.kind === 'and-or') return isTest(cmd.right);
  return false;
}

function assign(target: State, source: State): void {
  if (target === source) return;
  target.cwd = source.cwd;
  target.oldpwd = source.oldpwd;
  target.dirStack = source.dirStack;
  target.vars = source.vars;
  target.funcs = source.funcs;
  target.terminated = source.terminated;
  target.returned = source.returned;
}

function relocate(e: Effect, range: Range): void {
  e.range = range;
  if (e.kind !== 'problem') e.evidence = e.evidence.map((ev) => ({ ...ev, range }));
}

function sampleValue(values: Field[]): string {
  // Keep the directory part when every value shares it, e.g. `for f in src/*.sh`.
  if (values.length === 0) return HOLE;
  const dirs = new Set(values.map((v) => (v.value.includes('/') ? v.value.slice(0, v.value.lastIndexOf('/') + 1) : '')));
  if (dirs.size === 1) {
    const d = [...dirs][0]!;
    if (!d.includes(HOLE) && !/[*?[]/.test(d)) return d + HOLE;
  }
  return HOLE;
}

/** What a pipeline stage hands the next one on stdin, as far as it matters (shell scripts, path lists). */
function pipeOutput(cmd: Command, out: string[], st: State): Stdin {
  if (cmd.kind === 'simple' && out.length > 0 && out.every((o) => !o.includes(HOLE))) {
    return { kind: 'text', text: out.join(''), known: true };
  }
  if (cmd.kind === 'simple' && cmd.words.length > 0 && st.cwd.paths?.length === 1) {
    const prefix = pathListPrefix(cmd.words.map((w) => w.text), st.cwd.paths[0]!);
    if (prefix !== null) return { kind: 'paths', prefix };
  }
  return { kind: 'unknown' };
}
