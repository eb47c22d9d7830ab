/**
 * Compound commands: `a && b`, `a || b`, `if`, `case`, `( ... )`, `[[ ... ]]`, pipelines and
 * loops. Each runs its parts through CompoundHost#exec and joins the states of the paths it
 * cannot tell apart; a condition decided on known values takes one path for certain. Where
 * `return`, `break` and `continue` land is control-flow.ts's.
 */
import type { Command, Range, Word } from '../syntax/ir.js';
import { HOLE } from '../effects/types.js';
import type { Confidence } from '../effects/confidence.js';
import { assignState, cloneState, joinStates, type State } from '../shell/state.js';
import { CowMap } from '../shell/cow-map.js';
import { evaluateTest, type TestContext, type Truth } from '../shell/conditions.js';
import { lookupCommand } from '../commands/registry.js';
import type { Stdin } from '../commands/context.js';
import { expandScalar, expandWord, type ExpandHooks, type Field } from './expand.js';
import { loopToFixpoint, setAsideReturned, type LoopFrames } from './control-flow.js';
import { setVar } from './assign.js';

/** What compound commands need of the interpreter: running their parts, and the exit status they decide on. */
export interface CompoundHost extends ExpandHooks {
  /** The exit status of the last command when it is known. */
  status: Truth;
  /** Set while a loop reads its input line by line without being unrolled: `read` gets unknown values. */
  readsUnknown: boolean;
  /** A loop's passes ran out before its state settled. */
  loopUnsettled: boolean;
  readonly loops: LoopFrames;
  /** How many function bodies and sourced files are open (control-flow.ts ReturnFrames). */
  readonly returnDepth: number;
  exec(cmd: Command, st: State, stdin: Stdin): void;
  /**
   * Runs `cmd` on `st`; where it may fail with a state of its own (a `cd` that may not happen),
   * returns that failure path and leaves `st` the path where it succeeded (Interpreter#execSplit).
   */
  execSplit(cmd: Command, st: State, stdin: Stdin): State | null;
  /** Hands `failure` on as the failure path of the command being run on `st`. */
  passFailure(st: State, failure: State | null): void;
  /** Runs `body` with what it prints collected in `out`. */
  execCapturing(body: Command, st: State, out: string[]): void;
  /** The EXIT traps of a shell that ends (a subshell's). */
  runExitTraps(st: State): void;
  testContext(st: State, doubleBracket: boolean): TestContext;
}

type Of<K extends Command['kind']> = Extract<Command, { kind: K }>;

const MAX_UNROLL = 16;

/** `a && b`, `a || b`. */
export function andOr(host: CompoundHost, cmd: Of<'and-or'>, st: State, stdin: Stdin): void {
  // `a || b`: b runs only when a failed, so it starts from the state before a (a failed
  // `cd x` did not move); the result joins a's success with b's outcome.
  const beforeLeft = cmd.op === '||' && !isTest(cmd.left) ? cloneState(st) : null;
  const leftFailed = host.execSplit(cmd.left, st, stdin);
  if (leftFailed !== null) {
    splitAndOr(host, cmd, st, leftFailed, stdin);
    return;
  }
  if (st.terminated) return;
  const known = host.status;
  if (known !== null) {
    // The left side's outcome is decided (a test on known values or on the disk): the right
    // side runs, in sequence, or not at all.
    if (known === (cmd.op === '&&')) host.passFailure(st, host.execSplit(cmd.right, st, stdin));
    else host.status = known;
    return;
  }
  if (beforeLeft) {
    host.exec(cmd.right, beforeLeft, stdin);
    assignState(st, joinStates([st, beforeLeft]));
    return;
  }
  // `a && b`: b runs after a succeeded, so the chain is sequential (`cd x && cd y && cmd`).
  // After a test (`[ -d x ] && cd x`) or with `||`, b may not run: join both outcomes.
  // Its outcome is still undecided (a may have failed), and when b ends the shell (`grep -q x f
  // && echo found && exit`, `[ -z "$1" ] && usage && exit`), the script goes on from a's failure.
  if (cmd.op === '&&' && !isTest(cmd.left)) {
    const ifLeftFailed = cloneState(st);
    const rightFailed = host.execSplit(cmd.right, st, stdin);
    if (rightFailed !== null) {
      // `make && cd x`: it fails where make did or where the cd did; it succeeded where both did.
      host.passFailure(st, joinStates([ifLeftFailed, rightFailed]));
      host.status = true;
      return;
    }
    if (st.returned && !st.terminated) setAsideReturned(st, ifLeftFailed);
    if (st.terminated || st.returned) assignState(st, ifLeftFailed);
    host.status = host.status === false ? false : null;
    return;
  }
  const right = cloneState(st);
  host.exec(cmd.right, right, stdin);
  assignState(st, joinStates([st, right]));
  host.status = null;
}

