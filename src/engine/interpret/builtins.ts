import { HOLE } from '../effects/types.js';
import type { Field } from './expand.js';
import type { BuiltinHost, Invocation } from '../commands/context.js';
import { evaluateTest } from '../shell/conditions.js';
import { displayPath } from '../shell/paths.js';
import { formatPrintf } from './printf.js';
import { parseSet, parseShopt } from './option-parse.js';
import type { CwdValue } from '../shell/state.js';
import { optionChange, setShellOption, SET_LETTERS } from '../shell/shell-options.js';

/**
 * Which bash names are not command-table entries: keywords (syntax: the parser and the IR
 * builder handle them) and builtins whose behaviour belongs to the interpreter because they
 * change how later commands are read or run (aliases, the command hash, traps, shell options).
 * Every other builtin has an entry in src/engine/commands/specs/; test/system/engine/closed-world.test.ts checks
 * the three sets cover `bash -c 'compgen -b -k'`.
 *
 * `BUILTINS` below holds the interpreter's handlers: the builtins it owns, plus refinements of
 * table builtins whose effect is on the shell state the interpreter tracks (exit status for
 * `test`/`[`/`true`/`false`, values for `read`/`mapfile`/`printf -v`/`set --`/`shift`, the
 * directory stack for `pushd +N`/`popd +N`). A refinement that returns false leaves the command
 * to its table entry.
 */
export const SHELL_KEYWORDS: readonly string[] = ['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', '{', '}', '!', '[[', ']]', 'coproc'];

export const INTERPRETER_BUILTINS: readonly string[] = ['alias', 'unalias', 'hash', 'trap', 'shopt'];

/** Table builtins whose handler here runs first (see above). */
export const INTERPRETER_REFINES: readonly string[] = [':', 'true', 'false', '[', 'test', 'read', 'mapfile', 'readarray', 'printf', 'pushd', 'popd', 'set', 'shift', 'let', 'getopts', 'break', 'continue'];

/** Handles the builtin; false hands it to the command table (whose entry models it). */
type Builtin = (inv: Invocation, interp: BuiltinHost) => boolean;

/** Changes nothing on disk and nothing the analysis tracks. */
const inert: Builtin = () => true;

const status = (value: boolean): Builtin => (_inv, interp) => {
  interp.status = value;
  return true;
};

/** `break [N]`, `continue [N]`: a count not known statically leaves the path as it is (it goes on: more is analyzed, not less). */
const loopJump = (kind: 'break' | 'continue'): Builtin => (inv, interp) => {
  const n = inv.args.length === 0 ? 1 : /^[1-9]\d*$/.test(inv.args[0]!.value) ? Number(inv.args[0]!.value) : null;
  if (n !== null) interp.loopJump(inv.st, kind, n);
  return true;
};

const test: Builtin = (inv, interp) => {
  let args = inv.args;
  if (inv.name === '[') {
    if (args[args.length - 1]?.value !== ']') return true;
    args = args.slice(0, -1);
  }
  interp.status = evaluateTest(args, interp.testContext(inv.st, false));
  return true;
};

/** Words of a known stdin line, split on IFS whitespace (`read a b`), backslashes processed unless -r. */
function readLine(text: string, delim: string, raw: boolean): { line: string; found: boolean } {
  const i = delim === '' ? text.indexOf('\0') : text.indexOf(delim);
  let line = i >= 0 ? text.slice(0, i) : text;
  const found = i >= 0 || line.length > 0;
  if (!raw) line = line.replace(/\\(.)/g, '$1').replace(/\\$/, '');
  return { line, found };
}

