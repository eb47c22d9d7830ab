import { type Example, command } from '../spec.js';
import { chmodLike } from '../kinds.js';

export default command({
  names: ['chgrp'],
  build: () => chmodLike(true),
});

export const examples: readonly Example[] = [
  ['chgrp dev ../../x', 'deny'],
  ['chgrp dev x', 'allow'],
];
