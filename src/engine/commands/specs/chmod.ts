import { type Example, command } from '../spec.js';
import { chmodLike } from '../kinds.js';

export default command({
  names: ['chmod'],
  build: () => chmodLike(true),
});

export const examples: readonly Example[] = [
  ['chmod +x ../../x', 'deny'],
  ['chmod -R u+w src', 'allow'],
];
