import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['taskset'],
  build: () => wrapper({ grammar: {}, skip: 1 }),
});

export const examples: readonly Example[] = [
  ['taskset 1 touch ../../x', 'deny'],
  ['taskset 1 touch x', 'allow'],
];
