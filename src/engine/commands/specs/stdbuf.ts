import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['stdbuf'],
  build: () => wrapper({ grammar: { short: 'ioe', long: ['input', 'output', 'error'] } }),
});

export const examples: readonly Example[] = [
  ['stdbuf -oL touch ../../x', 'deny'],
  ['stdbuf -oL touch x', 'allow'],
];
