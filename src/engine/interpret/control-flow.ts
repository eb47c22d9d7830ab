/**
 * Where `return` lands. A path that returned while another went on is set aside on the state
 * (State#returns, by joinStates) and comes back here, when the function or sourced file it
 * returned from ends: the caller goes on from the join of every path that returned and the one
 * that fell through. So a call ends its caller's path only when every path through the callee
 * exits.
 */
import { assignState, cloneState, joinStates, type State, type Variable } from '../shell/state.js';
import { ALL_KEYS, CowMap } from '../shell/cow-map.js';
import { HOLE } from '../effects/types.js';

/** The function bodies and sourced files being run: where a `return` lands. */
export class ReturnFrames {
  /** How many are open: with none, `return` ends nothing (bash says so and goes on, status 1). */
  depth = 0;

  /** Runs a function body or a sourced file on `st`, then joins the paths that returned with the one that fell through. */
  run(st: State, body: () => void): void {
    const outer = st.returns;
    st.returns = [];
    this.depth++;
    try {
      body();
    } finally {
      this.depth--;
      leave(st, outer);
    }
  }
}

function leave(st: State, outer: readonly State[]): void {
  const pending = st.returns;
  st.returned = false;
  st.returns = outer;
  if (pending.length === 0) return;
  const ends = [st, ...pending.map((p) => ({ ...p, returned: false, terminated: false, returns: outer }))];
  assignState(st, joinStates(ends));
}

/**
 * `a && return`: the path where a succeeded returned, the other goes on; the returned one is set
 * aside on `goesOn` (a copy of the state before a).
 */
export function setAsideReturned(returned: State, goesOn: State): void {
  const kept = cloneState(returned);
  kept.returned = true;
  goesOn.returns = [...goesOn.returns, ...returned.returns.filter((r) => !goesOn.returns.includes(r)), kept];
}

/**
 * `break` and `continue`: the path leaves the loop body where bash reaches them. It is set aside
 * for its loop (N levels out for `break N`), and the loop joins it: a `continue` into the next
 * iteration and the loop's end, a `break` into the loop's end. The path itself ends there, so
 * what follows in the body (an `exit` after a `break`) does not end the paths that left.
 */
export class LoopFrames {
  /** By loop: the variables its runs so far changed (loopToFixpoint). */
  readonly changedBy = new WeakMap<object, Set<string>>();
  private readonly frames: { breaks: State[]; continues: State[]; scope: number }[] = [];

  /**
   * Runs a loop on `st`, then joins the paths that left it by `break` or `continue`. `scope`: the
   * function depth it runs at; a `break` in a function called from the loop is not followed out
   * of the function (its state is the function's): there it ends nothing.
   */
  run(st: State, scope: number, body: () => void): void {
    this.frames.push({ breaks: [], continues: [], scope });
    let left: State[] = [];
    try {
      body();
    } finally {
      const f = this.frames.pop()!;
      left = [...f.breaks, ...f.continues];
    }
    if (left.length > 0) assignState(st, joinStates([st, ...left]));
  }

  /** After one iteration of an unrolled loop: the paths that `continue`d go on with the next. */
  nextIteration(st: State): void {
    const f = this.frames[this.frames.length - 1]!;
    if (f.continues.length === 0) return;
    const cont = f.continues;
    f.continues = [];
    assignState(st, joinStates([st, ...cont]));
  }

  /** Outside a loop bash says so and goes on: false, and the path is unchanged. */
  jump(st: State, kind: 'break' | 'continue', levels: number, scope: number): boolean {
    const f = this.frames[Math.max(0, this.frames.length - levels)];
    if (!f || f.scope !== scope || this.frames[this.frames.length - 1]!.scope !== scope) return false;
    (kind === 'break' ? f.breaks : f.continues).push(cloneState(st));
    st.terminated = true;
    return true;
  }
}

/** How many passes a loop that runs an unknown number of times gets before its head state settles. */
const MAX_LOOP_PASSES = 8;

/**
 * A loop bash may run any number of times: `once` runs one pass (the body, then the condition
 * again) on the state it is given, from the join of the states every earlier pass left at the
 * loop's head, until a pass brings no new value (a value is known or unknown, so this ends). `st`
 * becomes that join: zero passes and every number of them. A variable the second pass sets from
 * what the first set (`[ -z "$a" ] && a=$1 || b=$1`) is thus unknown after the loop, as it is in
 * bash. False when the passes ran out before the state settled: then the result is not the join
 * of every path and the caller says nothing is unreachable.
 */
