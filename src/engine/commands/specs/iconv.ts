import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['iconv'],
  build: () => writes({ grammar: { short: 'fto', long: ['from-code', 'to-code', 'output'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write', '--output': 'write' } }),
});

export const examples: readonly Example[] = [
  ['iconv -f latin1 -t utf8 -o ../../x y', 'deny'],
  ['iconv -f latin1 -t utf8 ../../README.md', 'allow'],
];
