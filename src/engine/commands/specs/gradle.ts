import { type Example, command } from '../spec.js';
import { project } from '../kinds.js';

export default command({
  names: ['gradle', 'gradlew'],
  build: () => project(['-p', '--project-dir'], { short: 'pbc' }, [], ['-b', '-c']),
});

export const examples: readonly Example[] = [
  ['gradle -p ../.. build', 'ask'],
  ['./gradlew build', 'allow'],
];
