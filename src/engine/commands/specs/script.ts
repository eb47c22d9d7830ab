import { type Example, command } from '../spec.js';
import { commandString } from '../kinds.js';

export default command({
  names: ['script'],
  build: () => commandString({ short: 'cEIOBT', long: ['command', 'echo', 'log-in', 'log-out', 'log-io', 'log-timing'] }, '-c', false),
});

export const examples: readonly Example[] = [
  ['script -c \'touch ../../x\' /dev/null', 'deny'],
  ['script -qc \'ls\' /dev/null', 'allow'],
];
