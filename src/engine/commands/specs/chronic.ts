import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['chronic'],
  build: () => wrapper({ grammar: {} }),
});

export const examples: readonly Example[] = [
  ['chronic touch ../../x', 'deny'],
  ['chronic touch x', 'allow'],
];
