import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['touch'],
  build: () => writes({ grammar: { short: 'rdt', long: ['reference', 'date', 'time'], flags: 'acfhm' }, operands: 'each', op: 'create' }),
});

export const examples: readonly Example[] = [
  ['touch ../../x', 'deny'],
  ['touch x', 'allow'],
  ['touch --no-create=../../x y', 'ask'],
  ['touch --help ../../x', 'allow'],
];
