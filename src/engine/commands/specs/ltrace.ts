import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['ltrace'],
  build: () => wrapper({ grammar: { short: 'aeEnopsSuxX', long: ['output'] }, writes: ['-o', '--output'] }),
});

export const examples: readonly Example[] = [
  ['ltrace touch ../../x', 'deny'],
  ['ltrace touch x', 'allow'],
];
