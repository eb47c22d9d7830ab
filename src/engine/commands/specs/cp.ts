import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['cp'],
  // flags: every short flag of GNU coreutils 9.1 (`cp --help`); another letter may take a value.
  build: () => writes({ grammar: { short: 'tS', long: ['target-directory', 'suffix'], flags: 'HLPRTZabdfilnprsuvx' }, operands: 'dest-last', op: 'write', targetDir: ['-t', '--target-directory'], subtreeFlags: ['-r', '-R', '-a', '--recursive', '--archive'], destReplaces: ['--remove-destination'], noDeref: ['-T', '--no-target-directory'] }),
});

export const examples: readonly Example[] = [
  ['cp README.md ../../x', 'deny'],
  ['cp ../../README.md x', 'allow'],
  ['cp settings.local.json .claude/', 'deny'],
  ['cp -r /tmp/tpl/. .', 'ask'],
  ['cp -r /tmp/tpl/. build/', 'allow'],
  ['cp -Q ../../README.md x', 'ask'],
  ['cp -p ../../README.md x', 'allow'],
];
