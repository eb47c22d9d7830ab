import { type Example, command } from '../spec.js';

export default command({
  names: ['gs'],
  build: () => ({ category: 'writes', run(inv, interp) { for (let i = 0; i < inv.args.length; i++) { const v = inv.args[i]!.value; const f = v.startsWith('-sOutputFile=') ? { ...inv.args[i]!, value: v.slice(13) } : v === '-o' ? inv.args[++i] : undefined; if (f && f.value !== '-' && !f.value.startsWith('%')) interp.write('write', f, inv.st, inv.range, 'gs -sOutputFile'); } } }),
});

export const examples: readonly Example[] = [
  ['gs -sOutputFile=../../x.pdf x.ps', 'deny'],
  ['gs -sOutputFile=x.pdf x.ps', 'allow'],
];
