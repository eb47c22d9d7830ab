import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['black'],
  build: () => formatter(['--check', '--diff'], null),
});

export const examples: readonly Example[] = [
  ['black ../../x.py', 'deny'],
  ['black --check ../../x.py', 'allow'],
];
