import { type Example, command } from '../spec.js';
import { code } from '../kinds.js';

export default command({
  names: ['gawk'],
  build: () => code({ grammar: { short: 'fvFeiIlLE', long: ['file', 'assign', 'field-separator', 'source', 'include', 'load'] }, codeOptions: ['-e', '--source'], programOperand: true, inPlace: { options: ['-i', '--include'], values: ['inplace', 'inplace.awk'] } }),
});

export const examples: readonly Example[] = [
  ['gawk -i inplace \'{print}\' ../../x', 'deny'],
  ['gawk \'{print $1}\' ../../README.md', 'allow'],
  ['gawk -i ./lib.awk \'{print}\' ../../x', 'allow'],
];
