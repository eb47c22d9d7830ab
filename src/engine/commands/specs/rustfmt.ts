import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['rustfmt'],
  build: () => formatter(['--check'], null, undefined, { values: ['--edition', '--style-edition', '--config-path', '--config', '--emit', '--color', '--print-config', '-l'], flags: ['-v', '--verbose', '-q', '--quiet', '--backup', '--files-with-diff'], toStdout: (a) => a.some((w, i) => w === '--emit=stdout' || (w === '--emit' && a[i + 1] === 'stdout')) }),
});

export const examples: readonly Example[] = [
  ['rustfmt ../../x.rs', 'deny'],
  ['rustfmt --check ../../x.rs', 'allow'],
  ['rustfmt --emit stdout ../../x.rs', 'allow'],
  ['rustfmt --edition 2021 x.rs', 'allow'],
  ['rustfmt --config-path ../../rustfmt.toml x.rs', 'allow'],
  ['rustfmt --unknown-flag ../../x.rs', 'ask'],
];
