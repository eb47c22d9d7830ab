import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['shuf'],
  build: () => writes({ grammar: { short: 'inoe', long: ['input-range', 'head-count', 'output', 'random-source'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write', '--output': 'write' } }),
});

export const examples: readonly Example[] = [
  ['shuf -o ../../x y', 'deny'],
  ['shuf ../../README.md', 'allow'],
];
