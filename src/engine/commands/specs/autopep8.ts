import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['autopep8'],
  build: () => formatter(['--diff'], ['-i', '--in-place']),
});

export const examples: readonly Example[] = [
  ['autopep8 -i ../../x.py', 'deny'],
  ['autopep8 ../../x.py', 'allow'],
];
