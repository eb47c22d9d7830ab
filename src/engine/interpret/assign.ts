/**
 * Assignments: `X=v`, `X+=v`, arrays (`a=(x y)`, `a[k]=v`), the declaration builtins' forms
 * (`declare -n r=X`, `declare -A m=([k]=v)`, `export X=v`) and the positional parameters. They
 * change only the State they are given; what they expand goes through ExpandHooks.
 */
import type { Assignment, Range, SimpleCommand, Word, WordPart } from '../syntax/ir.js';
import { HOLE, type Evidence } from '../effects/types.js';
import { weakest, type Confidence } from '../effects/confidence.js';
import { dropVar, getVar, putVar, type ArrayValue, type State, type Variable } from '../shell/state.js';
import { saveLocal } from '../shell/extras.js';
import { displayPath } from '../shell/paths.js';
import { unknownVariable } from '../shell/shell-options.js';
import { expandDeclarationValues, expandScalar, expandWord, resolveNameref, subscriptCode, subscriptKey, type ExpandHooks, type Field } from './expand.js';
import type { DeclareFlags } from '../commands/context.js';

/** What an assignment needs besides the state: expansion, and a place to report a variable bash computes itself. */
export interface AssignHost extends ExpandHooks {
  dynamicProblem(reason: string, text: string, range: Range, elsewhere?: true): void;
}

const DECLARE_NAMES = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);

/** The options of `declare -Anx ...` / `local -n` / `export`. */
export function declareFlags(fields: Field[]): DeclareFlags & { assoc: boolean; indexed: boolean } {
  const flags = { exported: fields[0]?.value === 'export', assoc: false, indexed: false, nameref: false };
  for (const f of fields.slice(1)) {
    if (!/^-[A-Za-z]+$/.test(f.value)) continue;
    if (f.value.includes('x')) flags.exported = true;
    if (f.value.includes('A')) flags.assoc = true;
    if (f.value.includes('a')) flags.indexed = true;
    if (f.value.includes('n')) flags.nameref = true;
  }
  return flags;
}

/** `[key]=value` inside `( ... )`: the key as written and the value as a word. */
function keyedElement(w: Word): { key: string; value: Word } | null {
  const first = w.parts[0];
  if (!first || first.kind !== 'text' || first.quoting !== 'none') return null;
  // The key may be split over several unquoted text parts (`[`, `k`, `]=v`).
  let raw = '';
  let i = 0;
  for (; i < w.parts.length; i++) {
    const p = w.parts[i]!;
    if (p.kind !== 'text' || p.quoting !== 'none') break;
    raw += p.value;
    if (raw.includes(']=')) break;
  }
  const m = /^\[([^\]]*)\]=([\s\S]*)$/.exec(raw);
  if (!m) return null;
  const parts: WordPart[] = [...(m[2] ? [{ kind: 'text' as const, value: m[2], quoting: 'none' as const }] : []), ...w.parts.slice(i + 1)];
  return { key: m[1]!, value: { ...w, parts } };
}

/**
 * The declarations of `declare`/`local`/`export` ... (and a command whose IR carries declarations):
 * each `NAME=value` assigned with the command's flags; `declare -A m` makes an empty array.
 */
export function declare(host: AssignHost, cmd: SimpleCommand, fields: Field[], st: State): void {
  if (cmd.declarations.length === 0 && !DECLARE_NAMES.has(fields[0]!.value)) return;
  const flags = declareFlags(fields);
  // Inside a function, `local`, and `declare`/`typeset` without -g, make the names local to the call.
  const name0 = fields[0]?.value;
  if ((name0 === 'local' || ((name0 === 'declare' || name0 === 'typeset') && !fields.some((f) => /^-[A-Za-z]*g/.test(f.value)))) && st.extras.locals.length > 0) {
    for (const d of cmd.declarations) {
      const n = d.name.replace(/\[[\s\S]*$/, '');
      saveLocal(st.extras, n, st.vars.get(n));
    }
    for (const f of fields.slice(1)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(f.value) || cmd.declarations.some((d) => d.name === f.value)) continue;
      saveLocal(st.extras, f.value, st.vars.get(f.value));
      // `local v`: a new variable, unset until assigned (bash without localvar_inherit).
      if (!flags.assoc && !flags.indexed) dropVar(st, f.value);
    }
  }
  // `readonly v=/x/{a,b}`: one assignment per alternative; the first of a read-only name holds
  // (the next one fails), otherwise the last.
  const readonly = name0 === 'readonly' || fields.some((f) => /^-[A-Za-z]*r/.test(f.value));
  for (const d of cmd.declarations) {
    const values = d.value ? expandDeclarationValues(d.value, st, host) : [null];
    assignVariable(host, st, d, (readonly ? values[0] : values[values.length - 1]) ?? null, flags);
  }
  // `declare -A m`, `local -a list`: a name without a value declares an empty array.
  if (flags.assoc || flags.indexed) {
    for (const f of fields.slice(1)) {
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(f.value) && !cmd.declarations.some((d) => d.name === f.value) && !getVar(st, f.value)?.array) {
        putVar(st, f.value, { value: '', confidence: 'likely', evidence: [], exported: false, fromEnvironment: false, array: { assoc: flags.assoc, entries: [], partial: false } });
      }
    }
  }
}

