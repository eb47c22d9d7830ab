import { type Example, command } from '../spec.js';
import { commandString } from '../kinds.js';

export default command({
  names: ['runuser'],
  build: () => commandString({ short: 'ugGc', long: ['user', 'group', 'supp-group', 'command'] }, '-c', true),
});

export const examples: readonly Example[] = [
  ['runuser -u dev -- touch ../../x', 'deny'],
  ['runuser -u dev -- touch x', 'allow'],
];
