import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['strace'],
  build: () => wrapper({ grammar: { short: 'abeEIoOpPsSuU', long: ['output'] }, writes: ['-o', '--output'] }),
});

export const examples: readonly Example[] = [
  ['strace -f touch ../../x', 'deny'],
  ['strace -f touch x', 'allow'],
  ['strace -o ../../x true', 'deny'],
  ['strace -o trace.txt true', 'allow'],
];
