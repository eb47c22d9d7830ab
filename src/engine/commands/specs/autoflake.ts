import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['autoflake'],
  build: () => formatter(['--check', '--check-diff'], ['-i', '--in-place'], undefined, { values: ['--imports', '--exclude', '-j', '--jobs', '--config'], flags: ['-r', '--recursive', '--remove-all-unused-imports', '--remove-unused-variables', '--remove-duplicate-keys', '--expand-star-imports', '--ignore-init-module-imports', '-s', '--stdout', '-c', '--quiet', '-v', '--verbose'] }),
});

export const examples: readonly Example[] = [
  ['autoflake -i ../../x.py', 'deny'],
  ['autoflake ../../x.py', 'allow'],
];
