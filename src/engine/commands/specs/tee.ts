import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['tee'],
  build: () => writes({ grammar: { long: ['output-error'], flags: 'aip' }, operands: 'each', op: 'write', flagOps: { '-a': 'append', '--append': 'append' } }),
});

export const examples: readonly Example[] = [
  ['echo x | tee ../../x', 'deny'],
  ['echo x | tee x', 'allow'],
];
