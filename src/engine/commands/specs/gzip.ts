import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['gzip', 'gunzip'],
  build: () => writes({ grammar: { short: 'S', long: ['suffix'] }, operands: 'each', op: 'modify', noWriteFlags: ['-c', '--stdout', '-l', '--list', '-t', '--test'] }),
});

export const examples: readonly Example[] = [
  ['gzip ../../x', 'deny'],
  ['gzip -c ../../x', 'allow'],
  ['gunzip x.gz', 'allow'],
];
