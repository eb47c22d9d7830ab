import { type Example, command } from '../spec.js';
import { silentBuiltin } from '../kinds.js';

export default command({
  names: ['false'],
  build: () => silentBuiltin,
  output(inv, interp) {
    return '';
  },
});

export const examples: readonly Example[] = [
  ['false ../../README.md', 'allow'],
];
