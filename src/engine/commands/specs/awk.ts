import { type Example, command } from '../spec.js';
import { code } from '../kinds.js';

export default command({
  names: ['awk'],
  build: () => code({ grammar: { short: 'fvF' }, codeOptions: [], programOperand: true }),
});

export const examples: readonly Example[] = [
  ['awk \'{print > "../../x"}\' y', 'deny'],
  ['awk \'{print $1}\' ../../README.md', 'allow'],
];
