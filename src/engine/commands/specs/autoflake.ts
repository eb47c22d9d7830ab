import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['autoflake'],
  build: () => formatter(['--check', '--check-diff'], ['-i', '--in-place']),
});

export const examples: readonly Example[] = [
  ['autoflake -i ../../x.py', 'deny'],
  ['autoflake ../../x.py', 'allow'],
];
