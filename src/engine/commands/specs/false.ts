import { type Example, command } from '../spec.js';
import { silentBuiltin } from '../kinds.js';

export default command({
  names: ['false'],
  build: () => silentBuiltin,
  shell(_inv, sh) {
    sh.status = false;
    return true;
  },
  output(inv, interp) {
    return '';
  },
});

export const examples: readonly Example[] = [
  ['false ../../README.md', 'allow'],
];
