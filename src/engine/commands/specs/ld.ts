import { type Example, command } from '../spec.js';
import { singleDashOutputs } from '../kinds.js';

export default command({
  names: ['ld'],
  build: () => singleDashOutputs({ '-o': 'write', '--output': 'write' }),
});

export const examples: readonly Example[] = [
  ['ld -o ../../a x.o', 'deny'],
  ['ld -o a x.o', 'allow'],
];
