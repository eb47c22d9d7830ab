/**
 * Arithmetic evaluation runs code. bash evaluates the value of every variable an expression names
 * as an expression in turn, and expands the subscript of every array reference it meets there, so
 * `x='a[$(touch f)]'; echo $((x))` runs `touch f` (also `(( x ))`, `let`, `for ((;;))`,
 * `[[ x -eq 0 ]]`, `test -v "$x"`, an indexed array's subscript). The substitutions in such a
 * subscript run here as code, from the state the evaluation happens in.
 *
 * A value not known statically is taken to hold no such subscript (docs/limits.md): most unknown
 * values in arithmetic are numbers (`i=$((i+1))`, `$#`, `wc -l`), and the analysis cannot tell
 * them from text; where one is data the agent wrote, the kernel holds what its code does.
 */
import type { Range } from '../syntax/ir.js';
import { HOLE } from '../effects/types.js';
import { getVar, type State } from '../shell/state.js';
import { displayPath } from '../shell/paths.js';
import { mayRunCommandSubstitution } from '../shell/code-text.js';
import { resolveNameref } from './expand.js';
import type { ArithText } from '../commands/context.js';

export interface ArithHost {
  runNested(source: string, st: State, range: Range, label: string): void;
  dynamicProblem(reason: string, text: string, range: Range): void;
  limitProblem(reason: string, text: string, range: Range): void;
}

/**
 * How deep a chain of values naming values is followed (bash gives up at 1024 levels, "expression
 * recursion level exceeded", after running what it met on the way). Chains this deep are
 * contrived; past it the analysis reports a limit instead of dropping what bash would run.
 */
export const MAX_ARITH_DEPTH = 16;
const NAME = /(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*/g;

/**
 * Runs the code that evaluating `text` runs, in it and through the variables it names. `how`:
 * `source` text's own substitutions the analysis runs already, from the IR (an expression or a
 * subscript written in the command); a `value`'s subscripts and a `subscript` given as a value are
 * expanded by bash (their substitutions run, also where the subscript is then refused), so that
 * text is parsed here.
 */
export function arithmeticCode(host: ArithHost, text: string, st: State, range: Range, how: ArithText): void {
  if (how === 'subscript') subscriptText(host, text, st, range, 'an array subscript');
  if (!text.includes('[') && !/[A-Za-z_]/.test(text)) return;
  evaluate({ host, st, range, seen: new Set(), limited: false }, text, how !== 'value', 0);
}

/** One evaluation: `seen` holds the variables already followed (each is evaluated once). */
interface Walk {
  host: ArithHost;
  st: State;
  range: Range;
  seen: Set<string>;
  limited: boolean;
}

function evaluate(w: Walk, text: string, source: boolean, depth: number): void {
  if (!source) {
    for (const sub of subscripts(text)) subscriptText(w.host, sub, w.st, w.range, 'arithmetic evaluation');
  }
  for (const m of text.matchAll(NAME)) {
    const name = resolveNameref(w.st, m[0]);
    if (w.seen.has(name)) continue;
    w.seen.add(name);
    const v = getVar(w.st, name);
    if (!v) continue;
    const values = v.array ? v.array.entries.map((e) => e[1]) : [v.value];
    for (const value of values) {
      if (/^\s*-?\d*\s*$/.test(value)) continue;
      if (depth < MAX_ARITH_DEPTH) evaluate(w, value, false, depth + 1);
      else if (!w.limited) {
        w.limited = true;
        w.host.limitProblem(`arithmetic evaluation follows variables' values more than ${MAX_ARITH_DEPTH} levels deep (at ${name}): what it runs past that is not analyzed`, displayPath(value), w.range);
      }
    }
  }
}

/**
 * A subscript known only as text (a value, or part of one), which bash expands: the substitutions
 * in it run, parsed here. Where part of the text is not known statically, the code around it is
 * not either (a hole may close the substitution and start another command), as for `eval`.
 */
function subscriptText(host: ArithHost, sub: string, st: State, range: Range, label: string): void {
  if (!mayRunCommandSubstitution(sub)) return;
  if (sub.includes(HOLE)) host.dynamicProblem(`${label} runs a command substitution not known statically`, displayPath(sub), range);
  else host.runNested(`: ${sub}`, st, range, label);
}

/** The subscripts of the array references (`name[...]`) in an expression, brackets matched. */
function subscripts(text: string): string[] {
  const out: string[] = [];
  const re = /[A-Za-z_][A-Za-z0-9_]*\[/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    let depth = 1;
    let i = m.index + m[0].length;
    const start = i;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === '[') depth++;
      else if (text[i] === ']') depth--;
    }
    if (depth === 0) out.push(text.slice(start, i - 1));
    // (a subscript inside this one runs when this one is expanded)
    re.lastIndex = i;
  }
  return out;
}

/** Builtins that take variable names as operands, and the option whose value is one where only that is. */
const NAME_TAKERS: ReadonlyMap<string, string | null> = new Map([
  // (`export`, `readonly` and `mapfile` refuse such a name unexpanded: "not a valid identifier")
  ['declare', null], ['typeset', null], ['local', null], ['read', null], ['unset', null], ['printf', '-v'],
]);

/**
 * A variable name given to a builtin as a value (`read 'a[$(cmd)]'`, `declare "a[$(cmd)]=1"`,
 * `unset 'a[$(cmd)]'`, `printf -v 'a[$(cmd)]'`): bash expands its subscript when it sets or
 * unsets the element, so the substitutions in it run then.
 */
export function nameSubscripts(host: ArithHost, name: string, args: readonly { value: string }[], st: State, range: Range): void {
  if (!NAME_TAKERS.has(name)) return;
  const option = NAME_TAKERS.get(name)!;
  for (let i = 0; i < args.length; i++) {
    let v = args[i]!.value;
    if (option !== null) {
      if (v === option) v = args[++i]?.value ?? '';
      else if (v.startsWith(option)) v = v.slice(option.length);
      else continue;
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*\[/.exec(v);
    if (!m) continue;
    const sub = subscripts(v)[0];
    if (sub !== undefined) arithmeticCode(host, sub, st, range, 'subscript');
  }
}
