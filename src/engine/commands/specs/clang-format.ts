import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['clang-format'],
  build: () => formatter(['--dry-run', '-n'], ['-i'], undefined, { values: ['-style', '--style', '-assume-filename', '--assume-filename', '-lines', '--lines', '-offset', '--offset', '-length', '--length', '-fallback-style', '--fallback-style'], flags: ['--Werror', '--verbose', '--sort-includes'] }),
});

export const examples: readonly Example[] = [
  ['clang-format -i ../../x.c', 'deny'],
  ['clang-format ../../x.c', 'allow'],
];
