/**
 * The abstract shell state the interpreter carries: cwd (possibly several candidates after
 * branches that disagree), the directory stack, variables and functions.
 */
import type { Evidence } from '../effects/types.js';
import { weakest, type Confidence } from '../effects/confidence.js';
import type { FunctionDef } from '../syntax/ir.js';
import { HOLE } from '../effects/types.js';
import { CowMap } from './cow-map.js';
import { childExtras, forkExtras, joinExtras, type Extras } from './extras.js';

export interface CwdValue {
  /** Candidate absolute logical paths; null when unknown. */
  paths: string[] | null;
  confidence: Confidence;
  evidence: Evidence[];
  /** True once any step changed the cwd (used to weaken confidence after joins). */
  changed: boolean;
}

export type { ArrayValue, Variable } from './variable.js';
import type { ArrayValue, Variable } from './variable.js';

export interface State {
  cwd: CwdValue;
  oldpwd: CwdValue | null;
  dirStack: CwdValue[];
  /** Every variable but the positional parameters (see `pos`). Read and write through getVar/putVar/dropVar. */
  vars: CowMap<string, Variable>;
  /**
   * The positional parameters: $1 ... $N and their summaries `@` (an array) and `#`. Kept apart
   * from `vars` because every function call replaces them and every return puts them back: a
   * map that is never changed in place (a write builds a new one), so a call saves and restores
   * it by reference, and branches that did not change them share it.
   */
  pos: Positional;
  funcs: CowMap<string, FunctionDef>;
  /** Set by `exit` (ends this shell) and `return` (ends the current function). */
  terminated: boolean;
  returned: boolean;
  /**
   * Paths that ran `return` in a branch while others went on (`if c; then return; fi; exit`): kept
   * here until the function (or sourced file) ends, where they join the path that fell through, so
   * a call ends its caller's path only when every path through the function exits. Never changed
   * in place (a stash builds a new array).
   */
  returns: readonly State[];
  /** Descriptors, aliases, hashed commands, traps (src/engine/shell/extras.ts). */
  extras: Extras;
}

export const MAX_CWD_CANDIDATES = 8;

/** Positional parameters by name (`1`, `2` ..., `@`, `#`): never changed in place. */
export type Positional = ReadonlyMap<string, Variable>;

/** No positional parameters (the state a command starts in). Never written. */
export const NO_POSITIONAL: Positional = new Map();

/** `1`, `2` ... `10` ..., `@` and `#`: the names kept in State#pos (/^([1-9]\d*|@|#)$/ without a regexp). */
export function isPositionalKey(k: string): boolean {
  const c = k.charCodeAt(0);
  // Identifiers start with a letter or `_` (65 and up): one comparison for nearly every lookup.
  if (c >= 65) return false;
  if (c === 64 || c === 35) return k.length === 1;
  if (c < 49 || c > 57) return false;
  for (let i = 1; i < k.length; i++) {
    const d = k.charCodeAt(i);
    if (d < 48 || d > 57) return false;
  }
  return true;
}

/** A variable by name, positional parameters included. */
export function getVar(st: State, name: string): Variable | undefined {
  return isPositionalKey(name) ? st.pos.get(name) : st.vars.get(name);
}

/** Sets a variable by name, positional parameters included. */
export function putVar(st: State, name: string, v: Variable): void {
  if (isPositionalKey(name)) {
    const pos = new Map(st.pos);
    pos.set(name, v);
    st.pos = pos;
  } else st.vars.set(name, v);
}

/** Unsets a variable by name, positional parameters included. */
export function dropVar(st: State, name: string): void {
  if (isPositionalKey(name)) {
    if (!st.pos.has(name)) return;
    const pos = new Map(st.pos);
    pos.delete(name);
    st.pos = pos;
  } else st.vars.delete(name);
}

/** Makes `target` the state `source` is, in place (the caller's reference stays valid): every field. */
export function assignState(target: State, source: State): void {
  if (target === source) return;
  target.cwd = source.cwd;
  target.oldpwd = source.oldpwd;
  target.dirStack = source.dirStack;
  target.vars = source.vars;
  target.pos = source.pos;
  target.funcs = source.funcs;
  target.terminated = source.terminated;
  target.returned = source.returned;
  target.returns = source.returns;
  target.extras = source.extras;
}

export function cloneState(s: State): State {
  return {
    cwd: s.cwd,
    oldpwd: s.oldpwd,
    dirStack: s.dirStack.slice(),
    vars: s.vars.fork(),
    pos: s.pos,
    funcs: s.funcs.fork(),
    terminated: false,
    returned: false,
    returns: s.returns,
    extras: forkExtras(s.extras),
  };
}

