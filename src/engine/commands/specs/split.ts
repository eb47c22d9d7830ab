import { HOLE } from '../../effects/types.js';
import { parseArgs } from '../args.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const split: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'abClnt', long: ['suffix-length', 'bytes', 'line-bytes', 'lines', 'number', 'separator', 'additional-suffix', 'filter'] });
    const prefix = p.operands[1] ?? { value: 'x', confidence: 'certain' as const, evidence: [], glob: false };
    interp.write('write', { ...prefix, value: prefix.value + HOLE }, inv.st, inv.range, inv.name);
  },
};

export default command({
  names: ['split'],
  build: () => split,
});

export const examples: readonly Example[] = [
  ['split -l 10 x ../../part', 'ask'],
  ['split -l 10 x part', 'allow'],
];
