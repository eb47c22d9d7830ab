import { parseArgs } from '../args.js';
import { type Example, command } from '../spec.js';

export default command({
  names: ['mknod'],
  build: () => ({ category: 'writes', silent: true, run(inv, interp) { const p = parseArgs(inv.args, { short: 'mZ', long: ['mode', 'context'] }); if (p.operands[0]) interp.write('create', p.operands[0], inv.st, inv.range, 'mknod'); } }),
});

export const examples: readonly Example[] = [
  ['mknod ../../p p', 'deny'],
  ['mknod p p', 'allow'],
];
