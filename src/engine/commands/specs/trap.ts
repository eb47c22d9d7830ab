import { HOLE } from '../../effects/types.js';
import { displayPath } from '../../shell/paths.js';
import { type Example, command } from '../spec.js';

export default command({
  names: ['trap'],
  build: () => undefined,
  shell(inv, sh) {
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
      sh.dynamicProblem('trap sets a handler that cannot be known statically', displayPath(code.value), inv.range);
      return true;
    }
    for (const s of signals) {
      const sig = s === '0' ? 'EXIT' : s;
      if (sig === 'EXIT') inv.st.extras.traps.set('EXIT', [{ code: code.value, range: inv.range }]);
      // Any other handler may run at any point after this: analyze it here, in a copy of the shell.
      // ERR, DEBUG and RETURN run on what the script itself does; a signal's handler only if the
      // signal comes, which nothing here decides: what it writes is possible.
      else if (sig === 'ERR' || sig === 'DEBUG' || sig === 'RETURN') sh.runTrap(code.value, inv.st, inv.range, `trap ${sig}`, false);
      else sh.possibly(() => sh.runTrap(code.value, inv.st, inv.range, `trap ${sig}`, false));
    }
    return true;
  },
  shellPrints: true,
});

export const examples: readonly Example[] = [
  ['trap "rm -f ../../x" EXIT', 'deny'],
  ['trap "rm -f build/tmp" INT', 'allow'],
  ['trap "rm -f ../../x" INT', 'ask'],
];
