import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['xvfb-run'],
  build: () => wrapper({ grammar: { short: 'nsefpw' } }),
});

export const examples: readonly Example[] = [
  ['xvfb-run touch ../../x', 'deny'],
  ['xvfb-run touch x', 'allow'],
];
