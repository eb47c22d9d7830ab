import { type Example, command } from '../spec.js';
import { withEnvWrites } from '../kinds.js';

export default command({
  names: ['poetry'],
  build: () => withEnvWrites('poetry', undefined),
});

export const examples: readonly Example[] = [
  ['POETRY_CACHE_DIR=/home/dev/repo/c poetry install', 'ask'],
  ['poetry install', 'allow'],
];
