import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['truncate'],
  build: () => writes({ grammar: { short: 'sr', long: ['size', 'reference'] }, operands: 'each', op: 'modify' }),
});

export const examples: readonly Example[] = [
  ['truncate -s 0 ../../x', 'deny'],
  ['truncate -s 0 x', 'allow'],
];
