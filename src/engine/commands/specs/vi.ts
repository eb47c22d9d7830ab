import { type Example, type CommandSpec, command } from '../spec.js';
import { writes } from '../kinds.js';

const vi: CommandSpec = writes({ grammar: { short: 'cSiTuwW', long: [] }, operands: 'each', op: 'modify' });

export default command({
  names: ['vi', 'vim', 'nvim', 'nano', 'emacs', 'ed', 'ex', 'code', 'subl', 'gedit', 'kate', 'micro', 'hx', 'helix', 'joe', 'mcedit'],
  build: () => vi,
});

export const examples: readonly Example[] = [
  ['vi ../../x', 'deny'],
  ['vim x', 'allow'],
];
