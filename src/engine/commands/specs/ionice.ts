import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['ionice'],
  build: () => wrapper({ grammar: { short: 'cnpPu', long: ['class', 'classdata', 'pid', 'pgid', 'uid'] } }),
});

export const examples: readonly Example[] = [
  ['ionice -c 3 touch ../../x', 'deny'],
  ['ionice -c 3 touch x', 'allow'],
];
