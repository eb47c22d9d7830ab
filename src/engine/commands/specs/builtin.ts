import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['builtin'],
  build: () => wrapper({ grammar: {}, inShell: true }),
});

export const examples: readonly Example[] = [
  ['builtin cd ../.. && touch x', 'deny'],
  ['builtin cd build', 'allow'],
];
