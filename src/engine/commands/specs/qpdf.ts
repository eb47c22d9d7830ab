import { type Example, command } from '../spec.js';

export default command({
  names: ['qpdf'],
  build: () => ({ category: 'writes', run(inv, interp) { const ops = inv.args.filter((a) => !a.value.startsWith('-')); if (inv.args.some((a) => a.value === '--replace-input')) { if (ops[0]) interp.write('modify', ops[0], inv.st, inv.range, 'qpdf --replace-input'); } else if (ops.length >= 2) interp.write('write', ops[ops.length - 1]!, inv.st, inv.range, 'qpdf'); } }),
});

export const examples: readonly Example[] = [
  ['qpdf x.pdf ../../y.pdf', 'deny'],
  ['qpdf ../../x.pdf y.pdf', 'allow'],
];