const read: Builtin = (inv, interp) => {
  const names: string[] = [];
  let arrayName: string | null = null;
  let delim = '\n';
  let raw = false;
  const args = inv.args;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!.value;
    if (a === '--') {
      names.push(...args.slice(i + 1).map((f) => f.value));
      break;
    }
    if (/^-[A-Za-z]/.test(a)) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === 'r') raw = true;
        else if ('adinNptu'.includes(c)) {
          const v = a.slice(j + 1) || args[++i]?.value || '';
          if (c === 'a') arrayName = v;
          if (c === 'd') delim = v.charAt(0);
          // Another descriptor, or a count of characters: not modelled.
          if (c === 'u' || c === 'n' || c === 'N') delim = '\0unknown';
          break;
        }
      }
      continue;
    }
    names.push(a);
  }
  const targets = names.length > 0 || arrayName ? names : ['REPLY'];
  const s = inv.stdin;
  const note = { range: inv.range, note: '' };
  if (s.kind !== 'text' || !s.known || delim === '\0unknown' || interp.readsUnknown || args.some((f) => f.value.includes(HOLE))) {
    for (const n of [...targets, ...(arrayName ? [arrayName] : [])]) {
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) interp.setVar(inv.st, n, HOLE, 'possible', [{ ...note, note: `${n} is read from input` }]);
    }
    interp.status = null;
    return true;
  }
  const { line, found } = readLine(s.text, delim, raw);
  const ev = (n: string, v: string) => [{ ...note, note: `${n}=${displayPath(v)} read from known input` }];
  if (arrayName) {
    const words = line.split(/[ \t\n]+/).filter(Boolean);
    interp.setArray(inv.st, arrayName, { assoc: false, entries: words.map((w, i) => [String(i), w]), partial: false }, 'likely', ev(arrayName, words.join(' ')));
  } else if (targets.length === 1 && targets[0] === 'REPLY' && names.length === 0) {
    interp.setVar(inv.st, 'REPLY', line, 'likely', ev('REPLY', line));
  } else {
    // The last name takes the rest of the line; leading and trailing IFS whitespace go.
    let rest = line.replace(/^[ \t\n]+/, '');
    targets.forEach((n, i) => {
      let v: string;
      if (i === targets.length - 1) v = rest.replace(/[ \t\n]+$/, '');
      else {
        const m = /^([^ \t\n]*)[ \t\n]*/.exec(rest)!;
        v = m[1]!;
        rest = rest.slice(m[0].length);
      }
      interp.setVar(inv.st, n, v, 'likely', ev(n, v));
    });
  }
  interp.status = found;
  return true;
};

const mapfile: Builtin = (inv, interp) => {
  let trim = false;
  let delim = '\n';
  let name = 'MAPFILE';
  let unsupported = false;
  const args = inv.args;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!.value;
    if (/^-[A-Za-z]/.test(a)) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === 't') trim = true;
        else if ('dnOsuCc'.includes(c)) {
          const v = a.slice(j + 1) || args[++i]?.value || '';
          if (c === 'd') delim = v.charAt(0) || '\0';
          else unsupported = true;
          break;
        }
      }
    } else name = a;
  }
  const s = inv.stdin;
  if (s.kind !== 'text' || !s.known || unsupported || interp.readsUnknown || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) interp.setArray(inv.st, name, { assoc: false, entries: [], partial: true }, 'possible', [{ range: inv.range, note: `${name} is read from input` }]);
    return true;
  }
  const pieces: string[] = [];
  let text = s.text;
  while (text.length > 0) {
    const i = text.indexOf(delim);
    const piece = i >= 0 ? text.slice(0, i + 1) : text;
    text = i >= 0 ? text.slice(i + 1) : '';
    pieces.push(trim && piece.endsWith(delim) ? piece.slice(0, -1) : piece);
  }
  interp.setArray(inv.st, name, { assoc: false, entries: pieces.map((p, i) => [String(i), p]), partial: false }, 'likely', [{ range: inv.range, note: `${name} read from known input (${pieces.length} lines)` }]);
  return true;
};

const printf: Builtin = (inv, interp) => {
  let args = inv.args;
  let target: string | null = null;
  if (args[0]?.value === '-v' && args[1]) {
    target = args[1].value;
    args = args.slice(2);
  }
  if (args[0]?.value === '--') args = args.slice(1);
  const fmt = args[0];
  const out = fmt ? formatPrintf(fmt.value, args.slice(1).map((a) => a.value)) : '';
  if (target === null) {
    interp.emitOutput(out);
    return true;
  }
  const conf = [fmt, ...args].reduce<'certain' | 'likely' | 'possible'>((c, f) => (f && f.confidence === 'possible' ? 'possible' : c), 'likely');
  const sub = /^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$/.exec(target);
  const ev = [...(args[1]?.evidence ?? []), { range: inv.range, note: `${target}=${displayPath(out)} set by printf -v` }];
  if (sub) interp.assignVariable(inv.st, { name: target, append: false, value: null, unknownValue: false, range: inv.range }, { value: out, confidence: conf, evidence: ev, glob: false }, {});
  else interp.setVar(inv.st, target, out, out.includes(HOLE) ? 'possible' : conf, ev);
  return true;
};

/** The directory stack as `dirs` prints it: the cwd first, then the most recent push. */
function dirsList(st: Invocation['st']): CwdValue[] {
  return [st.cwd, ...st.dirStack.slice().reverse()];
}

