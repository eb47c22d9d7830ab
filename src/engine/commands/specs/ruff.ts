import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['ruff'],
  build: () => formatter(['--check', '--diff'], ['--fix'], ['format', 'check']),
});

export const examples: readonly Example[] = [
  ['ruff format ../../x.py', 'deny'],
  ['ruff check ../../x.py', 'allow'],
  ['ruff check --fix ../../x.py', 'deny'],
];
