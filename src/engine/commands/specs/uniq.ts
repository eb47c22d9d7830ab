import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['uniq'],
  build: () => writes({ grammar: { short: 'fsw', long: ['skip-fields', 'skip-chars', 'check-chars', 'all-repeated', 'group'] }, operands: 'after-first', op: 'write' }),
});

export const examples: readonly Example[] = [
  ['uniq x ../../y', 'deny'],
  ['uniq ../../README.md', 'allow'],
];
