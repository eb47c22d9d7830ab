import { type Example, command } from '../spec.js';

export default command({
  names: ['rename'],
  build: () => ({ category: 'writes', run(inv, interp) { const ops = inv.args.filter((a) => !a.value.startsWith('-')); if (inv.args.some((a) => a.value === '-n' || a.value === '--no-act' || a.value === '--nono')) return; for (const f of ops.slice(1)) interp.write('move', f, inv.st, inv.range, 'rename'); } }),
});

export const examples: readonly Example[] = [
  ['rename \'s/a/b/\' ../../x', 'deny'],
  ['rename -n \'s/a/b/\' ../../x', 'allow'],
];
