import { type Example, command } from '../spec.js';
import { singleDashOutputs } from '../kinds.js';

export default command({
  names: ['cwebp'],
  build: () => singleDashOutputs({ '-o': 'write' }),
});

export const examples: readonly Example[] = [
  ['cwebp x.png -o ../../x.webp', 'deny'],
  ['cwebp x.png -o x.webp', 'allow'],
];
