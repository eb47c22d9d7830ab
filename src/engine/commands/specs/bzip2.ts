import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['bzip2', 'bunzip2'],
  build: () => writes({ grammar: {}, operands: 'each', op: 'modify', replaces: true, noWriteFlags: ['-c', '--stdout', '-t', '--test'] }),
});

export const examples: readonly Example[] = [
  ['bzip2 ../../x', 'deny'],
  ['bzip2 -c ../../x', 'allow'],
];
