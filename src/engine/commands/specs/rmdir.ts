import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['rmdir'],
  build: () => writes({ grammar: {}, operands: 'each', op: 'delete' }),
});

export const examples: readonly Example[] = [
  ['rmdir ../../x', 'deny'],
  ['rmdir build', 'allow'],
];
