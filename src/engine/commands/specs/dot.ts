import { type Example, command } from '../spec.js';
import { singleDashOutputs } from '../kinds.js';

export default command({
  names: ['dot'],
  build: () => singleDashOutputs({ '-o': 'write' }),
});

export const examples: readonly Example[] = [
  ['dot -Tpng x.dot -o ../../x.png', 'deny'],
  ['dot -Tpng x.dot -o x.png', 'allow'],
];
