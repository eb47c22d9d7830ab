import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

/** eslint --fix: rewrites the files and directories it is given; -o writes the report; other option values are read. */
export default command({
  names: ['eslint'],
  build: () =>
    formatter([], ['--fix'], undefined, {
      values: ['-c', '--config', '--ext', '--global', '--parser', '--parser-options', '--resolve-plugins-relative-to', '--rulesdir', '--plugin', '--rule', '--ignore-path', '--ignore-pattern', '-f', '--format', '--max-warnings', '--cache-strategy', '--stdin-filename', '--fix-type', '--env', '--report-unused-disable-directives-severity', '--flag'],
      flags: ['--no-eslintrc', '--no-config-lookup', '--no-ignore', '--cache', '--quiet', '--color', '--no-color', '--no-inline-config', '--report-unused-disable-directives', '--no-error-on-unmatched-pattern', '--exit-on-fatal-error', '--debug', '--stdin', '--no-warn-ignored', '--pass-on-no-patterns'],
      writes: ['-o', '--output-file', '--cache-location'],
    }),
});

export const examples: readonly Example[] = [
  ['eslint --fix ../../src', 'deny'],
  ['eslint ../../src', 'allow'],
  ['eslint -c ../../.eslintrc.json --fix src/', 'allow'],
  ['eslint -o ../../report.txt src/', 'deny'],
];
