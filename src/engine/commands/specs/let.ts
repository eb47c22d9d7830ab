import { HOLE } from '../../effects/types.js';
import { type Example, command } from '../spec.js';
import { silentBuiltin } from '../kinds.js';

export default command({
  names: ['let'],
  build: () => silentBuiltin,
  /** `let x=...`: the variable's value is computed at run time. */
  shell(inv, sh) {
    for (const a of inv.args) {
      sh.arithmetic?.(a.value, inv.st, inv.range, 'value');
      const name = a.value.replace(/[+\-*/%^&|<>!]?=[\s\S]*$/, '').replace(/(\+\+|--)$/, '');
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) sh.setVar(inv.st, name, HOLE, 'possible', [{ range: inv.range, note: `${name} is computed when the command runs` }]);
    }
    return true;
  },
});

export const examples: readonly Example[] = [
  ['let n=1+1', 'allow'],
  ['x=\'a[$(touch ../../x)]\'; let n=x+1', 'deny'],
  ['x=\'a[$(touch x)]\'; let n=x+1', 'allow'],
];
