import { type Example, command } from '../spec.js';
import { project, withEnvWrites } from '../kinds.js';

export default command({
  names: ['cargo'],
  build: () => withEnvWrites('cargo', project(['--manifest-path', '--target-dir', '-C'], { short: 'pjZC', long: ['manifest-path', 'target-dir', 'package', 'jobs', 'features', 'target', 'profile', 'config'] }, ['metadata', 'tree', 'search', 'help', 'version', 'locate-project', 'read-manifest', 'verify-project'], ['-p', '--package', '-j', '--jobs', '--features', '--target', '--profile', '--config', '-Z'])),
});

export const examples: readonly Example[] = [
  ['cargo build --target-dir ../../target', 'ask'],
  ['cargo build', 'allow'],
];
