import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['exec'],
  build: () => wrapper({ grammar: { short: 'a' } }),
});

export const examples: readonly Example[] = [
  ['exec touch ../../x', 'deny'],
  ['exec touch x', 'allow'],
];
