import { type Example, command } from '../spec.js';
import { readOnly } from '../kinds.js';
import { realpathOutput } from '../output.js';

export default command({
  names: ['realpath'],
  build: () => readOnly,
  output(inv, interp) {
    return realpathOutput(inv, interp);
  },
});

export const examples: readonly Example[] = [
  ['touch "$(realpath ../..)/x"', 'deny'],
  ['realpath ../../x', 'allow'],
];
