import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['mogrify'],
  build: () => writes({ grammar: { short: '', long: [] }, operands: 'each', op: 'modify' }),
});

export const examples: readonly Example[] = [
  ['mogrify -resize 50% ../../x.png', 'deny'],
  ['mogrify -resize 50% x.png', 'allow'],
];
