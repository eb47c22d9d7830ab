import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

// A symlink operand is refused, or with -f read and replaced by NAME.gz beside it: its target is
// never written (gzip(1), checked with GNU gzip 1.12).

export default command({
  names: ['gzip', 'gunzip'],
  build: () => writes({ grammar: { short: 'S', long: ['suffix'] }, operands: 'each', op: 'modify', replaces: true, noWriteFlags: ['-c', '--stdout', '-l', '--list', '-t', '--test'] }),
});

export const examples: readonly Example[] = [
  ['gzip ../../x', 'deny'],
  ['gzip -c ../../x', 'allow'],
  ['gunzip x.gz', 'allow'],
];
