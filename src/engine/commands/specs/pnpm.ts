import { type Example, command } from '../spec.js';
import { project, withEnvWrites } from '../kinds.js';

export default command({
  names: ['pnpm'],
  build: () => withEnvWrites('pnpm', project(['-C', '--dir', '--prefix'], { short: 'C', long: ['dir', 'prefix', 'filter'] }, ['view', 'info', 'ls', 'list', 'why', 'outdated', 'help', 'config'], ['--filter'])),
});

export const examples: readonly Example[] = [
  ['pnpm -C ../.. build', 'ask'],
  ['pnpm build', 'allow'],
];
