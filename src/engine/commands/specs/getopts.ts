import { HOLE } from '../../effects/types.js';
import { type Example, command } from '../spec.js';
import { printingBuiltin } from '../kinds.js';

export default command({
  names: ['getopts'],
  build: () => printingBuiltin,
  /** `getopts OPTS NAME`: NAME's value is computed at run time. */
  shell(inv, sh) {
    const arg = inv.args[1]?.value;
    const name = arg?.replace(/[+\-*/%^&|<>!]?=[\s\S]*$/, '').replace(/(\+\+|--)$/, '');
    if (name !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) sh.setVar(inv.st, name, HOLE, 'possible', [{ range: inv.range, note: `${name} is computed when the command runs` }]);
    return true;
  },
});

export const examples: readonly Example[] = [
  ['getopts ab opt ../../README.md', 'allow'],
];
