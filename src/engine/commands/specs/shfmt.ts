import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['shfmt'],
  build: () => formatter([], ['-w', '--write'], undefined, { values: ['-i', '--indent', '-ln', '--language-dialect', '--filename'], flags: ['-l', '--list', '-d', '--diff', '-s', '--simplify', '-mn', '--minify', '-bn', '--binary-next-line', '-ci', '--case-indent', '-sr', '--space-redirects', '-kp', '--keep-padding', '-fn', '--func-next-line', '-p', '--posix'] }),
});

export const examples: readonly Example[] = [
  ['shfmt -w ../../x.sh', 'deny'],
  ['shfmt ../../x.sh', 'allow'],
  ['shfmt -i 2 -w x.sh', 'allow'],
];
