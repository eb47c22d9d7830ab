import { type Example, command } from '../spec.js';
import { code } from '../kinds.js';

export default command({
  names: ['osascript'],
  build: () => code({ grammar: { short: 'el' }, codeOptions: ['-e'] }),
});

export const examples: readonly Example[] = [
  ['osascript -e \'display notification "x"\'', 'allow'],
];
