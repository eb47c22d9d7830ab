import { type Example, command } from '../spec.js';

export default command({
  names: ['7z'],
  build: () => ({ category: 'writes', run(inv, interp) { const ops = inv.args.filter((a) => !a.value.startsWith('-')); const out = inv.args.find((a) => a.value.startsWith('-o')); const cmd = ops[0]?.value; if ((cmd === 'a' || cmd === 'u' || cmd === 'd' || cmd === 'rn') && ops[1]) interp.write('write', ops[1], inv.st, inv.range, `7z ${cmd}`); if ((cmd === 'x' || cmd === 'e') && !inv.args.some((a) => a.value === '-so')) interp.write('extract', out ? { ...out, value: out.value.slice(2) } : { value: '.', confidence: 'certain', evidence: [], glob: false }, inv.st, inv.range, `7z ${cmd}`, { subtree: true }); } }),
});

export const examples: readonly Example[] = [
  ['7z a ../../a.7z x', 'deny'],
  ['7z l ../../a.7z', 'allow'],
];
