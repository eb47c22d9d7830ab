import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['less'],
  build: () => writes({ grammar: { short: 'oObhjkpPtTxyz', long: ['log-file', 'LOG-FILE', 'tag', 'tag-file'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write', '-O': 'write', '--log-file': 'write', '--LOG-FILE': 'write' } }),
});

export const examples: readonly Example[] = [
  ['less -o ../../log x', 'deny'],
  ['less ../../README.md', 'allow'],
];
