import { type Example, command } from '../spec.js';

export default command({
  names: ['eslint'],
  build: () => ({ category: 'project', run: (inv, interp) => { if (inv.args.some((a) => a.value === '--fix')) for (const a of inv.args) if (!a.value.startsWith('-')) interp.write('modify', a, inv.st, inv.range, 'eslint --fix', { subtree: true }); } }),
});

export const examples: readonly Example[] = [
  ['eslint --fix ../../src', 'deny'],
  ['eslint ../../src', 'allow'],
];