export function loopToFixpoint(st: State, loops: LoopFrames, key: object, once: (iter: State) => void, setFirst?: string): boolean {
  const before = st.vars;
  // What this loop changed when it ran before (a function called again) is unknown at its head
  // from the start: the join would make it so, and the first pass then settles.
  const changed = loops.changedBy.get(key);
  if (changed) havoc(st, changed);
  let head = st;
  let settled = false;
  for (let pass = 0; pass < MAX_LOOP_PASSES && !settled; pass++) {
    const iter = cloneState(head);
    const reads = logReads(() => {
      once(iter);
      loops.nextIteration(iter);
    });
    const next = joinStates([head, iter]);
    // Another pass from `next` differs from this one only if it reads something this pass changed.
    settled = sameValues(head, next, setFirst) || unreadChanges(head, next, reads, setFirst);
    head = next;
  }
  assignState(st, head);
  remember(loops, key, before, st.vars, setFirst);
  return settled;
}

function havoc(st: State, names: ReadonlySet<string>): void {
  for (const name of names) {
    const v = st.vars.get(name);
    if (v && v.value === HOLE && !v.array && !v.nameref) continue;
    st.vars.set(name, { value: HOLE, confidence: 'possible', evidence: v?.evidence.slice(-4) ?? [], exported: v?.exported ?? false, fromEnvironment: false });
  }
}

function remember(loops: LoopFrames, key: object, before: CowMap<string, Variable>, after: CowMap<string, Variable>, setFirst?: string): void {
  if (before.sameAs(after)) return;
  const outer = CowMap.readLog;
  CowMap.readLog = null;
  try {
    let names = loops.changedBy.get(key);
    for (const k of after.keys()) {
      if (k === setFirst || names?.has(k) || sameVariable(before.get(k), after.get(k))) continue;
      if (!names) loops.changedBy.set(key, (names = new Set()));
      names.add(k);
    }
  } finally {
    CowMap.readLog = outer;
  }
}

/**
 * Same variables with the same values, positional parameters and candidate directories (confidence
 * aside). `setFirst`: a variable every pass sets before anything reads it (a `for` loop's): what the
 * previous pass left in it changes nothing.
 */
function sameValues(a: State, b: State, setFirst?: string): boolean {
  if (a.terminated !== b.terminated) return false;
  if (!a.vars.sameAs(b.vars) && !sameMap(a.vars, b.vars, setFirst)) return false;
  if (a.pos !== b.pos && !sameMap(a.pos, b.pos)) return false;
  const pa = a.cwd.paths;
  const pb = b.cwd.paths;
  if (pa !== pb && (pa === null || pb === null || pa.length !== pb.length || pa.some((p, i) => pb[i] !== p))) return false;
  return a.funcs.sameAs(b.funcs) || sameKeys(a.funcs, b.funcs);
}

interface ReadMap<V> {
  get(k: string): V | undefined;
  keys(): IterableIterator<string>;
}

function sameMap(a: ReadMap<Variable>, b: ReadMap<Variable>, skip?: string): boolean {
  for (const k of a.keys()) if (k !== skip && !sameVariable(a.get(k), b.get(k))) return false;
  for (const k of b.keys()) if (k !== skip && a.get(k) === undefined) return false;
  return true;
}

function sameKeys<V>(a: ReadMap<V>, b: ReadMap<V>): boolean {
  for (const k of a.keys()) if (a.get(k) !== b.get(k)) return false;
  for (const k of b.keys()) if (a.get(k) === undefined) return false;
  return true;
}

function sameVariable(x: Variable | undefined, y: Variable | undefined): boolean {
  if (x === y) return true;
  if (!x || !y) return false;
  if (x.value !== y.value || x.nameref !== y.nameref || Boolean(x.guessed) !== Boolean(y.guessed)) return false;
  const a = x.array;
  const b = y.array;
  if (!a || !b) return a === b;
  return a.assoc === b.assoc && a.partial === b.partial && a.entries.length === b.entries.length && a.entries.every(([k, v], i) => b.entries[i]![0] === k && b.entries[i]![1] === v);
}

/** The keys looked up while `run` ran (CowMap.readLog), also added to an enclosing log. */
function logReads(run: () => void): Set<unknown> {
  const outer = CowMap.readLog;
  const log = new Set<unknown>();
  CowMap.readLog = log;
  try {
    run();
  } finally {
    CowMap.readLog = outer;
    if (outer !== null) for (const k of log) outer.add(k);
  }
  return log;
}

/**
 * True when `next` differs from `head` only in variables the pass never looked up: a pass from
 * `next` then reads what this one read, takes the same paths and sets the same values.
 */
function unreadChanges(head: State, next: State, reads: Set<unknown>, setFirst?: string): boolean {
  if (reads.has(ALL_KEYS) || head.terminated !== next.terminated || !sameValues({ ...head, vars: next.vars }, next)) return false;
  const outer = CowMap.readLog;
  CowMap.readLog = null;
  try {
    for (const k of head.vars.keys()) if (k !== setFirst && !sameVariable(head.vars.get(k), next.vars.get(k)) && reads.has(k)) return false;
    for (const k of next.vars.keys()) if (k !== setFirst && head.vars.get(k) === undefined && reads.has(k)) return false;
  } finally {
    CowMap.readLog = outer;
  }
  return true;
}
