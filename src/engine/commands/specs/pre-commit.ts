import { type Example, command } from '../spec.js';
import { withEnvWrites } from '../kinds.js';

export default command({
  names: ['pre-commit'],
  build: () => withEnvWrites('pre-commit', undefined),
});

export const examples: readonly Example[] = [
  ['PRE_COMMIT_HOME=/home/dev/repo/c pre-commit run', 'ask'],
  ['pre-commit run', 'allow'],
];
