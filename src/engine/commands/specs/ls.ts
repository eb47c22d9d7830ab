import { type Example, command } from '../spec.js';
import { readOnly } from '../kinds.js';

export default command({
  names: ['ls'],
  build: () => readOnly,
});

export const examples: readonly Example[] = [
  ['ls ../../README.md', 'allow'],
];
