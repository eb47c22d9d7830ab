import { type Example, command } from '../spec.js';
import { project, withEnvWrites } from '../kinds.js';

export default command({
  names: ['yarn'],
  build: () => withEnvWrites('yarn', project(['--cwd'], { long: ['cwd'] }, ['info', 'list', 'why', 'help', 'config', 'outdated'])),
});

export const examples: readonly Example[] = [
  ['yarn --cwd ../.. build', 'ask'],
  ['yarn build', 'allow'],
];