function setDirs(inv: Invocation, interp: BuiltinHost, list: CwdValue[], label: string): void {
  inv.st.dirStack = list.slice(1).reverse();
  if (list[0] !== inv.st.cwd) interp.setCwd(inv.st, { ...list[0]!, changed: true }, inv.range, label);
}

/** `pushd +N` / `pushd -N` rotate the stack; `popd +N` / `popd -N` remove an entry. */
function stackIndex(arg: string, length: number): number | null {
  const m = /^([+-])(\d+)$/.exec(arg);
  if (!m) return null;
  const n = Number(m[2]);
  const i = m[1] === '+' ? n : length - 1 - n;
  return i >= 0 && i < length ? i : -1;
}

const pushd: Builtin = (inv, interp) => {
  const args = inv.args.filter((a) => a.value !== '-n');
  const t = args[0];
  if (!t || !/^[+-]\d+$/.test(t.value)) return false;
  const list = dirsList(inv.st);
  const i = stackIndex(t.value, list.length);
  if (i === null || i < 0) return true; // out of range: bash refuses, nothing moves
  if (args.length !== inv.args.length) return true; // -n: no rotation of the cwd
  setDirs(inv, interp, [...list.slice(i), ...list.slice(0, i)], `pushd ${t.value}`);
  return true;
};

const popd: Builtin = (inv, interp) => {
  const args = inv.args.filter((a) => a.value !== '-n');
  const t = args[0];
  if (!t || !/^[+-]\d+$/.test(t.value)) return false;
  const list = dirsList(inv.st);
  const i = stackIndex(t.value, list.length);
  if (i === null || i < 0) return true;
  if (i === 0 && args.length !== inv.args.length) {
    inv.st.dirStack = list.slice(2).reverse();
    return true;
  }
  const rest = [...list.slice(0, i), ...list.slice(i + 1)];
  if (rest.length === 0) return true;
  setDirs(inv, interp, rest, `popd ${t.value}`);
  return true;
};

const trap: Builtin = (inv, interp) => {
  let args = inv.args;
  if (args.some((a) => /^-[lp]+$/.test(a.value))) return true;
  if (args[0]?.value === '--') args = args.slice(1);
  if (args.length < 2) return true; // `trap SIG` resets; `trap` alone lists
  const code = args[0]!;
  const signals = args.slice(1).map((a) => a.value.toUpperCase().replace(/^SIG/, ''));
  if (code.value === '-' || code.value === '') {
    for (const s of signals) inv.st.extras.traps.delete(s === '0' ? 'EXIT' : s);
    return true;
  }
  if (code.value.includes(HOLE)) {
    interp.dynamicProblem('trap sets a handler that cannot be known statically', displayPath(code.value), inv.range);
    return true;
  }
  for (const s of signals) {
    const sig = s === '0' ? 'EXIT' : s;
    if (sig === 'EXIT') inv.st.extras.traps.set('EXIT', [{ code: code.value, range: inv.range }]);
    // Any other handler may run at any point after this: analyze it here, in a copy of the shell.
    else interp.runTrap(code.value, inv.st, inv.range, `trap ${sig}`, false);
  }
  return true;
};

const hash: Builtin = (inv) => {
  const args = inv.args;
  if (args.some((a) => a.value === '-r')) {
    for (const k of [...inv.st.extras.hashed.keys()]) inv.st.extras.hashed.delete(k);
    return true;
  }
  const p = args.findIndex((a) => a.value === '-p');
  if (p >= 0 && args[p + 1]) {
    for (const n of args.slice(p + 2)) if (!n.value.startsWith('-')) inv.st.extras.hashed.set(n.value, args[p + 1]!.value);
    return true;
  }
  if (args.some((a) => a.value === '-d')) for (const n of args) if (!n.value.startsWith('-')) inv.st.extras.hashed.delete(n.value);
  return true;
};

const alias: Builtin = (inv, interp) => {
  for (const a of inv.args) {
    const eq = a.value.indexOf('=');
    if (eq <= 0 || a.value.startsWith('-')) continue;
    const name = a.value.slice(0, eq);
    inv.st.extras.aliases.set(name, { text: a.value.slice(eq + 1), ...interp.sourceLine(inv.range) });
  }
  return true;
};

const unalias: Builtin = (inv) => {
  if (inv.args.some((a) => a.value === '-a')) for (const k of [...inv.st.extras.aliases.keys()]) inv.st.extras.aliases.delete(k);
  else for (const a of inv.args) inv.st.extras.aliases.delete(a.value);
  return true;
};

