import { type Example, type CommandSpec, command } from '../spec.js';

const dd: CommandSpec = {
  category: 'writes',
  silent: true,
  run(inv, interp) {
    for (const a of inv.args) {
      if (a.value.startsWith('of=')) interp.write('write', { ...a, value: a.value.slice(3) }, inv.st, inv.range, 'dd of=');
    }
  },
};

export default command({
  names: ['dd'],
  build: () => dd,
});

export const examples: readonly Example[] = [
  ['dd if=/dev/zero of=../../x count=1', 'deny'],
  ['dd if=/dev/zero of=x count=1', 'allow'],
];
