import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['clang-format'],
  build: () => formatter(['--dry-run', '-n'], ['-i']),
});

export const examples: readonly Example[] = [
  ['clang-format -i ../../x.c', 'deny'],
  ['clang-format ../../x.c', 'allow'],
];
