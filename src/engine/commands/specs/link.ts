import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['link'],
  build: () => writes({ grammar: {}, operands: 'dest-last', op: 'link' }),
});

export const examples: readonly Example[] = [
  ['link x ../../x', 'deny'],
  ['link x y', 'allow'],
];
