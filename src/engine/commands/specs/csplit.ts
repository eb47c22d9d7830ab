import { HOLE } from '../../effects/types.js';
import { optionValues, parseArgs } from '../args.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const csplit: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'bfn', long: ['suffix-format', 'prefix', 'digits'] });
    const prefix = optionValues(p, '-f', '--prefix')[0] ?? { value: 'xx', confidence: 'certain' as const, evidence: [], glob: false };
    interp.write('write', { ...prefix, value: prefix.value + HOLE }, inv.st, inv.range, inv.name);
  },
};

export default command({
  names: ['csplit'],
  build: () => csplit,
});

export const examples: readonly Example[] = [
  ['csplit -f ../../part x /a/', 'ask'],
  ['csplit x /a/', 'allow'],
];
