import { type Example, command } from '../spec.js';
import { commandString } from '../kinds.js';

export default command({
  names: ['watch'],
  build: () => commandString({ short: 'nqd', long: ['interval', 'differences', 'equexit'] }, null, true),
});

export const examples: readonly Example[] = [
  ['watch \'touch ../../x\'', 'deny'],
  ['watch ls', 'allow'],
];
