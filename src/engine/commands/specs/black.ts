import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['black'],
  build: () => formatter(['--check', '--diff'], null, undefined, { values: ['-l', '--line-length', '-t', '--target-version', '--config', '--include', '--exclude', '--extend-exclude', '--force-exclude', '--stdin-filename', '-W', '--workers', '--required-version', '--python-cell-magics', '--enable-unstable-feature'], flags: ['-q', '--quiet', '-v', '--verbose', '-S', '--skip-string-normalization', '-C', '--skip-magic-trailing-comma', '--fast', '--safe', '--preview', '--unstable', '--color', '--no-color', '--pyi', '--ipynb'], toStdout: (a) => a.includes('-c') || a.includes('--code') }),
});

export const examples: readonly Example[] = [
  ['black ../../x.py', 'deny'],
  ['black --check ../../x.py', 'allow'],
  ['black --config ../../pyproject.toml x.py', 'allow'],
  ['black -l 100 ../../x.py', 'deny'],
];
