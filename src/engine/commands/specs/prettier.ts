import { type Example, command } from '../spec.js';

export default command({
  names: ['prettier'],
  build: () => ({ category: 'project', run: (inv, interp) => { if (inv.args.some((a) => a.value === '--write' || a.value === '-w')) for (const a of inv.args) if (!a.value.startsWith('-')) interp.write('modify', a, inv.st, inv.range, 'prettier --write', { subtree: true }); } }),
});

export const examples: readonly Example[] = [
  ['prettier --write ../../src', 'deny'],
  ['prettier --check ../../src', 'allow'],
];
