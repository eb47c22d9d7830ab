import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['shred'],
  build: () => writes({ grammar: { short: 'ns', long: ['iterations', 'size', 'random-source'] }, operands: 'each', op: 'modify' }),
});

export const examples: readonly Example[] = [
  ['shred ../../x', 'deny'],
  ['shred x', 'allow'],
];