const shopt: Builtin = (inv, interp) => {
  const { on, setO, names } = parseShopt(inv.args.map((a) => a.value));
  if (on === null) return true;
  if (!setO && names.includes('expand_aliases')) inv.st.extras.expandAliases = on ? interp.sourceLine(inv.range) : null;
  for (const name of names) changeOption(inv, interp, name, on, !setO);
  return true;
};

/** Keeps an option that changes resolution, or reports that the result is no longer known. */
function changeOption(inv: Invocation, interp: BuiltinHost, name: string, on: boolean, isShopt: boolean): void {
  if (name.includes(HOLE)) {
    interp.dynamicProblem(`${isShopt ? 'shopt' : 'set'} changes an option not known statically, which may change how paths resolve`, inv.shown, inv.range);
    return;
  }
  const r = optionChange(name, on, isShopt);
  if (r === null) return;
  if ('unknown' in r) interp.dynamicProblem(r.unknown, `${inv.shown} ${inv.args.map((a) => displayPath(a.value)).join(' ')}`, inv.range);
  else setShellOption(inv.st, name, r.keep);
}

/** `set -- a b`: the positional parameters; `set -P`, `set -o physical` ...: options (src/engine/shell/shell-options.ts). */
const set: Builtin = (inv, interp) => {
  const args = inv.args;
  const { changes, positional } = parseSet(args.map((a) => a.value));
  for (const c of changes) {
    const name = c.name ?? SET_LETTERS[c.letter!];
    if (name) changeOption(inv, interp, name, c.on, false);
  }
  if (positional !== null) interp.setPositional(inv.st, args.slice(positional));
  return true;
};

const shift: Builtin = (inv, interp) => {
  const n = inv.args[0] ? Number(inv.args[0].value) : 1;
  const all = inv.st.pos.get('@')?.array;
  if (!all || all.partial || !Number.isInteger(n)) {
    interp.setPositional(inv.st, null);
    return true;
  }
  const values = all.entries.slice(n).map(([, v]): Field => ({ value: v, confidence: 'likely', evidence: [], glob: false }));
  interp.setPositional(inv.st, values);
  return true;
};

/** `getopts OPTS NAME`, `let x=...`: the variable's value is computed at run time. */
const unknownVars = (names: (inv: Invocation) => string[]): Builtin => (inv, interp) => {
  for (const n of names(inv)) {
    const name = n.replace(/[+\-*/%^&|<>!]?=[\s\S]*$/, '').replace(/(\+\+|--)$/, '');
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) interp.setVar(inv.st, name, HOLE, 'possible', [{ range: inv.range, note: `${name} is computed when the command runs` }]);
  }
  return true;
};




/** `coproc cmd args`: runs cmd asynchronously in a subshell. */
const coproc: Builtin = (inv, interp) => {
  const words = inv.args;
  const first = words[0]?.value;
  const second = words[1]?.value;
  if (first === '{' || first === '(' || second === '{' || second === '(') {
    // `coproc NAME { ...; }`: a compound body the parser does not build; its parts were read as
    // separate commands, so the body's cwd changes are not known to stay inside it.
    interp.limitProblem('coproc with a compound body is not analyzed', `coproc ${words.map((w) => displayPath(w.value)).join(' ')}`, inv.range);
    const rest = words.slice(first === '{' || first === '(' ? 1 : 2);
    if (rest.length > 0) interp.runBackground(rest, inv);
    return true;
  }
  if (words.length > 0) interp.runBackground(words, inv);
  return true;
};

export const BUILTINS: Record<string, Builtin> = {
  // Owned by the interpreter (INTERPRETER_BUILTINS).
  alias,
  unalias,
  hash,
  trap,
  shopt,
  // Refinements of table builtins (INTERPRETER_REFINES).
  ':': status(true),
  true: status(true),
  false: status(false),
  '[': test,
  test,
  read,
  mapfile,
  readarray: mapfile,
  printf,
  pushd,
  popd,
  set,
  shift,
  let: unknownVars((inv) => inv.args.map((a) => a.value)),
  getopts: unknownVars((inv) => inv.args.slice(1, 2).map((a) => a.value)),
  break: loopJump('break'),
  continue: loopJump('continue'),
  // Reserved words reach the interpreter as commands only when the parser split a construct it
  // does not build (`coproc NAME { ...; }`): the closing word itself does nothing.
  if: inert, then: inert, else: inert, elif: inert, fi: inert, case: inert, esac: inert, for: inert, select: inert,
  while: inert, until: inert, do: inert, done: inert, in: inert, function: inert, '{': inert, '}': inert, '!': inert,
  '[[': inert, ']]': inert,
  coproc,
};
