import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['zstd'],
  build: () => writes({ grammar: { short: 'oD', long: ['output'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write' } }),
});

export const examples: readonly Example[] = [
  ['zstd x -o ../../x.zst', 'deny'],
  ['zstd x -o x.zst', 'allow'],
];
