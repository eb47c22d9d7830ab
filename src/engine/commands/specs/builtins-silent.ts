import { type Example, command } from '../spec.js';
import { silentBuiltin } from '../kinds.js';

export default command({
  names: ['local', 'export', 'readonly', 'wait', 'disown', 'suspend'],
  build: () => silentBuiltin,
});

export const examples: readonly Example[] = [
  ['export X=../..', 'allow'],
  ['wait', 'allow'],
];