/**
 * `a && b`, `a || b` where a may fail with a state of its own (`cd x`): `st` is where a succeeded,
 * `failed` where it failed. The right side runs from the one its operator selects; the list
 * succeeds or fails on the paths that lead there, handed on as its own failure path.
 */
function splitAndOr(host: CompoundHost, cmd: Of<'and-or'>, st: State, failed: State, stdin: Stdin): void {
  // The path the right side runs on, and the one that skips it.
  const runs = cmd.op === '&&' ? st : failed;
  const skips = cmd.op === '&&' ? failed : st;
  const rightFailed = host.execSplit(cmd.right, runs, stdin);
  if (runs.terminated || runs.returned) {
    // `cd x || exit`: only the path that skipped it goes on (a `return` is set aside by the join).
    assignState(st, joinStates([runs, skips]));
    host.status = cmd.op === '||';
    return;
  }
  const status = host.status;
  // The right side's success and failure paths: the same state where its status is not known.
  const ok = rightFailed !== null || status !== false ? runs : null;
  const bad = rightFailed ?? (status === true ? null : status === false ? runs : cloneState(runs));
  const success = cmd.op === '&&' ? (ok ? [ok] : []) : [skips, ...(ok ? [ok] : [])];
  const failure = cmd.op === '&&' ? [skips, ...(bad ? [bad] : [])] : bad ? [bad] : [];
  if (success.length === 0) {
    assignState(st, joinStates(failure));
    host.status = false;
    return;
  }
  const successState = joinStates(success);
  if (failure.length === 0) {
    assignState(st, successState);
    host.status = true;
    return;
  }
  const failureState = joinStates(failure);
  assignState(st, successState);
  host.passFailure(st, failureState);
  host.status = true;
}

/** `( ... )`: a copy of the state, whose changes end with it. */
export function subshell(host: CompoundHost, cmd: Of<'subshell'>, st: State, stdin: Stdin): void {
  // A subshell does not inherit EXIT traps; its own run when it ends.
  const sub = cloneState(st);
  sub.extras.traps = CowMap.of();
  host.exec(cmd.body, sub, stdin);
  host.runExitTraps(sub);
}

/** `if`/`elif`/`else`: each branch from the state after its condition, joined. */
export function ifCommand(host: CompoundHost, cmd: Of<'if'>, st: State, stdin: Stdin): void {
  const ends: State[] = [];
  const cur = st;
  let decided = false;
  for (const branch of cmd.branches) {
    const failed = host.execSplit(branch.condition, cur, { kind: 'unknown' });
    if (failed !== null) {
      // `if cd x; then`: the branch from where it succeeded, what follows from where it failed.
      const b = cloneState(cur);
      host.exec(branch.body, b, stdin);
      ends.push(b);
      assignState(cur, failed);
      continue;
    }
    // A condition decided now (`[ -d /known ]`) takes or skips its branch for certain.
    const known = host.status;
    if (known === false) continue;
    const b = cloneState(cur);
    host.exec(branch.body, b, stdin);
    ends.push(b);
    if (known === true) {
      decided = true;
      break;
    }
  }
  if (!decided) {
    const rest = cloneState(cur);
    if (cmd.elseBody) host.exec(cmd.elseBody, rest, stdin);
    ends.push(rest);
  }
  assignState(st, joinStates(ends));
  host.status = null;
}

