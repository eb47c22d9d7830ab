/**
 * Word expansion, in bash's order: brace expansion, tilde, parameters, command substitution,
 * arithmetic, word splitting, globbing. Unknown values become HOLE characters so that the
 * known prefix of a path still counts (`/repo/$X` is under /repo whatever X is).
 */
import type { Command, Range, Word, WordPart } from '../syntax/ir.js';
import { HOLE, type Evidence } from '../effects/types.js';
import type { Field } from '../shell/field.js';
import { weakest, type Confidence } from '../effects/confidence.js';
import { getVar, putVar, type State } from '../shell/state.js';
import { mayRunCommandSubstitution } from '../shell/code-text.js';
import type { ArithText } from '../commands/context.js';

export type { Field } from '../shell/field.js';

export interface ExpandHooks {
  /** Runs a command substitution in a subshell and returns its output (HOLE where unknown). */
  commandSubstitution(body: Command, st: State, text: string): string;
  /** Runs a process substitution's body for its effects; returns the path bash passes. */
  processSubstitution(body: Command, st: State, direction: '<' | '>'): string;
  /** Reports a part of a word that could not be read. */
  problem(reason: string, text: string, word: Word): void;
  /** The cwd for `$PWD` (first candidate) or null. */
  pwd(st: State): string | null;
  /**
   * Whether a condition may rely on this variable of the analysis' environment (the client's
   * shell provably has the same value); otherwise the value is a guess (see Field#guessed).
   */
  envKnown(name: string): boolean;
  /** Counts expansions that gave a guess, so a command substitution can tell its output rests on one. */
  guesses: number;
  /** `${x@P}`: the value is expanded as a prompt, its command substitutions run. */
  promptCode?(value: string, st: State, range: Range): void;
  /** The code an arithmetic evaluation of `text` runs through the variables it names (./arith-code.ts). */
  arithmetic?(text: string, st: State, range: Range, how: ArithText): void;
}

/** Limits brace expansion so `{1..1000000}` or `{a,b}` x 30 cannot blow up. */
export const MAX_FIELDS = 256;

// Private-use markers for syntax that is active only when unquoted.
const B_OPEN = '\uE000';
const B_COMMA = '\uE001';
const B_CLOSE = '\uE002';
const SPLIT = '\uE003';
/** Between the elements of `"${a[@]}"` / `"$@"`: separate fields even inside quotes. */
const FIELD = '\uE004';
const G_STAR = '\uE010';
const G_QUEST = '\uE011';
const G_BRACKET = '\uE012';

interface Acc {
  text: string;
  confidence: Confidence;
  evidence: Evidence[];
  guessed?: boolean;
}

