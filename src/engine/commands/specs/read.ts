import { type Example, command } from '../spec.js';
import { readVar } from '../kinds.js';

export default command({
  names: ['read', 'mapfile', 'readarray'],
  build: () => readVar,
});

export const examples: readonly Example[] = [
  ['read -r X; touch "$X"', 'ask'],
  ['read -r X; echo "$X"', 'allow'],
];
