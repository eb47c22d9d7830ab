import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['shfmt'],
  build: () => formatter([], ['-w', '--write']),
});

export const examples: readonly Example[] = [
  ['shfmt -w ../../x.sh', 'deny'],
  ['shfmt ../../x.sh', 'allow'],
];
