import { hasOption, parseArgs } from '../args.js';
import { type Example, command } from '../spec.js';
import { commandOptions } from '../kinds.js';

export default command({
  names: ['zip'],
  build: () => commandOptions({ category: 'writes', silent: true, run(inv, interp) { const p = parseArgs(inv.args, { short: 'bnOtxi', long: [] }); const a = p.operands[0]; if (a && !hasOption(p, '-T', '--test')) interp.write('write', a, inv.st, inv.range, 'zip'); } }, ['-TT', '--unzip-command']),
});

export const examples: readonly Example[] = [
  ['zip ../../a.zip x', 'deny'],
  ['zip a.zip x', 'allow'],
];
