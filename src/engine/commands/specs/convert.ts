import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['convert', 'magick'],
  build: () => writes({ grammar: {}, operands: 'dest-last', op: 'write' }),
});

export const examples: readonly Example[] = [
  ['magick x.png ../../x.jpg', 'deny'],
  ['convert x.png x.jpg', 'allow'],
];