/** `case`: every item may run (patterns are not matched); without `*)` none may. */
export function caseCommand(host: CompoundHost, cmd: Of<'case'>, st: State, stdin: Stdin): void {
  expandScalar(cmd.subject, st, host);
  const ends: State[] = [];
  let hasDefault = false;
  for (const item of cmd.items) {
    if (item.patterns.some((p) => p.text === '*')) hasDefault = true;
    const b = cloneState(st);
    host.exec(item.body, b, stdin);
    ends.push(b);
  }
  if (!hasDefault) ends.push(cloneState(st));
  assignState(st, joinStates(ends));
}

/** `[[ ... ]]` and `[ ... ]` as syntax: the exit status, when the operands decide it. */
export function testCommand(host: CompoundHost, cmd: Of<'test'>, st: State): void {
  if (!cmd.args) {
    for (const w of cmd.words) expandWord(w, st, host);
    if (cmd.arith !== undefined) host.arithmetic?.(cmd.arith, st, cmd.range, 'source');
    return;
  }
  // `[[ ... ]]`: no splitting or globbing; an unquoted glob on the right of `==` is a pattern.
  // `[ ... ]`: ordinary words, split and globbed (a glob makes the test undecided).
  const args = cmd.single
    ? cmd.args.flatMap((w) => expandWord(w, st, host).fields)
    : cmd.args.map((w) => {
        // expandScalar returns a new field: marking it is no change to anything shared.
        const f = expandScalar(w, st, host);
        f.glob = hasUnquotedGlob(w);
        return f;
      });
  arithmeticOperands(host, args, !cmd.single, st, cmd.range);
  if (cmd.single && args.some((a) => a.glob && a.value !== '!' )) {
    host.status = null;
    return;
  }
  host.status = evaluateTest(args, host.testContext(st, !cmd.single));
}

const ARITH_OPS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

/**
 * The operands a test evaluates as arithmetic: both sides of `-eq` and friends in `[[ ]]` (`[ ]`
 * wants integers there), and the name after `-v`, whose subscript is evaluated in both.
 */
function arithmeticOperands(host: CompoundHost, args: Field[], double: boolean, st: State, range: Range): void {
  if (!host.arithmetic) return;
  for (let i = 0; i < args.length; i++) {
    const op = args[i]!.value;
    if (op === '-v' && args[i + 1]) host.arithmetic(args[i + 1]!.value, st, range, 'value');
    else if (double && ARITH_OPS.has(op) && i > 0 && args[i + 1]) {
      host.arithmetic(args[i - 1]!.value, st, range, 'value');
      host.arithmetic(args[i + 1]!.value, st, range, 'value');
    }
  }
}

/** `for`, `select`, `while`, `until`: unrolled on known values, else to a fixpoint. */
export function loop(host: CompoundHost, cmd: Of<'loop'>, st: State, stdin: Stdin): void {
  host.loops.run(st, host.returnDepth, () => loopBody(host, cmd, st, stdin));
}

function loopBody(host: CompoundHost, cmd: Of<'loop'>, st: State, stdin: Stdin): void {
  if (cmd.loop === 'for' || cmd.loop === 'select') {
    const values: Field[] = [];
    let exact = cmd.values !== null;
    for (const w of cmd.values ?? []) {
      const { fields } = expandWord(w, st, host);
      for (const f of fields) {
        if (f.glob || f.guessed || f.value.includes(HOLE)) exact = false;
        values.push(f);
      }
    }
    if (exact && values.length <= MAX_UNROLL && cmd.loop === 'for') {
      // Known values: run the body once per value, in order, as bash would.
      const before = cloneState(st);
      for (const v of values) {
        if (st.terminated) break;
        setVar(st, cmd.variable ?? '_', v.value, 'likely', [{ range: cmd.range, note: `loop variable ${cmd.variable}=${v.value}` }]);
        host.exec(cmd.body, st, stdin);
        host.loops.nextIteration(st);
      }
      if (values.length === 0) assignState(st, before);
      return;
    }
    const sample = values.find((v) => v.value.includes('/')) ?? values[0];
    const value = sample && values.length === 1 && !sample.value.includes(HOLE) ? sample.value : sampleValue(values);
    // Values under one known directory (`for f in /dir/*`) keep that directory: the hole is judged by position.
    const loopConf: Confidence = value.includes('/') && !value.startsWith(HOLE) ? 'likely' : 'possible';
    iterateUnknown(host, cmd, st, (iter) => {
      setVar(iter, cmd.variable ?? '_', value, loopConf, [{ range: cmd.range, note: `loop variable ${cmd.variable} takes values not known statically` }]);
      host.exec(cmd.body, iter, stdin);
    }, cmd.variable ?? '_');
    return;
  }
  // `while read -r line; do ...; done <<< "$known"`: one iteration per line, as bash runs it.
  const lines = stdin.kind === 'text' && stdin.known && cmd.loop === 'while' && readsLines(cmd.condition) ? stdin.text.split('\n') : null;
  if (lines && lines[lines.length - 1] === '') lines.pop();
  if (lines && lines.length <= MAX_UNROLL) {
    for (const line of lines) {
      if (st.terminated) break;
      host.exec(cmd.condition!, st, { kind: 'text', text: line + '\n', known: true });
      host.exec(cmd.body, st, { kind: 'unknown' });
      host.loops.nextIteration(st);
    }
    return;
  }
  const savedReads = host.readsUnknown;
  host.readsUnknown = true;
  try {
    if (cmd.condition) host.exec(cmd.condition, st, stdin);
    // A condition known to fail before the first iteration: the body never runs.
    if (host.status === (cmd.loop === 'until')) return;
    iterateUnknown(host, cmd, st, (iter) => {
      host.exec(cmd.body, iter, stdin);
      if (cmd.condition && !iter.terminated) host.exec(cmd.condition, iter, stdin);
    });
  } finally {
    host.readsUnknown = savedReads;
  }
}

