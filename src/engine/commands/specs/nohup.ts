import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['nohup'],
  build: () => wrapper({ grammar: {} }),
});

export const examples: readonly Example[] = [
  ['nohup touch ../../x', 'deny'],
  ['nohup touch x', 'allow'],
];