/** The state a child process (`bash -c`) starts with: cwd and exported variables only. */
export function childState(s: State): State {
  const vars = CowMap.of<string, Variable>();
  for (const [k, v] of s.vars) if (v.exported) vars.set(k, v);
  let pos = NO_POSITIONAL;
  for (const [k, v] of s.pos) {
    if (!v.exported) continue;
    if (pos === NO_POSITIONAL) pos = new Map();
    (pos as Map<string, Variable>).set(k, v);
  }
  return { cwd: s.cwd, oldpwd: s.oldpwd, dirStack: [], vars, pos, funcs: CowMap.of(), terminated: false, returned: false, returns: [], extras: childExtras(s.extras) };
}

function sameCwd(a: CwdValue, b: CwdValue): boolean {
  if (a.paths === null || b.paths === null) return a.paths === b.paths;
  if (a.paths.length !== b.paths.length) return false;
  return a.paths.every((p, i) => p === b.paths![i]);
}

/** Joins cwds after branches: agreeing branches keep the cwd; disagreeing ones give candidates. */
export function joinCwd(values: CwdValue[]): CwdValue {
  const first = values[0]!;
  let agree = true;
  let changed = false;
  let conf: Confidence = 'certain';
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v !== first && !sameCwd(v, first)) {
      agree = false;
      break;
    }
    if (v.changed) changed = true;
    conf = weakest(conf, v.confidence);
  }
  if (agree) {
    const confidence = changed ? weakest(conf, 'likely') : conf;
    // Values are never changed in place: the same content may be the same object.
    if (confidence === first.confidence && changed === first.changed) return first;
    return { paths: first.paths, confidence, evidence: first.evidence, changed };
  }
  if (values.some((v) => v.paths === null)) {
    return { paths: null, confidence: 'possible', evidence: values.flatMap((v) => v.evidence).slice(-6), changed: true };
  }
  const paths = [...new Set(values.flatMap((v) => v.paths!))];
  if (paths.length > MAX_CWD_CANDIDATES) {
    return { paths: null, confidence: 'possible', evidence: values.flatMap((v) => v.evidence).slice(-6), changed: true };
  }
  return { paths, confidence: 'possible', evidence: dedupeEvidence(values.flatMap((v) => v.evidence)), changed: true };
}

