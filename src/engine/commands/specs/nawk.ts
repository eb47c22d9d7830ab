import { type Example, command } from '../spec.js';
import { code } from '../kinds.js';

export default command({
  names: ['nawk'],
  build: () => code({ grammar: { short: 'fvF' }, codeOptions: [], programOperand: true }),
});

export const examples: readonly Example[] = [
  ['nawk \'{print $1}\' ../../README.md', 'allow'],
];
