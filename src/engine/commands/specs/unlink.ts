import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['unlink'],
  build: () => writes({ grammar: {}, operands: 'each', op: 'delete' }),
});

export const examples: readonly Example[] = [
  ['unlink ../../x', 'deny'],
  ['unlink x', 'allow'],
];
