import { type Example, command } from '../spec.js';
import { code } from '../kinds.js';

export default command({
  names: ['deno'],
  build: () => code({ grammar: {}, codeOptions: [] }),
});

export const examples: readonly Example[] = [
  ['deno run app.ts', 'allow'],
];
