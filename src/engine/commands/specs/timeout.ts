import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['timeout'],
  build: () => wrapper({ grammar: { short: 'sk', long: ['signal', 'kill-after'] }, skip: 1 }),
});

export const examples: readonly Example[] = [
  ['timeout 5 touch ../../x', 'deny'],
  ['timeout 5 touch x', 'allow'],
];
