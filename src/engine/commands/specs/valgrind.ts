import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['valgrind'],
  build: () => wrapper({ grammar: {} }),
});

export const examples: readonly Example[] = [
  ['valgrind touch ../../x', 'deny'],
  ['valgrind touch x', 'allow'],
];
