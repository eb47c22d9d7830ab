import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['caffeinate'],
  build: () => wrapper({ grammar: { short: 'tw' } }),
});

export const examples: readonly Example[] = [
  ['caffeinate -t 5 touch ../../x', 'deny'],
  ['caffeinate touch x', 'allow'],
];
