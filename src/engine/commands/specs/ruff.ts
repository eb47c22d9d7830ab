import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['ruff'],
  build: () => formatter(['--check', '--diff'], ['--fix'], ['format', 'check'], { values: ['--config', '--target-version', '--line-length', '--select', '--ignore', '--extend-select', '--extend-ignore', '--exclude', '--extend-exclude', '--output-format', '--stdin-filename', '--per-file-ignores', '--fixable', '--unfixable', '--range', '--preview'], flags: ['-q', '--quiet', '-v', '--verbose', '-s', '--silent', '--no-cache', '--unsafe-fixes', '--show-fixes', '--force-exclude', '-n', '--exit-non-zero-on-fix', '-e', '--exit-zero'] }),
});

export const examples: readonly Example[] = [
  ['ruff format ../../x.py', 'deny'],
  ['ruff check ../../x.py', 'allow'],
  ['ruff check --fix ../../x.py', 'deny'],
  ['ruff format --config ../../ruff.toml x.py', 'allow'],
];
