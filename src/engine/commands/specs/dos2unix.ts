import { type Example, type CommandSpec, command } from '../spec.js';

/** dos2unix/unix2dos convert their operands in place; `-n IN OUT` writes OUT. */
const dos2unix: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const ops = inv.args.filter((a) => !a.value.startsWith('-'));
    if (inv.args.some((a) => a.value === '-O' || a.value === '--to-stdout' || a.value === '-i' || a.value === '--info')) return;
    const pairs = inv.args.some((a) => a.value === '-n' || a.value === '--newfile');
    // dos2unix(1): a symlink operand is skipped (--no-follow-symlink, the default) or replaced
    // (-R); only -F/--follow-symlink converts its target.
    const follow = inv.args.some((a) => a.value === '-F' || a.value === '--follow-symlink');
    ops.forEach((f, i) => {
      if (!pairs) interp.write('modify', f, inv.st, inv.range, inv.name, follow ? {} : { replaces: true });
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
