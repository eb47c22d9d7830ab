import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['tree'],
  build: () => writes({ grammar: { short: 'LPIo', long: ['filelimit', 'timefmt', 'sort', 'charset', 'prune'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write' } }),
});

export const examples: readonly Example[] = [
  ['tree -o ../../t.txt', 'deny'],
  ['tree ../..', 'allow'],
];
