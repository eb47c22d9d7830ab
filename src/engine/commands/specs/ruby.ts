import { type Example, command } from '../spec.js';
import { code } from '../kinds.js';

export default command({
  names: ['ruby'],
  build: () => code({ grammar: { short: 'eIrECFTx', long: [] }, codeOptions: ['-e'], inPlace: { options: ['-i'] } }),
});

export const examples: readonly Example[] = [
  ['ruby -i -pe \'x\' ../../x', 'deny'],
  ['ruby -e \'puts 1\'', 'allow'],
];
