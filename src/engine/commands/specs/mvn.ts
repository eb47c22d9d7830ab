import { type Example, command } from '../spec.js';
import { project } from '../kinds.js';

export default command({
  names: ['mvn'],
  build: () => project(['-f', '--file'], { short: 'fsDPplbT' }, [], ['-s', '-D', '-P', '-p', '-b', '-T']),
});

export const examples: readonly Example[] = [
  ['mvn -f ../../pom.xml package', 'ask'],
  ['mvn package', 'allow'],
];