const UNQUOTED_SPECIAL = /[{,}*?[]/;
const EXPANSION_SPECIAL = /[ \t\n*?[]/;

function markUnquoted(s: string): string {
  // Most words have none of these: no copy built character by character.
  if (!UNQUOTED_SPECIAL.test(s)) return s;
  let out = '';
  for (const ch of s) {
    if (ch === '{') out += B_OPEN;
    else if (ch === ',') out += B_COMMA;
    else if (ch === '}') out += B_CLOSE;
    else if (ch === '*') out += G_STAR;
    else if (ch === '?') out += G_QUEST;
    else if (ch === '[') out += G_BRACKET;
    else out += ch;
  }
  return out;
}

/** Unquoted expansion results are split on IFS (whitespace unless the script set it) and globbed, but never brace-expanded. */
function markExpansion(s: string, ifs: string | null = null): string {
  if (ifs === null && !EXPANSION_SPECIAL.test(s)) return s;
  let out = '';
  for (const ch of s) {
    if (ifs === null ? ch === ' ' || ch === '\t' || ch === '\n' : ifs.includes(ch)) out += SPLIT;
    else if (ch === '*') out += G_STAR;
    else if (ch === '?') out += G_QUEST;
    else if (ch === '[') out += G_BRACKET;
    else out += ch;
  }
  return out;
}

/** Follows `declare -n` references to the variable they name (bounded: a cycle is unknown). */
export function resolveNameref(st: State, name: string): string {
  let n = name;
  for (let i = 0; i < 8; i++) {
    const v = getVar(st, n);
    if (!v?.nameref) return n;
    n = v.nameref;
  }
  return n;
}

export function lookupVar(st: State, name: string, hooks: ExpandHooks): { value: string; confidence: Confidence; evidence: Evidence[]; guessed?: boolean } | null {
  name = resolveNameref(st, name);
  if (name === 'PWD') {
    const pwd = hooks.pwd(st);
    // A $PWD the script assigned is what it expands to (`cd` keeps it in step with the cwd).
    const own = getVar(st, 'PWD');
    if (pwd !== null && own && !own.fromEnvironment && own.value !== pwd) return { value: own.value, confidence: own.confidence, evidence: own.evidence };
    if (pwd !== null) return { value: pwd, confidence: st.cwd.confidence, evidence: st.cwd.evidence };
    return null;
  }
  if (name === 'OLDPWD' && st.oldpwd !== null) {
    // A value assigned since the last `cd` (which drops it: cwd.ts setCwd) is what it holds.
    const own = getVar(st, name);
    if (own && !own.fromEnvironment) return { value: own.value, confidence: own.confidence, evidence: own.evidence };
    if (st.oldpwd.paths?.length === 1) return { value: st.oldpwd.paths[0]!, confidence: st.oldpwd.confidence, evidence: st.oldpwd.evidence };
    // Several candidates (a `cd` that may have failed): not one value.
    return { value: HOLE, confidence: 'possible', evidence: st.oldpwd.evidence };
  }
  const v = getVar(st, name);
  if (!v) return null;
  if (v.guessed || (v.fromEnvironment && !hooks.envKnown(name))) return { value: v.value, confidence: v.confidence, evidence: v.evidence, guessed: true };
  return { value: v.value, confidence: v.confidence, evidence: v.evidence };
}

/** The last `n` items of `a` followed by `b` (`[...a, ...b].slice(-n)`), without building the whole concatenation. */
export function lastOf<T>(a: T[], b: T[], n: number): T[] {
  const fromA = Math.max(0, n - b.length);
  const out: T[] = [];
  for (let i = Math.max(0, a.length - fromA); i < a.length; i++) out.push(a[i]!);
  for (let i = Math.max(0, b.length - n); i < b.length; i++) out.push(b[i]!);
  return out;
}

/**
 * Expands one word into fields. Not memoized per word: a WeakMap of the words of text only cost
 * every check more than it saved (its ephemeron table is work for every scavenge): check p50
 * 19.1-20.0 -> 17.0-17.5 us without it, lint 7 batches 1.70-1.78 -> 1.66-1.69 s (docs/history/performance.md).
 */
export function expandWord(word: Word, st: State, hooks: ExpandHooks): { fields: Field[]; truncated: boolean } {
  const acc: Acc = { text: '', confidence: 'certain', evidence: [] };
  for (const part of word.parts) appendPart(acc, part, st, hooks, word, false);
  // No marker (no unquoted brace, split point or glob character): one field, the text itself,
  // as the general path below gives it (most words of most commands).
  if (!MARKER.test(acc.text)) return { fields: [guessedIf(acc, { value: acc.text, confidence: acc.confidence, evidence: acc.evidence, glob: false })], truncated: false };
  const { words, truncated } = braceExpand(acc.text, MAX_FIELDS);
  const fields: Field[] = [];
  for (const whole of words) {
    for (const w of whole.split(FIELD)) {
      for (const piece of w.split(SPLIT)) {
        if (piece === '' && w.includes(SPLIT)) continue;
        const glob = /[\uE010-\uE012]/.test(piece);
        fields.push(guessedIf(acc, { value: unmark(piece), confidence: acc.confidence, evidence: acc.evidence, glob }));
      }
    }
  }
  // A word that expands to nothing (an empty unquoted variable) gives no field, as in bash.
  if (fields.length === 0 && word.parts.some((p) => p.kind === 'text' && p.quoting !== 'none')) {
    fields.push(guessedIf(acc, { value: '', confidence: acc.confidence, evidence: acc.evidence, glob: false }));
  }
  return { fields, truncated };
}

/** Marks a field whose text rests on a guess (only then: most fields never carry the flag). */
function guessedIf(acc: Acc, f: Field): Field {
  if (acc.guessed) f.guessed = true;
  return f;
}

/** Expands a word that bash does not split or glob (assignment values, `case` subjects, heredocs). */
export function expandScalar(word: Word, st: State, hooks: ExpandHooks): Field {
  const acc: Acc = { text: '', confidence: 'certain', evidence: [] };
  for (const part of word.parts) appendPart(acc, part, st, hooks, word, true);
  // Markers are rare in a scalar (`"$@"`, unquoted braces): no pass over the text without one.
  const value = MARKER.test(acc.text) ? unmark(acc.text.replace(BRACE_MARKS, braceChar).replace(SPLIT_MARKS, ' ')) : acc.text;
  return guessedIf(acc, { value, confidence: acc.confidence, evidence: acc.evidence, glob: false });
}

/**
 * A declaration builtin's `NAME=value` argument (`readonly v=/x/{a,b}`): bash brace-expands the
 * word (one assignment per alternative, in order), then expands each like an assignment value
 * (no splitting, no globbing). One field where there is no brace.
 */
export function expandDeclarationValues(word: Word, st: State, hooks: ExpandHooks): Field[] {
  const acc: Acc = { text: '', confidence: 'certain', evidence: [] };
  for (const part of word.parts) {
    // Only braces of the text as written are expanded (not those of a variable's value).
    if (part.kind === 'text' && part.quoting === 'none' && part.value.includes('{')) acc.text += part.value.replace(/[{,}]/g, (c) => (c === '{' ? B_OPEN : c === ',' ? B_COMMA : B_CLOSE));
    else appendPart(acc, part, st, hooks, word, true);
  }
  const { words } = HAS_BRACE.test(acc.text) ? braceExpand(acc.text, MAX_FIELDS) : { words: [acc.text] };
  return words.map((w) => {
    const value = MARKER.test(w) ? unmark(w.replace(BRACE_MARKS, braceChar).replace(SPLIT_MARKS, ' ')) : w;
    return guessedIf(acc, { value, confidence: acc.confidence, evidence: acc.evidence, glob: false });
  });
}
const HAS_BRACE = /\uE000/;

/** Any of the private-use markers above. */
const MARKER = /[\uE000-\uE012]/;
const BRACE_MARKS = /[\uE000-\uE002]/g;
const SPLIT_MARKS = new RegExp(`[${SPLIT}${FIELD}]`, 'g');
const braceChar = (c: string): string => (c === B_OPEN ? '{' : c === B_COMMA ? ',' : '}');

function unmark(s: string): string {
  if (!MARKER.test(s)) return s;
  return s.replace(/[\uE000-\uE012]/g, (c) => {
    switch (c) {
      case B_OPEN: return '{';
      case B_COMMA: return ',';
      case B_CLOSE: return '}';
      case SPLIT: return ' ';
      case FIELD: return ' ';
      case G_STAR: return '*';
      case G_QUEST: return '?';
      case G_BRACKET: return '[';
      default: return c;
    }
  });
}

function appendPart(acc: Acc, part: WordPart, st: State, hooks: ExpandHooks, word: Word, scalar: boolean): void {
  switch (part.kind) {
    case 'text':
      acc.text += part.quoting === 'none' && !scalar ? markUnquoted(part.value) : part.value;
      return;
    case 'tilde': {
      if (part.user === '') {
        const home = st.vars.get('HOME');
        if (home) {
          acc.text += home.value;
          acc.confidence = weakest(acc.confidence, home.confidence);
        } else acc.text += '/' + HOLE;
      } else if (part.user === '+' || part.user === '-') {
        // ~+ is $PWD, ~- is $OLDPWD.
        const v = lookupVar(st, part.user === '+' ? 'PWD' : 'OLDPWD', hooks);
        if (v) {
          acc.text += v.value;
          acc.confidence = weakest(acc.confidence, v.confidence);
        } else acc.text += '/' + HOLE;
      } else if (part.user === 'root') {
        acc.text += '/root';
      } else if (st.vars.get('USER')?.value === part.user && st.vars.get('HOME')) {
        // ~me is $HOME when `me` is the current user.
        acc.text += st.vars.get('HOME')!.value;
      } else {
        // ~user: an absolute home directory we cannot know statically.
        acc.text += '/' + HOLE;
      }
      return;
    }
    case 'param': {
      const v = paramValue(part, st, hooks, word);
      const ifs = part.quoted || scalar ? null : ifsOf(st);
      if (v.fields) {
        // `"${a[@]}"`, `"$@"`: one field per element; unquoted, each element is split again.
        // (`"$*"`, `"${a[*]}"`: joined by the first character of IFS)
        const sep = scalar || (part.quoted && v.joined) ? (v.joined ? starSeparator(st) : ' ') : part.quoted ? FIELD : SPLIT;
        acc.text += v.fields.map((f) => (part.quoted || scalar ? f : markExpansion(f, ifs))).join(sep);
      } else acc.text += part.quoted || scalar ? v.value : markExpansion(v.value, ifs);
      acc.confidence = weakest(acc.confidence, v.confidence);
      if (v.evidence.length) acc.evidence = lastOf(acc.evidence, v.evidence, 6);
      if (v.guessed) {
        acc.guessed = true;
        hooks.guesses++;
      }
      return;
    }
    case 'command-sub': {
      const guessesBefore = hooks.guesses;
      const out = hooks.commandSubstitution(part.body, st, part.text);
      if (hooks.guesses !== guessesBefore) acc.guessed = true;
      acc.text += part.quoted || scalar ? out : markExpansion(out, ifsOf(st));
      if (out.includes(HOLE)) acc.confidence = weakest(acc.confidence, 'possible');
      else acc.confidence = weakest(acc.confidence, 'likely');
      return;
    }
    case 'process-sub':
      acc.text += hooks.processSubstitution(part.body, st, part.direction);
      return;
    case 'arith':
      for (const sub of part.subs) hooks.commandSubstitution(sub, st, part.text);
      hooks.arithmetic?.(part.text, st, word.range, 'source');
      acc.text += HOLE;
      return;
    case 'unknown':
      hooks.problem(part.reason, part.text, word);
      acc.text += HOLE;
      acc.confidence = weakest(acc.confidence, 'possible');
      return;
  }
}

interface ParamResult {
  value: string;
  confidence: Confidence;
  evidence: Evidence[];
  /** Several words: the elements of `${a[@]}`, `$@`, `${!a[@]}`. */
  fields?: string[];
  /** `${a[*]}`: the elements joined into one word when quoted. */
  joined?: boolean;
  /** The text rests on a guess about the environment (see Field#guessed). */
  guessed?: boolean;
}

const SUBSCRIPT = /^([A-Za-z_][A-Za-z0-9_]*)\[([\s\S]*)\]$/;
/** The operators that test whether a parameter is set (or null): `-`, `=`, `+`, `?`, each also with `:`. */
const DEFAULT_OPS = /^:?[-=+?]$/;

/**
 * The code bash runs when it expands a subscript and evaluates it as arithmetic. As written
 * (`${a[$(cmd)]}`, `a[$(cmd)]=v`): its parsed word, whose substitutions run here like any other
 * word's; only the names in `text` are followed further. Given as a value (`${!r}` with
 * r='a[$(cmd)]'): `text` alone, which ./arith-code.ts parses.
 */
export function subscriptCode(word: Word | undefined, text: string, st: State, hooks: ExpandHooks, range: Range): void {
  if (!word) {
    hooks.arithmetic?.(text, st, range, 'subscript');
    return;
  }
  if (word.parts.some((p) => p.kind !== 'text')) expandScalar(word, st, hooks);
  hooks.arithmetic?.(text, st, range, 'source');
}

/** The elements of an array variable (a scalar is an array of one), or null when unknown. */
function arrayOf(st: State, name: string, hooks: ExpandHooks): { entries: [string, string][]; assoc: boolean; partial: boolean; confidence: Confidence; evidence: Evidence[]; guessed: boolean } | null {
  const resolved = resolveNameref(st, name);
  const v = getVar(st, resolved);
  if (!v) return null;
  const guessed = !!v.guessed || (v.fromEnvironment && !hooks.envKnown(resolved));
  if (v.array) return { entries: v.array.entries, assoc: v.array.assoc, partial: v.array.partial, confidence: v.confidence, evidence: v.evidence, guessed };
  return { entries: [['0', v.value]], assoc: false, partial: v.value.includes(HOLE), confidence: v.confidence, evidence: v.evidence, guessed };
}

/** An array subscript's key: an associative key as written, an index computed when it is a plain number or variable. */
/**
 * The key an index names: a number (negative from the end) or, for an associative array, the text.
 * `length` null: how many elements the array has is not known (an element from a glob or unknown
 * input), so an index from the end names no known element.
 */
export function subscriptKey(st: State, raw: string, assoc: boolean, length: number | null, hooks: ExpandHooks): string | null {
  let t = raw.trim();
  const simple = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(t);
  if (simple) {
    const v = lookupVar(st, simple[1]!, hooks);
    if (!v || v.value.includes(HOLE)) return null;
    t = v.value;
  } else if (/[$`]/.test(t)) return null;
  if (assoc) return t.replace(/^(["'])(.*)\1$/, '$2');
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(t)) {
    const v = lookupVar(st, t, hooks);
    if (!v || v.value.includes(HOLE)) return v ? null : '0';
    t = v.value;
  }
  if (!/^-?\d+$/.test(t)) return null;
  const n = Number(t);
  if (n < 0 && length === null) return null;
  return String(n < 0 ? length! + n : n);
}

function paramValue(
  part: Extract<WordPart, { kind: 'param' }>,
  st: State,
  hooks: ExpandHooks,
  word: Word,
): ParamResult {
  const note = (n: string): Evidence[] => [{ range: word.range, note: n }];
  let op = part.op;
  if (op?.startsWith('[]')) op = op.slice(2) || null;
  const sub = SUBSCRIPT.exec(part.name);
  if (sub) subscriptCode(part.subscript, sub[2]!, st, hooks, word.range);
  const isLength = op === '#' && part.arg === null && part.text.startsWith('${#');
  if (op === '!' && part.arg === null && !sub) {
    // `${!name}`: the variable whose name is name's value.
    const ref = lookupVar(st, part.name, hooks);
    if (ref && /^([A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?|[0-9]+)$/.test(ref.value)) {
      const inner = paramValue({ ...part, name: ref.value, op: null, text: `\${${ref.value}}` }, st, hooks, word);
      return { ...inner, confidence: weakest(inner.confidence, ref.confidence) };
    }
    return { value: HOLE, confidence: 'possible', evidence: note(`\${!${part.name}} names a variable not known statically`) };
  }
  if (sub || ((part.name === '@' || part.name === '*') && st.pos.get('@')?.array)) {
    const base = sub ? sub[1]! : '@';
    const index = sub ? sub[2]! : part.name;
    const arr = arrayOf(st, base, hooks);
    const all = index === '@' || index === '*';
    if (arr === null) {
      // `${a[1]:-w}` of an array the command did not set: decided as for an unset scalar.
      if (op !== null && DEFAULT_OPS.test(op)) return withOperator(null, part, op, st, hooks, note);
      return { value: HOLE, confidence: 'likely', evidence: note(`\${${part.name}} is not set by the command`) };
    }
    if (op === '!' && all) {
      if (arr.partial) return { value: HOLE, confidence: 'possible', evidence: arr.evidence };
      return { value: arr.entries.map(([k]) => k).join(' '), fields: arr.entries.map(([k]) => k), joined: index === '*', confidence: arr.confidence, evidence: arr.evidence };
    }
    if (all) {
      if (isLength) return arr.partial ? { value: HOLE, confidence: 'possible', evidence: arr.evidence } : { value: String(arr.entries.length), confidence: arr.confidence, evidence: arr.evidence };
      const values = arr.entries.map(([, v]) => v);
      if (arr.partial) values.push(HOLE);
      if (op === null) return { value: values.join(' '), fields: values, joined: index === '*', confidence: arr.confidence, evidence: arr.evidence };
      if (DEFAULT_OPS.test(op)) {
        // `${a[@]:-w}` tests the whole expansion: unset without elements, null (`:`) when they join to ''.
        const whole = arr.entries.length === 0 && !arr.partial ? null : { value: values.join(' '), confidence: arr.confidence, evidence: arr.evidence, ...(arr.guessed ? { guessed: true } : {}) };
        const r = withOperator(whole, part, op, st, hooks, note, whole === null && !arr.guessed);
        return whole !== null && r === whole ? { ...whole, fields: values, joined: index === '*' } : r;
      }
      // An operator on every element: computed on known elements only.
      const each = values.map((v) => applyOp(op!, v, part, st, hooks));
      if (each.every((r) => r !== null)) return { value: each.join(' '), fields: each as string[], joined: index === '*', confidence: arr.confidence, evidence: arr.evidence };
      return { value: HOLE, confidence: 'possible', evidence: note(`\${${part.name}${op}...} cannot be computed statically`) };
    }
    const key = subscriptKey(st, index, arr.assoc, arr.partial ? null : arr.entries.length, hooks);
    const hit = key === null ? undefined : arr.entries.find(([k]) => k === key);
    let elem: { value: string; confidence: Confidence; evidence: Evidence[] } | null;
    if (key === null) elem = { value: HOLE, confidence: 'possible', evidence: note(`the subscript of \${${part.name}} is not known statically`) };
    else if (hit) elem = { value: hit[1], confidence: arr.confidence, evidence: arr.evidence };
    else elem = arr.partial ? { value: HOLE, confidence: 'possible', evidence: arr.evidence } : null;
    if (isLength) return elem && !elem.value.includes(HOLE) ? { ...elem, value: String(elem.value.length) } : { value: HOLE, confidence: 'possible', evidence: [] };
    // An element a fully known array lacks is unset for certain.
    return withOperator(elem, part, op, st, hooks, note, elem === null && !arr.guessed);
  }
  const known = lookupVar(st, part.name, hooks);
  if (isLength) {
    if (known && !known.value.includes(HOLE)) return { ...known, value: String(known.value.length) };
    return { value: HOLE, confidence: 'possible', evidence: note(`\${#${part.name}} cannot be computed statically`) };
  }
  if (op === '@' && part.arg?.text === 'P' && known && mayRunCommandSubstitution(known.value)) hooks.promptCode?.(known.value, st, word.range);
  return withOperator(known, part, op, st, hooks, note);
}

/** A pattern operator on one known value, or null. */
function applyOp(op: string, value: string, part: Extract<WordPart, { kind: 'param' }>, st: State, hooks: ExpandHooks): string | null {
  // (the word is expanded also for a value not known statically: its substitutions run)
  const pat = part.arg ? expandScalar(part.arg, st, hooks) : { value: '', confidence: 'certain' as Confidence, evidence: [] };
  if (value.includes(HOLE) || pat.value.includes(HOLE)) return null;
  return patternOp(op, value, pat.value);
}

/** A parameter's value where the analysis knows one (null where it does not). */
type KnownValue = { value: string; confidence: Confidence; evidence: Evidence[]; guessed?: boolean } | null;

function withOperator(
  known: KnownValue,
  part: Extract<WordPart, { kind: 'param' }>,
  op: string | null,
  st: State,
  hooks: ExpandHooks,
  note: (n: string) => Evidence[],
  unsetKnown = false,
): ParamResult {
  const r = operatorValue(known, part, op, st, hooks, note);
  // A variable the script did not set may come from the environment with any value: what the
  // operator gives for "unset" is a guess, as is anything computed from a guessed value.
  if (((known === null && !unsetKnown) || known?.guessed) && !r.guessed) return { ...r, guessed: true };
  return r;
}

function operatorValue(
  known: KnownValue,
  part: Extract<WordPart, { kind: 'param' }>,
  op: string | null,
  st: State,
  hooks: ExpandHooks,
  note: (n: string) => Evidence[],
): ParamResult {
  if (op === null) {
    if (known) return known;
    // The hole itself is judged by its position in a path (holeConfidence).
    return { value: HOLE, confidence: 'likely', evidence: note(`$${part.name} is not set by the command`) };
  }
  const isSet = known !== null && !known.value.includes(HOLE);
  const isUnknown = known === null || known.value.includes(HOLE);
  switch (op) {
    case ':-':
    case '-':
    case ':=':
    case '=': {
      if (isSet && !(op.startsWith(':') && known!.value === '')) return known!;
      const def = part.arg ? expandScalar(part.arg, st, hooks) : { value: '', confidence: 'certain' as Confidence, evidence: [] };
      if (op.endsWith('=') && known === null) {
        putVar(st, part.name, {
          value: def.value,
          confidence: weakest(def.confidence, 'likely'),
          evidence: note(`${part.name} defaulted to ${def.value}`),
          exported: false,
          fromEnvironment: false,
          // Not set by the script: it may come from the environment, where `:=` keeps its value.
          guessed: true,
        });
      }
      // The default applies if the variable is unset; when we cannot tell, it is a guess: a value
      // not known statically ($1 of a function called with "$@") may be set and not empty.
      const guessed = isUnknown && known !== null;
      return {
        value: def.value,
        confidence: weakest(def.confidence, guessed ? 'possible' : 'likely'),
        evidence: note(`\${${part.name}${op}...} uses its default ${def.value.split(HOLE).join('…')}`),
        ...(guessed ? { guessed: true } : {}),
      };
    }
    case ':+':
    case '+': {
      if (known === null) return { value: '', confidence: 'likely', evidence: [] };
      if (isSet) return part.arg ? expandScalar(part.arg, st, hooks) : { value: '', confidence: 'certain', evidence: [] };
      // Not known whether it is set and not empty: bash may expand the word, its substitutions run.
      if (part.arg) expandScalar(part.arg, st, hooks);
      return { value: HOLE, confidence: 'possible', evidence: [] };
    }
    case ':?':
    case '?':
      if (known) return known;
      return { value: HOLE, confidence: 'possible', evidence: note(`$${part.name} is not set by the command`) };
    default: {
      // Pattern removal, substitution, case changes, length: computed when value and pattern are known.
      if (isSet && known) {
        const pat = part.arg ? expandScalar(part.arg, st, hooks) : { value: '', confidence: 'certain' as Confidence, evidence: [] };
        if (!pat.value.includes(HOLE)) {
          const r = patternOp(op, known.value, pat.value);
          if (r !== null) return { value: r, confidence: weakest(known.confidence, pat.confidence), evidence: known.evidence };
        }
      }
      // Set, with a value not known statically: bash expands the word (its substitutions run).
      else if (known !== null && part.arg) expandScalar(part.arg, st, hooks);
      return { value: HOLE, confidence: 'possible', evidence: note(`\${${part.name}${op}...} cannot be computed statically`) };
    }
  }
}

// ---------------------------------------------------------------- brace expansion

/** Bash brace expansion over marked text, bounded to `max` results. */
/** Characters brace expansion may scan for one word; nested unexpandable braces cost O(n²). */
export const MAX_BRACE_WORK = 2_000_000;

export function braceExpand(s: string, max: number): { words: string[]; truncated: boolean } {
  let truncated = false;
  const work = { left: MAX_BRACE_WORK };
  const expand = (str: string, budget: number): string[] => {
    const found = findBrace(str, work);
    if (found === 'exhausted') {
      truncated = true;
      return [str];
    }
    if (!found) return [str];
    const { open, close, alternatives } = found;
    const pre = str.slice(0, open);
    const post = str.slice(close + 1);
    const out: string[] = [];
    const postExpanded = expand(post, budget);
    for (const alt of alternatives) {
      for (const a of expand(alt, budget)) {
        for (const p of postExpanded) {
          if (out.length >= budget) {
            truncated = true;
            return out;
          }
          out.push(pre + a + p);
        }
      }
    }
    return out;
  };
  const words = expand(s, max);
  return { words, truncated };
}

/** Finds the first expandable `{...}`: one with a top-level comma, or a sequence `{a..b[..n]}`. */
function findBrace(s: string, work: { left: number }): { open: number; close: number; alternatives: string[] } | null | 'exhausted' {
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== B_OPEN) continue;
    let depth = 0;
    const commas: number[] = [];
    for (let j = i; j < s.length; j++) {
      if (--work.left < 0) return 'exhausted';
      const c = s[j];
      if (c === B_OPEN) depth++;
      else if (c === B_CLOSE) {
        depth--;
        if (depth === 0) {
          const inner = s.slice(i + 1, j);
          if (commas.length > 0) {
            const alts: string[] = [];
            let last = i + 1;
            for (const k of commas) {
              alts.push(s.slice(last, k));
              last = k + 1;
            }
            alts.push(s.slice(last, j));
            return { open: i, close: j, alternatives: alts };
          }
          const seq = sequence(inner);
          if (seq) return { open: i, close: j, alternatives: seq };
          break;
        }
      } else if (c === B_COMMA && depth === 1) commas.push(j);
    }
  }
  return null;
}

const SEQ_LIMIT = MAX_FIELDS + 1;

function sequence(inner: string): string[] | null {
  const num = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
  if (num) {
    const a = Number(num[1]);
    const b = Number(num[2]);
    const step = Math.abs(Number(num[3] ?? 1)) || 1;
    const width = /^-?0\d/.test(num[1]!) || /^-?0\d/.test(num[2]!) ? Math.max(num[1]!.length, num[2]!.length) : 0;
    const out: string[] = [];
    const dir = a <= b ? 1 : -1;
    for (let v = a; dir > 0 ? v <= b : v >= b; v += dir * step) {
      out.push(width ? String(Math.abs(v)).padStart(width - (v < 0 ? 1 : 0), '0').replace(/^/, v < 0 ? '-' : '') : String(v));
      if (out.length >= SEQ_LIMIT) break;
    }
    return out;
  }
  const chr = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/.exec(inner);
  if (chr) {
    const a = chr[1]!.charCodeAt(0);
    const b = chr[2]!.charCodeAt(0);
    const step = Math.abs(Number(chr[3] ?? 1)) || 1;
    const out: string[] = [];
    const dir = a <= b ? 1 : -1;
    for (let v = a; dir > 0 ? v <= b : v >= b; v += dir * step) out.push(String.fromCharCode(v));
    return out;
  }
  return null;
}

/**
 * How sure a path with holes or globs is: certain with none; likely when they only affect the
 * last component (the directory is known); possible when they reach into the directory part.
 */
export function holeConfidence(path: string, glob: boolean): Confidence {
  const firstUnknown = firstUnknownIndex(path, glob);
  if (firstUnknown < 0) return 'certain';
  const lastSlash = path.lastIndexOf('/');
  return firstUnknown > lastSlash && lastSlash >= 0 ? 'likely' : 'possible';
}

export function firstUnknownIndex(path: string, glob: boolean): number {
  const h = path.indexOf(HOLE);
  if (!glob) return h;
  const g = path.search(/[*?[]/);
  if (h < 0) return g;
  if (g < 0) return h;
  return Math.min(h, g);
}

/** A bash glob pattern (`*`, `?`, `[...]`) as an anchored-free regex source. */
function globSource(pattern: string, greedy: boolean): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) out += escapeRe(pattern[++i]!);
    else if (c === '*') out += greedy ? '[\\s\\S]*' : '[\\s\\S]*?';
    else if (c === '?') out += '[\\s\\S]';
    else if (c === '[') {
      const j = pattern.indexOf(']', i + 2);
      if (j < 0) out += '\\[';
      else {
        out += '[' + pattern.slice(i + 1, j).replace(/^!/, '^').replace(/\\/g, '\\\\') + ']';
        i = j;
      }
    } else out += escapeRe(c);
  }
  return out;
}

