import { type Example, command } from '../spec.js';
import { code } from '../kinds.js';

export default command({
  names: ['Rscript'],
  build: () => code({ grammar: { short: 'e' }, codeOptions: ['-e'] }),
});

export const examples: readonly Example[] = [
  ['Rscript -e \'print(1)\'', 'allow'],
];
