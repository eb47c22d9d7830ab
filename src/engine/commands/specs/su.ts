import { type Example, command } from '../spec.js';
import { commandString } from '../kinds.js';

export default command({
  names: ['su'],
  build: () => commandString({ short: 'cgGs', long: ['command', 'group', 'supp-group', 'shell'] }, '-c', false),
});

export const examples: readonly Example[] = [
  ['su -c \'touch ../../x\' dev', 'deny'],
  ['su -c \'touch x\' dev', 'allow'],
];
