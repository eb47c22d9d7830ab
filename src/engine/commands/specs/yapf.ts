import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['yapf'],
  build: () => formatter(['--diff', '-d'], ['-i', '--in-place'], undefined, { values: ['--style', '-l', '--lines', '-e', '--exclude'], flags: ['-r', '--recursive', '-p', '--parallel', '-vv', '--verbose', '-q', '--quiet', '-m', '--print-modified', '--no-local-style'] }),
});

export const examples: readonly Example[] = [
  ['yapf -i ../../x.py', 'deny'],
  ['yapf ../../x.py', 'allow'],
];
