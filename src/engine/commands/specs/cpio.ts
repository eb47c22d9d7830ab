import { hasOption, optionValues, parseArgs } from '../args.js';
import { type Example, type CommandSpec, command } from '../spec.js';

/** cpio: -o writes the archive (-F/-O FILE), -i extracts into the cwd (-D DIR), -p DIR copies into DIR. */
const cpio: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'CDEFHIMORs', long: ['directory', 'file', 'format', 'pattern-file', 'message', 'owner', 'io-size', 'block-size', 'rsh-command'] });
    const dirs = optionValues(p, '-D', '--directory');
    const cwd = dirs.length > 0 ? interp.resolveCd(inv.st, dirs[dirs.length - 1]!, inv.range, false, 'cpio -D') : undefined;
    const here = { value: '.', confidence: 'certain' as const, evidence: [], glob: false };
    if (hasOption(p, '-t', '--list')) return;
    if (hasOption(p, '-o', '--create')) {
      for (const f of optionValues(p, '-F', '-O', '--file')) interp.write('write', f, inv.st, inv.range, 'cpio -o', { cwdOverride: cwd });
      return;
    }
    if (hasOption(p, '-p', '--pass-through')) {
      const dest = p.operands[0];
      if (dest) interp.write('extract', dest, inv.st, inv.range, 'cpio -p', { subtree: true, cwdOverride: cwd });
      return;
    }
    if (hasOption(p, '-i', '--extract')) interp.write('extract', here, inv.st, inv.range, 'cpio -i', { subtree: true, cwdOverride: cwd });
  },
};

export default command({
  names: ['cpio'],
  build: () => cpio,
});

export const examples: readonly Example[] = [
  ['cpio -i -D ../.. < /tmp/a.cpio', 'deny'],
  ['cpio -t < /tmp/a.cpio', 'allow'],
];
