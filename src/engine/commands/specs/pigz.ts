/** gzip's command line, in parallel (pigz --help): each operand is replaced by its .gz (its original with -d). */
import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['pigz', 'unpigz'],
  build: () => writes({ grammar: { short: 'AbCIJpS', long: ['alias', 'blocksize', 'comment', 'iterations', 'maxsplits', 'processes', 'suffix'] }, operands: 'each', op: 'modify', replaces: true, noWriteFlags: ['-c', '--stdout', '-l', '--list', '-t', '--test'], subtreeFlags: ['-r', '--recursive'] }),
});

export const examples: readonly Example[] = [
  ['pigz ../../x', 'deny'],
  ['pigz -c ../../x', 'allow'],
  ['unpigz x.gz', 'allow'],
];
