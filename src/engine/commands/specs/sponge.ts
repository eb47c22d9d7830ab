import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['sponge'],
  build: () => writes({ grammar: {}, operands: 'each', op: 'write', flagOps: { '-a': 'append' } }),
});

export const examples: readonly Example[] = [
  ['sort x | sponge ../../x', 'deny'],
  ['sort x | sponge x', 'allow'],
];
