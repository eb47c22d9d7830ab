/** An option `set` or `shopt` changes (specs/set.ts, specs/shopt.ts), as the analysis keeps it. */
import { HOLE } from '../effects/types.js';
import { displayPath } from '../shell/paths.js';
import { optionChange, setShellOption } from '../shell/shell-options.js';
import { getVar } from '../shell/state.js';
import { mayRunCommandSubstitution } from '../shell/code-text.js';
import type { BuiltinHost, Invocation } from './context.js';

/** Keeps an option that changes resolution, or reports that the result is no longer known. */
export function changeOption(inv: Invocation, sh: BuiltinHost, name: string, on: boolean, isShopt: boolean): void {
  if (name.includes(HOLE)) {
    sh.dynamicProblem(`${isShopt ? 'shopt' : 'set'} changes an option not known statically, which may change how paths resolve`, inv.shown, inv.range);
    return;
  }
  // xtrace expands PS4 before every command it traces: its command substitutions run then.
  if (name === 'xtrace' && on) {
    const ps4 = getVar(inv.st, 'PS4');
    if (ps4 && !ps4.fromEnvironment && mayRunCommandSubstitution(ps4.value)) {
      if (ps4.value.includes(HOLE)) sh.dynamicProblem('set -x expands PS4, which is not known statically', inv.shown, inv.range);
      else sh.possibly(() => sh.runTrap(`: ${ps4.value}`, inv.st, inv.range, 'PS4 (set -x)', false));
    }
  }
  const r = optionChange(name, on, isShopt);
  if (r === null) return;
  if ('unknown' in r) sh.dynamicProblem(r.unknown, `${inv.shown} ${inv.args.map((a) => displayPath(a.value)).join(' ')}`, inv.range);
  else setShellOption(inv.st, name, r.keep);
}
