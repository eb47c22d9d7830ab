import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['ln'],
  // flags: every short flag of GNU coreutils 9.1 (`ln --help`); another letter may take a value.
  build: () => writes({ grammar: { short: 'tS', long: ['target-directory', 'suffix'], flags: 'FLPTbdfinrsv' }, operands: 'dest-last', op: 'link', targetDir: ['-t', '--target-directory'], destReplaces: true, noDeref: ['-T', '--no-target-directory', '-n', '--no-dereference'] }),
});

export const examples: readonly Example[] = [
  ['ln ~/.claude/settings.json /tmp/x', 'deny'],
  ['ln README.md /tmp/x', 'allow'],
  ['ln -s ~/.claude/settings.json /tmp/x', 'allow'],
  ['ln -sQ ../../README.md x', 'ask'],
  ['ln -sf ../../README.md x', 'allow'],
];
