import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['scp'],
  build: () => writes({ grammar: { short: 'cFiJlLoPS', long: [] }, operands: 'dest-last', op: 'write', subtreeFlags: ['-r'] }),
});

export const examples: readonly Example[] = [
  ['scp host:x ../../x', 'deny'],
  ['scp host:x x', 'allow'],
];
