import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['rm'],
  build: () => writes({ grammar: { flags: 'IRdfirv' }, operands: 'each', op: 'delete', subtreeFlags: ['-r', '-R', '--recursive'] }),
});

export const examples: readonly Example[] = [
  ['rm -rf ../b2/src', 'deny'],
  ['rm -rf build', 'allow'],
  ['rm -rf .claude', 'allow'],
];
