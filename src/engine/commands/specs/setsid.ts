import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['setsid'],
  build: () => wrapper({ grammar: {} }),
});

export const examples: readonly Example[] = [
  ['setsid touch ../../x', 'deny'],
  ['setsid touch x', 'allow'],
];
