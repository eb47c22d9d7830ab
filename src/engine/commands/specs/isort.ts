import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['isort'],
  build: () => formatter(['--check', '--check-only', '-c', '--diff'], null),
});

export const examples: readonly Example[] = [
  ['isort ../../x.py', 'deny'],
  ['isort --check ../../x.py', 'allow'],
];