function escapeRe(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** `${X#p}`, `${X%%p}`, `${X/p/r}`, `${#X}`, `${X^^}` ... on a known value; null when not modelled. */
export function patternOp(op: string, value: string, arg: string): string | null {
  try {
    switch (op) {
      case '#':
      case '##': {
        const m = new RegExp('^(?:' + globSource(arg, op === '##') + ')').exec(value);
        return m ? value.slice(m[0].length) : value;
      }
      case '%':
      case '%%': {
        // Shortest suffix: try from the end; longest: from the start.
        const re = new RegExp('^(?:' + globSource(arg, true) + ')$');
        if (op === '%') {
          for (let i = value.length; i >= 0; i--) if (re.test(value.slice(i))) return value.slice(0, i);
        } else {
          for (let i = 0; i <= value.length; i++) if (re.test(value.slice(i))) return value.slice(0, i);
        }
        return value;
      }
      case '/':
      case '//':
      case '/#':
      case '/%': {
        // arg is `pattern/replacement` (the grammar keeps the separator in the argument text).
        const slash = arg.search(/(?<!\\)\//);
        const pattern = slash < 0 ? arg : arg.slice(0, slash);
        const repl = slash < 0 ? '' : arg.slice(slash + 1);
        if (pattern === '') return value;
        const src = globSource(pattern, true);
        const re = op === '/#' ? new RegExp('^(?:' + src + ')') : op === '/%' ? new RegExp('(?:' + src + ')$') : new RegExp(src, op === '//' ? 'g' : '');
        return value.replace(re, () => repl);
      }
      case '^^':
        return value.toUpperCase();
      case ',,':
        return value.toLowerCase();
      case '^':
        return value.charAt(0).toUpperCase() + value.slice(1);
      case ',':
        return value.charAt(0).toLowerCase() + value.slice(1);
      default:
        return null;
    }
  } catch {
    return null;
  }
}

/** What `"$*"` and `"${a[*]}"` join the elements with: the first character of IFS (bash does not take IFS from the environment). */
function starSeparator(st: State): string {
  const v = st.vars.get('IFS');
  if (!v || v.fromEnvironment) return ' ';
  return v.value.includes(HOLE) ? HOLE : v.value.charAt(0);
}

/** The characters unquoted expansions split on: $IFS when the script set it (known), else space, tab, newline. */
export function ifsOf(st: State): string | null {
  const v = st.vars.get('IFS');
  if (!v || v.fromEnvironment || v.value.includes(HOLE)) return null;
  return v.value;
}
