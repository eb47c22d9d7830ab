import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['chrt'],
  build: () => wrapper({ grammar: {}, skip: 1 }),
});

export const examples: readonly Example[] = [
  ['chrt 10 touch ../../x', 'deny'],
  ['chrt 10 touch x', 'allow'],
];
