import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['doas'],
  build: () => wrapper({ grammar: { short: 'uC' } }),
});

export const examples: readonly Example[] = [
  ['doas touch ../../x', 'deny'],
  ['doas touch x', 'allow'],
];