/**
 * One assignment: `X=v`, `X+=v`, `a=(x y)`, `a+=(z)`, `a[k]=v`, and the declaration forms
 * (`declare -n r=X`, `declare -A m=([k]=v)`, `export X=v`).
 */
export function assignVariable(host: AssignHost, st: State, a: Assignment, value: Field | null, flags: DeclareFlags): void {
  const sub = /^([A-Za-z_][A-Za-z0-9_]*)\[([\s\S]*)\]$/.exec(a.name);
  const at = `${a.range.line}:${a.range.column}`;
  const unknownState = unknownVariable(a.name);
  if (unknownState) host.dynamicProblem(unknownState, a.name, a.range);
  if (flags.nameref && value && !sub) {
    const target = value.value;
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(target)) {
      putVar(st, a.name, { value: '', confidence: 'likely', evidence: [{ range: a.range, note: `${a.name} refers to ${target} (declare -n) at ${at}` }], exported: false, fromEnvironment: false, nameref: target });
    } else setVar(st, a.name, HOLE, 'possible', [{ range: a.range, note: `${a.name} refers to a variable not known statically` }]);
    return;
  }
  if (sub) {
    // `a[k]=v`: one element.
    const base = resolveNameref(st, sub[1]!);
    const prev = getVar(st, base);
    const arr: ArrayValue = prev?.array ? { ...prev.array, entries: prev.array.entries.slice() } : { assoc: !!flags.assoc, entries: prev ? [['0', prev.value]] : [], partial: false };
    subscriptCode(a.subscript, sub[2]!, st, host, a.range);
    const key = subscriptKey(st, sub[2]!, arr.assoc, arr.partial ? null : arr.entries.length, host);
    const v = value?.value ?? '';
    if (key === null) {
      // An index not known statically (`a[$i]=`, `a[1-1]=`): any element may be the one written.
      arr.partial = true;
      arr.entries = arr.entries.map(([k]) => [k, HOLE]);
    } else {
      const i = arr.entries.findIndex(([k]) => k === key);
      const next = a.append && i >= 0 ? arr.entries[i]![1] + v : v;
      if (i >= 0) arr.entries[i] = [key, next];
      else arr.entries.push([key, next]);
      if (!arr.assoc) arr.entries.sort((x, y) => Number(x[0]) - Number(y[0]));
    }
    setArray(st, base, arr, weakest(value?.confidence ?? 'certain', 'likely'), [...(value?.evidence ?? []), { range: a.range, note: `${a.name}=${displayPath(v)} set at ${at}` }], flags.exported);
    return;
  }
  if (a.elements) {
    const name = resolveNameref(st, a.name);
    const prev = getVar(st, name);
    const assoc = flags.assoc || (a.append && !!prev?.array?.assoc) || (!flags.indexed && !!prev?.array?.assoc);
    const arr: ArrayValue = a.append && prev ? (prev.array ? { ...prev.array, entries: prev.array.entries.slice() } : { assoc, entries: [['0', prev.value]], partial: false }) : { assoc, entries: [], partial: false };
    let conf: Confidence = 'likely';
    const ev: Evidence[] = [];
    let next = arr.entries.reduce((n, [k]) => (/^\d+$/.test(k) ? Math.max(n, Number(k) + 1) : n), 0);
    for (const w of a.elements) {
      const keyed = keyedElement(w);
      if (keyed) {
        const key = subscriptKey(st, keyed.key, assoc, arr.entries.length, host);
        const f = expandScalar(keyed.value, st, host);
        conf = weakest(conf, f.confidence);
        if (key === null) {
          arr.partial = true;
          continue;
        }
        const i = arr.entries.findIndex(([k]) => k === key);
        if (i >= 0) arr.entries[i] = [key, f.value];
        else arr.entries.push([key, f.value]);
        if (/^\d+$/.test(key)) next = Math.max(next, Number(key) + 1);
        continue;
      }
      const { fields } = expandWord(w, st, host);
      for (const f of fields) {
        conf = weakest(conf, f.confidence);
        ev.push(...f.evidence);
        // A glob element becomes as many elements as files match: not known statically.
        if (f.glob) {
          arr.partial = true;
          continue;
        }
        arr.entries.push([String(next++), f.value]);
      }
    }
    setArray(st, name, arr, conf, [...ev.slice(-4), { range: a.range, note: `${a.name}=(${arr.entries.map(([, v]) => displayPath(v)).join(' ')}) set at ${at}` }], flags.exported);
    return;
  }
  if (value === null) {
    if (a.unknownValue) setVar(st, a.name, HOLE, 'possible', [], flags.exported);
    else if (flags.exported && getVar(st, a.name)) setVar(st, a.name, getVar(st, a.name)!.value, getVar(st, a.name)!.confidence, getVar(st, a.name)!.evidence, true);
    return;
  }
  const target = resolveNameref(st, a.name);
  const prevVar = getVar(st, target);
  const prev = a.append ? prevVar?.value ?? '' : '';
  // `X+=v` on a variable the script did not set appends to whatever the environment gave it.
  const guessed = value.guessed || (a.append && (!prevVar || prevVar.guessed || (prevVar.fromEnvironment && !host.envKnown(target))));
  if (prevVar?.array && !prevVar.array.assoc) {
    // `a=x` on an array sets element 0.
    const entries = prevVar.array.entries.filter(([k]) => k !== '0');
    entries.unshift(['0', prev + value.value]);
    setArray(st, target, { ...prevVar.array, entries }, weakest(value.confidence, 'likely'), value.evidence, flags.exported);
    return;
  }
  setVar(st, target, prev + value.value, weakest(value.confidence, 'likely'), [
    ...value.evidence,
    { range: a.range, note: `${a.name}=${displayPath(prev + value.value)} set at ${at}` },
  ], flags.exported, guessed);
}

