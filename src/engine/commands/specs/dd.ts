import { type Example, type CommandSpec, command } from '../spec.js';

const dd: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    for (const a of inv.args) {
      if (a.value.startsWith('of=')) interp.write('write', { ...a, value: a.value.slice(3) }, inv.st, inv.range, 'dd of=');
    }
  },
  // Without `of=` it copies its input to stdout (`u=$(dd bs=1 count=7)`): not known. With it, its
  // report goes to stderr and stdout gets nothing.
  output: (inv) => (inv.args.some((a) => a.value.startsWith('of=')) ? '' : null),
};

export default command({
  names: ['dd'],
  build: () => dd,
});

export const examples: readonly Example[] = [
  ['dd if=/dev/zero of=../../x count=1', 'deny'],
  ['dd if=/dev/zero of=x count=1', 'allow'],
  ['u=$(dd bs=1 count=7); [ "$u" != nobody ] && exit; touch ../../x', 'deny'],
];
