import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['mv'],
  build: () => writes({ grammar: { short: 'tS', long: ['target-directory', 'suffix'] }, operands: 'dest-last', op: 'move', sources: 'delete', targetDir: ['-t', '--target-directory'] }),
});

export const examples: readonly Example[] = [
  ['mv x ../../x', 'deny'],
  ['mv /tmp/tpl .claude', 'deny'],
  ['mv /tmp/tpl build', 'allow'],
];
