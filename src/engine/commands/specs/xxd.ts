import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['xxd'],
  build: () => writes({ grammar: { short: 'cglosn', long: [] }, operands: 'after-first', op: 'write' }),
});

export const examples: readonly Example[] = [
  ['xxd x ../../y', 'deny'],
  ['xxd ../../README.md', 'allow'],
];
