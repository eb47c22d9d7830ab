import { type Example, command } from '../spec.js';
import { singleDashOutputs } from '../kinds.js';

export default command({
  names: ['xorriso'],
  build: () => singleDashOutputs({ '-outdev': 'write' }),
});

export const examples: readonly Example[] = [
  ['xorriso -outdev ../../x.iso', 'deny'],
  ['xorriso -outdev x.iso', 'allow'],
];
