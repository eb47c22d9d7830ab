import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['install'],
  build: () => writes({ grammar: { short: 'mogtSZ', long: ['mode', 'owner', 'group', 'target-directory', 'suffix', 'context'] }, operands: 'dest-last', op: 'write', targetDir: ['-t', '--target-directory'], flagOps: { '-d': 'mkdir', '--directory': 'mkdir' } }),
});

export const examples: readonly Example[] = [
  ['install -m 755 x ../../bin/x', 'deny'],
  ['install -d build/bin', 'allow'],
];
