import { type Example, command } from '../spec.js';
import { project, makeFromStdin } from '../kinds.js';

export default command({
  names: ['gmake'],
  build: () => makeFromStdin(project(['-C', '--directory'], { short: 'CfIjlo', long: ['directory', 'file', 'makefile', 'include-dir', 'jobs'] }, [], ['-f', '--file', '--makefile', '-I', '--include-dir', '-j', '--jobs', '-l', '-o'])),
});

export const examples: readonly Example[] = [
  ['gmake -C ../..', 'ask'],
  ['gmake test', 'allow'],
];
