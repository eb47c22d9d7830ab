import type { OptionGrammar } from '../args.js';
import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

const SUDO_GRAMMAR: OptionGrammar = { short: 'CDghpRrTtUu', long: ['close-from', 'chdir', 'group', 'host', 'prompt', 'chroot', 'role', 'command-timeout', 'type', 'other-user', 'user'] };

export default command({
  names: ['sudo'],
  build: () => wrapper({ grammar: SUDO_GRAMMAR, chdir: ['-D', '--chdir'], assignments: true, noRunFlags: ['-l', '--list', '-v', '--validate', '-k', '-K', '-V', '-e', '--edit'] }),
});

export const examples: readonly Example[] = [
  ['sudo touch ../../x', 'deny'],
  ['sudo -l', 'allow'],
];
