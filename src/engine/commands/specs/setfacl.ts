import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['setfacl'],
  build: () => writes({ grammar: { short: 'mMxX', long: ['modify', 'modify-file', 'remove', 'remove-file', 'set', 'set-file'] }, operands: 'each', op: 'chmod' }),
});

export const examples: readonly Example[] = [
  ['setfacl -m u:dev:rw ../../x', 'deny'],
  ['setfacl -m u:dev:rw x', 'allow'],
];
