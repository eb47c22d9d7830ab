import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['xvfb_run'],
  build: () => wrapper({ grammar: { short: 'nsefpw' } }),
});

export const examples: readonly Example[] = [
  ['xvfb_run touch ../../x', 'deny'],
  ['xvfb_run touch x', 'allow'],
];
