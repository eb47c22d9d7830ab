import { type Example, command } from '../spec.js';
import { silentBuiltin } from '../kinds.js';

export default command({
  names: [':'],
  build: () => silentBuiltin,
  shell(_inv, sh) {
    sh.status = true;
    return true;
  },
  output(inv, interp) {
    return '';
  },
});

export const examples: readonly Example[] = [
  [': ../../README.md', 'allow'],
];
