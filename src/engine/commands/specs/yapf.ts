import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['yapf'],
  build: () => formatter(['--diff', '-d'], ['-i', '--in-place']),
});

export const examples: readonly Example[] = [
  ['yapf -i ../../x.py', 'deny'],
  ['yapf ../../x.py', 'allow'],
];
