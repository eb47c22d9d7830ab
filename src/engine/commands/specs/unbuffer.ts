import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['unbuffer'],
  build: () => wrapper({ grammar: {} }),
});

export const examples: readonly Example[] = [
  ['unbuffer touch ../../x', 'deny'],
  ['unbuffer touch x', 'allow'],
];
