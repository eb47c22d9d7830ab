import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['fakeroot'],
  build: () => wrapper({ grammar: { short: 'is', long: ['lib', 'faked'] } }),
});

export const examples: readonly Example[] = [
  ['fakeroot touch ../../x', 'deny'],
  ['fakeroot touch x', 'allow'],
];
