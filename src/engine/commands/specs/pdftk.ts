import { type Example, command } from '../spec.js';

export default command({
  names: ['pdftk'],
  build: () => ({ category: 'writes', run(inv, interp) { const i = inv.args.findIndex((a) => a.value === 'output'); const f = i >= 0 ? inv.args[i + 1] : undefined; if (f && f.value !== '-') interp.write('write', f, inv.st, inv.range, 'pdftk output'); } }),
});

export const examples: readonly Example[] = [
  ['pdftk x.pdf cat output ../../y.pdf', 'deny'],
  ['pdftk x.pdf cat output y.pdf', 'allow'],
];
