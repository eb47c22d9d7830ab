import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['isort'],
  build: () => formatter(['--check', '--check-only', '-c', '--diff'], null, undefined, { values: ['--settings-path', '--sp', '--settings-file', '--settings', '-l', '--line-length', '--line-width', '--profile', '-p', '--project', '-s', '--skip', '--skip-glob', '--src', '--src-path', '-a', '--add-import', '--rm', '--remove-import', '-o', '--thirdparty', '-b', '--builtin', '-f', '--future', '-m', '--multi-line', '--py', '--python-version', '-j', '--jobs', '--virtual-env', '--conda-env', '--ext', '--extension', '--filename'], flags: ['-q', '--quiet', '-v', '--verbose', '--atomic', '--float-to-top', '--ca', '--combine-as', '--force-single-line-imports', '--sl', '--fss', '--tc', '--trailing-comma', '--ws'], toStdout: (a) => a.includes('-d') || a.includes('--stdout') }),
});

export const examples: readonly Example[] = [
  ['isort ../../x.py', 'deny'],
  ['isort --check ../../x.py', 'allow'],
  ['isort --settings-path ../.. x.py', 'allow'],
];
