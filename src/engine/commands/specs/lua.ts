import { type Example, command } from '../spec.js';
import { code } from '../kinds.js';

export default command({
  names: ['lua'],
  build: () => code({ grammar: { short: 'el' }, codeOptions: ['-e'] }),
});

export const examples: readonly Example[] = [
  ['lua -e \'print(1)\'', 'allow'],
];
