import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['install'],
  // flags: every short flag of GNU coreutils 9.1 (`install --help`); another letter may take a value.
  build: () => writes({ grammar: { short: 'mogtSZ', long: ['mode', 'owner', 'group', 'target-directory', 'suffix', 'context'], flags: 'CDTbcdpsv' }, operands: 'dest-last', op: 'write', targetDir: ['-t', '--target-directory'], destReplaces: true, noDeref: ['-T', '--no-target-directory'], flagOps: { '-d': 'mkdir', '--directory': 'mkdir' } }),
});

export const examples: readonly Example[] = [
  ['install -m 755 x ../../bin/x', 'deny'],
  ['install -d build/bin', 'allow'],
  ['install -Q ../../README.md x', 'ask'],
  ['install -p ../../README.md x', 'allow'],
];
