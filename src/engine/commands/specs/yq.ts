import { type Example, command } from '../spec.js';

export default command({
  names: ['yq'],
  build: () => ({ category: 'writes', run(inv, interp) { if (!inv.args.some((a) => a.value === '-i' || a.value === '--inplace' || a.value === '--in-place')) return; const ops = inv.args.filter((a) => !a.value.startsWith('-')); for (const f of ops.slice(1)) interp.write('modify', f, inv.st, inv.range, 'yq -i'); } }),
});

export const examples: readonly Example[] = [
  ['yq -i .a=1 ../../x.yaml', 'deny'],
  ['yq .a ../../x.yaml', 'allow'],
];
