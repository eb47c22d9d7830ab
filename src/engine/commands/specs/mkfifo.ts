import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['mkfifo'],
  build: () => writes({ grammar: { short: 'mZ', long: ['mode', 'context'] }, operands: 'each', op: 'create' }),
});

export const examples: readonly Example[] = [
  ['mkfifo ../../p', 'deny'],
  ['mkfifo p', 'allow'],
];
