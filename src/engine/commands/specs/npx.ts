import { type Example, command } from '../spec.js';
import { project, withEnvWrites } from '../kinds.js';

export default command({
  names: ['npx'],
  build: () => withEnvWrites('npx', project(['--prefix'], { long: ['prefix', 'package'], stopAtOperand: true }, [], ['--package'])),
});

export const examples: readonly Example[] = [
  ['npx tsc --noEmit', 'allow'],
  ['cd ../.. && npx tsc', 'ask'],
];
