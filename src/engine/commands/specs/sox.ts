import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['sox'],
  build: () => writes({ grammar: {}, operands: 'dest-last', op: 'write' }),
});

export const examples: readonly Example[] = [
  ['sox x.wav ../../x.mp3', 'deny'],
  ['sox x.wav x.mp3', 'allow'],
];
