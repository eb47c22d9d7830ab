import { type Example, command } from '../spec.js';
import { code } from '../kinds.js';

export default command({
  names: ['bun'],
  build: () => code({ grammar: { short: 'e', long: ['eval'] }, codeOptions: ['-e', '--eval'] }),
});

export const examples: readonly Example[] = [
  ['bun run test', 'allow'],
];