function dedupeEvidence(ev: Evidence[]): Evidence[] {
  const seen = new Set<string>();
  return ev.filter((e) => {
    const k = `${e.range.start}:${e.note}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Joins the states at the end of alternative branches; branches that exited are ignored. */
export function joinStates(states: State[]): State {
  const all: State[] = [];
  for (let i = 0; i < states.length; i++) if (!states[i]!.terminated) all.push(states[i]!);
  // A branch that returned while another goes on is set aside until its function ends (State#returns).
  let live = all;
  let returns = pendingReturns(states);
  if (all.some((s) => s.returned) && all.some((s) => !s.returned)) {
    live = all.filter((s) => !s.returned);
    returns = [...returns, ...all.filter((s) => s.returned).map((s) => ({ ...s }))];
  }
  if (live.length === 0) return { ...states[0]!, terminated: true, returns };
  if (live.length === 1) return live[0]!.returns === returns ? live[0]! : { ...live[0]!, returns };
  const base = live[0]!;
  const cwds: CwdValue[] = [];
  const extras: Extras[] = [];
  let sameFuncs = true;
  let returned = true;
  for (let i = 0; i < live.length; i++) {
    const s = live[i]!;
    cwds.push(s.cwd);
    extras.push(s.extras);
    if (!s.funcs.sameAs(base.funcs)) sameFuncs = false;
    if (!s.returned) returned = false;
  }
  return {
    cwd: joinCwd(cwds),
    oldpwd: joinOldpwd(live),
    dirStack: joinDirStacks(live),
    vars: joinVars(live),
    pos: joinPositional(live),
    funcs: sameFuncs ? base.funcs.fork() : CowMap.of(live.flatMap((s) => [...s.funcs])),
    terminated: false,
    returned,
    returns,
    extras: joinExtras(extras),
  };
}

/**
 * $OLDPWD after paths that disagree (a `cd` that may have failed leaves it as it was): the
 * candidates of each; where one path has none yet (no `cd` ran: the environment's value, or
 * unset), it is unknown.
 */
function joinOldpwd(live: State[]): CwdValue | null {
  const base = live[0]!.oldpwd;
  if (live.every((s) => s.oldpwd === base)) return base;
  const values: CwdValue[] = [];
  for (const s of live) {
    if (s.oldpwd === null) return { paths: null, confidence: 'possible', evidence: live.flatMap((x) => x.oldpwd?.evidence ?? []).slice(-6), changed: true };
    values.push(s.oldpwd);
  }
  return joinCwd(values);
}

/**
 * The directory stack after paths that disagree: entries joined from the top down (what `popd`
 * reaches first); below the shortest stack nothing is kept, so a `popd` there goes somewhere unknown.
 */
function joinDirStacks(live: State[]): CwdValue[] {
  const base = live[0]!.dirStack;
  if (live.every((s) => s.dirStack === base || (s.dirStack.length === base.length && s.dirStack.every((d, i) => d === base[i])))) return base;
  const depth = Math.min(...live.map((s) => s.dirStack.length));
  const out: CwdValue[] = [];
  for (let k = depth; k >= 1; k--) out.push(joinCwd(live.map((s) => s.dirStack[s.dirStack.length - k]!)));
  return out;
}

/** The returned paths every branch carries (branches forked from one state share its array). */
function pendingReturns(states: State[]): readonly State[] {
  let out = states[0]!.returns;
  for (let i = 1; i < states.length; i++) {
    const r = states[i]!.returns;
    if (r === out || r.length === 0) continue;
    if (out.length === 0) {
      out = r;
      continue;
    }
    const seen = new Set(out);
    const extra = r.filter((s) => !seen.has(s));
    if (extra.length > 0) out = [...out, ...extra];
  }
  return out;
}

function joinVars(live: State[]): CowMap<string, Variable> {
  const base = live[0]!;
  let same = true;
  for (let i = 1; i < live.length && same; i++) same = live[i]!.vars.sameAs(base.vars);
  if (same) return base.vars.fork();
  const maps = live.map((s) => s.vars);
  // Branches forked from one state differ at most where one of them assigned: only those names
  // are joined, every other one is the same object everywhere and stays.
  const since = CowMap.changedSince(maps);
  if (since !== null) {
    const updates = new Map<string, Variable | undefined>();
    for (const name of since.keys) updates.set(name, joinVariable(maps, name));
    return CowMap.derive(since.base, updates);
  }
  const vars = CowMap.of<string, Variable>();
  const names = new Set<string>(base.vars.keys());
  for (let i = 1; i < live.length; i++) for (const name of live[i]!.vars.keys()) names.add(name);
  for (const name of names) vars.set(name, joinVariable(maps, name)!);
  return vars;
}

/** The positional parameters after branches: shared when no branch changed them, else joined name by name. */
function joinPositional(live: State[]): Positional {
  const base = live[0]!.pos;
  let same = true;
  for (let i = 1; i < live.length && same; i++) same = live[i]!.pos === base;
  if (same) return base;
  const maps = live.map((s) => s.pos);
  const names = new Set<string>();
  for (const m of maps) for (const name of m.keys()) names.add(name);
  const out = new Map<string, Variable>();
  for (const name of names) out.set(name, joinVariable(maps, name)!);
  return out;
}

/** One variable after branches: undefined when no branch has it. */
function joinVariable(maps: readonly { get(name: string): Variable | undefined }[], name: string): Variable | undefined {
  const v0 = maps[0]!.get(name);
  // Branches share variables until they assign one: the same object in every branch means no
  // branch assigned it, so it keeps its value and its confidence.
  let identical = v0 !== undefined;
  let present = v0 !== undefined;
  for (let i = 1; i < maps.length; i++) {
    const v = maps[i]!.get(name);
    if (v !== v0) identical = false;
    if (v !== undefined) present = true;
  }
  if (identical) return v0;
  if (!present) return undefined;
  const vs = maps.map((m) => m.get(name));
  if (v0 && vs.every((v) => v && v.value === v0.value && sameArray(v.array, v0.array) && v.nameref === v0.nameref)) {
    const conf = vs.reduce<Confidence>((c, v) => weakest(c, v!.confidence), 'certain');
    const joined: Variable = { ...v0, confidence: v0.fromEnvironment && conf === 'certain' ? 'certain' : weakest(conf, 'likely') };
    if (vs.some((v) => v!.guessed)) joined.guessed = true;
    return joined;
  }
  // The last 4 evidence items over all branches (`vs.flatMap((v) => v?.evidence ?? []).slice(-4)`).
  const ev: Evidence[] = [];
  for (let i = vs.length - 1; i >= 0 && ev.length < 4; i--) {
    const e = vs[i]?.evidence ?? [];
    for (let j = e.length - 1; j >= 0 && ev.length < 4; j--) ev.push(e[j]!);
  }
  return { value: HOLE, confidence: 'possible', evidence: ev.reverse(), exported: vs.some((v) => v?.exported), fromEnvironment: false };
}

function sameArray(a: ArrayValue | undefined, b: ArrayValue | undefined): boolean {
  if (!a || !b) return a === b;
  return a.assoc === b.assoc && a.partial === b.partial && a.entries.length === b.entries.length && a.entries.every(([k, v], i) => b.entries[i]![0] === k && b.entries[i]![1] === v);
}
