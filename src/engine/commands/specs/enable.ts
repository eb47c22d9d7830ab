import { displayPath } from '../../shell/paths.js';
import { optionValues, parseArgs } from '../args.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const enable: CommandSpec = {
  category: 'builtin',
  silent: true,
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'f' });
    const lib = optionValues(p, '-f')[0];
    if (lib) interp.dynamicProblem(`enable -f loads builtins from ${displayPath(lib.value)}, code that is not analyzed`, `enable -f ${displayPath(lib.value)}`, inv.range);
  },
};

export default command({
  names: ['enable'],
  build: () => enable,
});

export const examples: readonly Example[] = [
  ['enable -f /tmp/x.so x', 'ask'],
  ['enable -n echo', 'allow'],
];
