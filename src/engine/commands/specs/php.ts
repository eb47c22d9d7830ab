import { type Example, command } from '../spec.js';
import { code } from '../kinds.js';

export default command({
  names: ['php'],
  build: () => code({ grammar: { short: 'rBREFcdz' }, codeOptions: ['-r'] }),
});

export const examples: readonly Example[] = [
  ['php -r \'echo 1;\'', 'allow'],
];