/** A loop run an unknown number of times: passes until its head state settles (control-flow.ts). */
function iterateUnknown(host: CompoundHost, loop: Command, st: State, once: (iter: State) => void, setFirst?: string): void {
  if (!loopToFixpoint(st, host.loops, loop, once, setFirst)) host.loopUnsettled = true;
}

/** `a | b`: each part in a subshell, each handing the next what it prints, as far as known. */
export function pipeline(host: CompoundHost, commands: Command[], st: State, stdin: Stdin): void {
  // `! cmd` is a pipeline of one command: it runs in the current shell (its cd stays).
  if (commands.length === 1) {
    host.exec(commands[0]!, st, stdin);
    return;
  }
  let input: Stdin = stdin;
  commands.forEach((c, i) => {
    // Every part of a pipeline runs in a subshell: its cd and variables do not leak.
    const sub = cloneState(st);
    const out: string[] = [];
    const isLast = i === commands.length - 1;
    if (isLast) host.exec(c, sub, input);
    else {
      host.execCapturing(c, sub, out);
      input = pipeOutput(c, out, sub);
    }
  });
}

/** A `while` condition that reads one line of the loop's input (`read -r line`). */
function readsLines(cond: Command | null): boolean {
  if (!cond) return false;
  if (cond.kind === 'sequence') return cond.items.length === 1 && readsLines(cond.items[0]!.command);
  return cond.kind === 'simple' && cond.words[0]?.text === 'read' && cond.redirects.length === 0;
}

/** A word with an unquoted `*`, `?` or `[` in its text (syntax only). */
function hasUnquotedGlob(w: Word): boolean {
  for (const p of w.parts) if (p.kind === 'text' && p.quoting === 'none' && UNQUOTED_GLOB_CHAR.test(p.value)) return true;
  return false;
}
const UNQUOTED_GLOB_CHAR = /[*?[]/;

const TEST_COMMANDS = new Set(['[', 'test', '[[']);

/** Commands whose success is a condition rather than an action. */
function isTest(cmd: Command): boolean {
  if (cmd.kind === 'test') return true;
  if (cmd.kind === 'simple') return cmd.words.length > 0 && TEST_COMMANDS.has(cmd.words[0]!.text);
  if (cmd.kind === 'pipeline') return cmd.negated || (cmd.commands.length === 1 && isTest(cmd.commands[0]!));
  if (cmd.kind === 'and-or') return isTest(cmd.right);
  return false;
}

/** The value a loop variable stands for when its values are not all known. */
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
    const [name, ...args] = cmd.words.map((w) => w.text);
    const prefix = lookupCommand(name!)?.pathList?.(args, st.cwd.paths[0]!) ?? null;
    if (prefix !== null) return { kind: 'paths', prefix };
  }
  return { kind: 'unknown' };
}
