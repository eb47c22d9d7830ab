import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

/** prettier --write: rewrites the files and directories it is given; option values are read (`--config FILE`). */
export default command({
  names: ['prettier'],
  build: () =>
    formatter([], ['--write', '-w'], undefined, {
      values: ['--config', '--ignore-path', '--plugin', '--parser', '--stdin-filepath', '--print-width', '--tab-width', '--trailing-comma', '--arrow-parens', '--end-of-line', '--prose-wrap', '--quote-props', '--html-whitespace-sensitivity', '--embedded-language-formatting', '--config-precedence', '--cache-strategy', '--log-level', '--cursor-offset', '--range-start', '--range-end', '--object-wrap'],
      flags: ['--check', '-c', '--list-different', '-l', '--no-config', '--no-editorconfig', '--single-quote', '--no-semi', '--use-tabs', '--bracket-same-line', '--no-bracket-spacing', '--jsx-single-quote', '--cache', '--no-error-on-unmatched-pattern', '--ignore-unknown', '-u', '--with-node-modules', '--no-color', '--color', '--require-pragma', '--insert-pragma', '--single-attribute-per-line'],
      writes: ['--cache-location'],
    }),
});

export const examples: readonly Example[] = [
  ['prettier --write ../../src', 'deny'],
  ['prettier --check ../../src', 'allow'],
  ['prettier --config ../../.prettierrc --write src/', 'allow'],
  ['prettier --write --cache --cache-location ../../.cache src/', 'deny'],
];
