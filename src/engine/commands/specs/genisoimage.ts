import { type Example, command } from '../spec.js';
import { singleDashOutputs } from '../kinds.js';

export default command({
  names: ['genisoimage'],
  build: () => singleDashOutputs({ '-o': 'write' }),
});

export const examples: readonly Example[] = [
  ['genisoimage -o ../../x.iso dir', 'deny'],
  ['genisoimage -o x.iso dir', 'allow'],
];
