import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['busybox'],
  build: () => wrapper({ grammar: {} }),
});

export const examples: readonly Example[] = [
  ['busybox touch ../../x', 'deny'],
  ['busybox touch x', 'allow'],
];
