import { type Example, command } from '../spec.js';
import { singleDashOutputs } from '../kinds.js';

export default command({
  names: ['mkisofs'],
  build: () => singleDashOutputs({ '-o': 'write' }),
});

export const examples: readonly Example[] = [
  ['mkisofs -o ../../x.iso dir', 'deny'],
  ['mkisofs -o x.iso dir', 'allow'],
];
