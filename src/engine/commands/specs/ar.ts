import { type Example, command } from '../spec.js';

export default command({
  names: ['ar'],
  build: () => ({ category: 'writes', silent: true, run(inv, interp) { const ops = inv.args.filter((a) => !a.value.startsWith('-')); const mode = ops[0]?.value ?? ''; if (/^[a-zA-Z]*[rqmdsx]/.test(mode) && !/^[a-zA-Z]*[tp]/.test(mode) && ops[1]) interp.write(mode.includes('x') ? 'extract' : 'modify', mode.includes('x') ? { value: '.', confidence: 'certain', evidence: [], glob: false } : ops[1], inv.st, inv.range, 'ar', { subtree: mode.includes('x') }); } }),
});

export const examples: readonly Example[] = [
  ['ar rcs ../../lib.a x.o', 'deny'],
  ['ar t ../../lib.a', 'allow'],
];
