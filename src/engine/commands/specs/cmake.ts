import { type Example, command } from '../spec.js';
import { project } from '../kinds.js';

export default command({
  names: ['cmake'],
  build: () => project(['-B', '--build', '-S', '--install'], { short: 'BSDGCTAUj', long: ['build', 'install', 'prefix', 'config', 'target', 'parallel'] }, [], ['-G', '-C', '-T', '-A', '-U', '-j', '--parallel', '--config', '--target']),
});

export const examples: readonly Example[] = [
  ['cmake -B ../../build', 'ask'],
  ['cmake -B build', 'allow'],
];
