import { type Example, type CommandSpec, command } from '../spec.js';

/** dos2unix/unix2dos convert their operands in place; `-n IN OUT` writes OUT. */
const dos2unix: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const ops = inv.args.filter((a) => !a.value.startsWith('-'));
    if (inv.args.some((a) => a.value === '-O' || a.value === '--to-stdout' || a.value === '-i' || a.value === '--info')) return;
    const pairs = inv.args.some((a) => a.value === '-n' || a.value === '--newfile');
    ops.forEach((f, i) => {
      if (!pairs) interp.write('modify', f, inv.st, inv.range, inv.name);
      else if (i % 2 === 1) interp.write('write', f, inv.st, inv.range, `${inv.name} -n`);
    });
  },
};

export default command({
  names: ['dos2unix', 'unix2dos', 'mac2unix', 'unix2mac'],
  build: () => dos2unix,
});

export const examples: readonly Example[] = [
  ['dos2unix ../../x', 'deny'],
  ['dos2unix x', 'allow'],
  ['unix2dos -n ../../x y', 'allow'],
];
