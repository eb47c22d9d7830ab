import { type Example, command } from '../spec.js';
import { project, makeFromStdin } from '../kinds.js';

export default command({
  names: ['make'],
  build: () => makeFromStdin(project(['-C', '--directory'], { short: 'CfIjlo', long: ['directory', 'file', 'makefile', 'include-dir', 'jobs', 'load-average'] }, [], ['-f', '--file', '--makefile', '-I', '--include-dir', '-j', '--jobs', '-l', '--load-average', '-o'])),
});

export const examples: readonly Example[] = [
  ['make -C ../..', 'ask'],
  ['make test', 'allow'],
];
