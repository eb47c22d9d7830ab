/** An option `set` or `shopt` changes (specs/set.ts, specs/shopt.ts), as the analysis keeps it. */
import { HOLE } from '../effects/types.js';
import { displayPath } from '../shell/paths.js';
import { optionChange, setShellOption } from '../shell/shell-options.js';
import type { BuiltinHost, Invocation } from './context.js';

/** Keeps an option that changes resolution, or reports that the result is no longer known. */
export function changeOption(inv: Invocation, sh: BuiltinHost, name: string, on: boolean, isShopt: boolean): void {
  if (name.includes(HOLE)) {
    sh.dynamicProblem(`${isShopt ? 'shopt' : 'set'} changes an option not known statically, which may change how paths resolve`, inv.shown, inv.range);
    return;
  }
  const r = optionChange(name, on, isShopt);
  if (r === null) return;
  if ('unknown' in r) sh.dynamicProblem(r.unknown, `${inv.shown} ${inv.args.map((a) => displayPath(a.value)).join(' ')}`, inv.range);
  else setShellOption(inv.st, name, r.keep);
}
