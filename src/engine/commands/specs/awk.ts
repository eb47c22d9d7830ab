import { type Example, command } from '../spec.js';
import { code } from '../kinds.js';

export default command({
  names: ['awk'],
  // `awk` is gawk on some systems and mawk or busybox on others: gawk's `-i inplace` edits the files
  // there, and is an error elsewhere, so the edit is possible, not certain.
  build: () => code({ grammar: { short: 'fvFi', long: ['include'] }, codeOptions: [], programOperand: true, inPlace: { options: ['-i', '--include'], values: ['inplace', 'inplace.awk'], confidenceCap: 'possible' } }),
});

export const examples: readonly Example[] = [
  ['awk \'{print > "../../x"}\' y', 'deny'],
  ['awk \'{print $1}\' ../../README.md', 'allow'],
  ['awk -i inplace \'{print}\' ../../x', 'ask'],
  ['awk -i inplace \'{print}\' x', 'allow'],
];
