import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['env'],
  build: () => wrapper({ grammar: { short: 'uCS', long: ['unset', 'chdir', 'split-string'] }, chdir: ['-C', '--chdir'], assignments: true, splitString: ['-S', '--split-string'] }),
});

export const examples: readonly Example[] = [
  ['env X=1 touch ../../x', 'deny'],
  ['env -C ../.. touch x', 'deny'],
  ['env X=1 touch x', 'allow'],
];
