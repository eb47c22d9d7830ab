import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['brotli'],
  build: () => writes({ grammar: { short: 'oqwS', long: ['output', 'quality', 'lgwin', 'suffix'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write', '--output': 'write' } }),
});

export const examples: readonly Example[] = [
  ['brotli -o ../../x.br x', 'deny'],
  ['brotli -o x.br x', 'allow'],
];