/** Sets an array variable (element 0 is also its scalar value). */
export function setArray(st: State, name: string, arr: ArrayValue, confidence: Confidence, evidence: Evidence[], exported?: boolean): void {
  const prev = getVar(st, name);
  const zero = arr.entries.find(([k]) => k === '0')?.[1] ?? (arr.partial ? HOLE : '');
  putVar(st, name, { value: zero, confidence, evidence: evidence.slice(-6), exported: exported ?? prev?.exported ?? false, fromEnvironment: false, array: arr });
}

/** Sets a scalar variable (through a nameref to its target). */
export function setVar(st: State, name: string, value: string, confidence: Confidence, evidence: Evidence[], exported?: boolean, guessed?: boolean): void {
  name = resolveNameref(st, name);
  const prev = getVar(st, name);
  const v: Variable = {
    value,
    confidence,
    evidence: evidence.slice(-6),
    exported: exported ?? prev?.exported ?? false,
    fromEnvironment: false,
  };
  if (guessed) v.guessed = true;
  putVar(st, name, v);
}

/** `set -- a b`, function arguments: $1 ... $N, $# and "$@"; null makes them unknown. */
export function setPositional(st: State, values: Field[] | null): void {
  // A new map (the old one may be shared): $1 ... $N, then `@` as setArray builds it (keeping
  // whether `@` was exported) and `#`. Whatever else was positional goes.
  const pos = new Map<string, Variable>();
  const exported = st.pos.get('@')?.exported ?? false;
  if (values === null) {
    pos.set('@', { value: HOLE, confidence: 'possible', evidence: [], exported, fromEnvironment: false, array: { assoc: false, entries: [], partial: true } });
    pos.set('#', { value: HOLE, confidence: 'possible', evidence: [], exported: false, fromEnvironment: false });
    st.pos = pos;
    return;
  }
  let conf: Confidence = 'likely';
  const entries: [string, string][] = [];
  for (let i = 0; i < values.length; i++) {
    const a = values[i]!;
    // A guessed argument stays a guess in the function (it decides no condition there either).
    pos.set(indexName(i + 1), { value: a.value, confidence: a.confidence, evidence: a.evidence, exported: false, fromEnvironment: false, ...(a.guessed ? { guessed: true } : {}) });
    conf = weakest(conf, a.confidence);
    entries.push([indexName(i), a.value]);
  }
  const zero = values.length > 0 ? values[0]!.value : '';
  pos.set('@', { value: zero, confidence: conf, evidence: lastEvidence(values, 4), exported, fromEnvironment: false, array: { assoc: false, entries, partial: false } });
  pos.set('#', { value: String(values.length), confidence: 'certain', evidence: [], exported: false, fromEnvironment: false });
  st.pos = pos;
}

/** The last `n` evidence items of the fields, in order (`fields.flatMap((f) => f.evidence).slice(-n)`). */
function lastEvidence(fields: Field[], n: number): Evidence[] {
  const out: Evidence[] = [];
  for (let i = fields.length - 1; i >= 0 && out.length < n; i--) {
    const ev = fields[i]!.evidence;
    for (let j = ev.length - 1; j >= 0 && out.length < n; j--) out.push(ev[j]!);
  }
  return out.reverse();
}

/** `0`, `1` ... as strings, made once (every call names its arguments; a new string is hashed again as a key). */
const INDEX_NAMES: string[] = Array.from({ length: 64 }, (_, i) => String(i));

function indexName(i: number): string {
  return i < INDEX_NAMES.length ? INDEX_NAMES[i]! : String(i);
}
