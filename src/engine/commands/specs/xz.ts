import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['xz'],
  build: () => writes({ grammar: { short: 'STF', long: ['suffix', 'threads', 'format'] }, operands: 'each', op: 'modify', noWriteFlags: ['-c', '--stdout', '-l', '--list', '-t', '--test'] }),
});

export const examples: readonly Example[] = [
  ['xz ../../x', 'deny'],
  ['xz -l ../../x.xz', 'allow'],
];
