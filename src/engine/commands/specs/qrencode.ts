import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['qrencode'],
  build: () => writes({ grammar: { short: 'osltvdrm', long: ['output', 'size', 'level', 'type'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write', '--output': 'write' } }),
});

export const examples: readonly Example[] = [
  ['qrencode -o ../../q.png x', 'deny'],
  ['qrencode -o q.png x', 'allow'],
];
