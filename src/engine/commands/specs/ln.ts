import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['ln'],
  build: () => writes({ grammar: { short: 'tS', long: ['target-directory', 'suffix'] }, operands: 'dest-last', op: 'link', targetDir: ['-t', '--target-directory'] }),
});

export const examples: readonly Example[] = [
  ['ln ~/.claude/settings.json /tmp/x', 'deny'],
  ['ln README.md /tmp/x', 'allow'],
  ['ln -s ~/.claude/settings.json /tmp/x', 'allow'],
];
