import { type Example, command } from '../spec.js';
import { code } from '../kinds.js';

export default command({
  names: ['mawk'],
  build: () => code({ grammar: { short: 'fvFW' }, codeOptions: [], programOperand: true }),
});

export const examples: readonly Example[] = [
  ['mawk \'{print $1}\' ../../README.md', 'allow'],
];
