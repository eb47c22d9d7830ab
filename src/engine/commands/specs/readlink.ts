import { type Example, command } from '../spec.js';
import { readOnly } from '../kinds.js';
import { realpathOutput } from '../output.js';

export default command({
  names: ['readlink'],
  build: () => readOnly,
  output(inv, interp) {
    return realpathOutput(inv, interp);
  },
});

export const examples: readonly Example[] = [
  ['touch "$(readlink -f ../..)/x"', 'deny'],
  ['readlink ../../x', 'allow'],
];
