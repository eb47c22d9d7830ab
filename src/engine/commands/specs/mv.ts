import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['mv'],
  // flags: every short flag of GNU coreutils 9.1 (`mv --help`); another letter may take a value.
  build: () => writes({ grammar: { short: 'tS', long: ['target-directory', 'suffix'], flags: 'TZbfinuv' }, operands: 'dest-last', op: 'move', sources: 'delete', targetDir: ['-t', '--target-directory'], destReplaces: true, noDeref: ['-T', '--no-target-directory'] }),
});

export const examples: readonly Example[] = [
  ['mv x ../../x', 'deny'],
  ['mv /tmp/tpl .claude', 'deny'],
  ['mv /tmp/tpl build', 'allow'],
  ['mv -Q ../../README.md x', 'deny'],
];
