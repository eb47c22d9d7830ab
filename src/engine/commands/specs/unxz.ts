import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['unxz'],
  build: () => writes({ grammar: {}, operands: 'each', op: 'modify', replaces: true, noWriteFlags: ['-c', '--stdout', '-l', '--list', '-t', '--test'] }),
});

export const examples: readonly Example[] = [
  ['unxz ../../x.xz', 'deny'],
  ['unxz x.xz', 'allow'],
];
