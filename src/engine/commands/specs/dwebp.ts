import { type Example, command } from '../spec.js';
import { singleDashOutputs } from '../kinds.js';

export default command({
  names: ['dwebp'],
  build: () => singleDashOutputs({ '-o': 'write' }),
});

export const examples: readonly Example[] = [
  ['dwebp x.webp -o ../../x.png', 'deny'],
  ['dwebp x.webp -o x.png', 'allow'],
];
