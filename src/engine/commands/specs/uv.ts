import { type Example, command } from '../spec.js';
import { withEnvWrites } from '../kinds.js';

export default command({
  names: ['uv'],
  build: () => withEnvWrites('uv', undefined),
});

export const examples: readonly Example[] = [
  ['UV_CACHE_DIR=/home/dev/repo/c uv sync', 'ask'],
  ['uv sync', 'allow'],
];
