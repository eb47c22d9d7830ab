import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['autopep8'],
  build: () => formatter(['--diff'], ['-i', '--in-place'], undefined, { values: ['--max-line-length', '--select', '--ignore', '--global-config', '-j', '--jobs', '--exclude', '--indent-size', '-p', '--pep8-passes', '--experimental'], flags: ['-a', '--aggressive', '-r', '--recursive', '-v', '--verbose', '--hang-closing', '--list-fixes'] }),
});

export const examples: readonly Example[] = [
  ['autopep8 -i ../../x.py', 'deny'],
  ['autopep8 ../../x.py', 'allow'],
];
