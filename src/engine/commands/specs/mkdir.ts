import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['mkdir'],
  build: () => writes({ grammar: { short: 'mZ', long: ['mode', 'context'], flags: 'pv' }, operands: 'each', op: 'mkdir' }),
});

export const examples: readonly Example[] = [
  ['mkdir -p ../../x', 'deny'],
  ['mkdir -p build/x', 'allow'],
];
