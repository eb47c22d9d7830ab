import { type Example, command } from '../spec.js';
import { chmodLike } from '../kinds.js';

export default command({
  names: ['chown'],
  build: () => chmodLike(true),
});

export const examples: readonly Example[] = [
  ['chown dev ../../x', 'deny'],
  ['chown dev x', 'allow'],
];
