import { type Example, command } from '../spec.js';
import { silentBuiltin } from '../kinds.js';

export default command({
  names: ['break', 'continue', 'shift', 'let', 'local', 'export', 'readonly', 'wait', 'disown', 'suspend'],
  build: () => silentBuiltin,
});

export const examples: readonly Example[] = [
  ['for f in a b; do break; done', 'allow'],
  ['export X=../..', 'allow'],
  ['wait', 'allow'],
  ['shift ../../README.md', 'allow'],
];
