import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['nice'],
  build: () => wrapper({ grammar: { short: 'n', long: ['adjustment'] } }),
});

export const examples: readonly Example[] = [
  ['nice -n 5 touch ../../x', 'deny'],
  ['nice -n 5 touch x', 'allow'],
];
