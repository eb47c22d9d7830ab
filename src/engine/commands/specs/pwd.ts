import { HOLE } from '../../effects/types.js';
import { type Example, command } from '../spec.js';
import { printingBuiltin } from '../kinds.js';

export default command({
  names: ['pwd'],
  build: () => printingBuiltin,
  output(inv, interp) {
    return (interp.pwd(inv.st) ?? HOLE) + '\n';
  },
});

export const examples: readonly Example[] = [
  ['touch "$(pwd)/../../x"', 'deny'],
  ['touch "$(pwd)/x"', 'allow'],
];
