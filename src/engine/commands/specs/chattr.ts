import { type Example, command } from '../spec.js';
import { chmodLike } from '../kinds.js';

export default command({
  names: ['chattr'],
  build: () => chmodLike(true),
});

export const examples: readonly Example[] = [
  ['chattr +i ../../x', 'deny'],
  ['chattr +i x', 'allow'],
];
