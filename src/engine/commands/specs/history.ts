import { hasOption, parseArgs } from '../args.js';
import { type Example, type CommandSpec, command } from '../spec.js';

/** `history -w|-a FILE` writes FILE; `enable -f LIB` loads a builtin from a shared object. */
const history: CommandSpec = {
  category: 'builtin',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'd' });
    if (hasOption(p, '-w', '-a') && p.operands[0]) interp.write(hasOption(p, '-a') ? 'append' : 'write', p.operands[0], inv.st, inv.range, 'history');
  },
};

export default command({
  names: ['history'],
  build: () => history,
});

export const examples: readonly Example[] = [
  ['history -w ../../h', 'deny'],
  ['history', 'allow'],
];
