import { HOLE } from '../../effects/types.js';
import { hasOption, optionValues, parseArgs } from '../args.js';
import { patchTargets, patchText } from '../patch-files.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const patch: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'dioprBDFVYz', long: ['directory', 'input', 'output', 'strip', 'reject-file', 'prefix', 'suffix', 'backup-if-mismatch'] });
    if (hasOption(p, '--dry-run')) return;
    const dirs = optionValues(p, '-d', '--directory');
    const cwd = dirs.length > 0 ? interp.resolveCd(inv.st, dirs[0]!, inv.range, false) : undefined;
    const out = optionValues(p, '-o', '--output');
    for (const o of out) if (o.value !== '-') interp.write('write', o, inv.st, inv.range, 'patch -o', { cwdOverride: cwd });
    if (out.length > 0) return;
    if (p.operands[0]) {
      interp.write('modify', p.operands[0], inv.st, inv.range, 'patch', { cwdOverride: cwd });
      return;
    }
    // The files named inside the patch (-i FILE, or stdin), relative to the (possibly -d) directory.
    const stripValue = optionValues(p, '-p', '--strip')[0]?.value;
    const strip = stripValue === undefined ? null : Number(stripValue);
    const text = patchText(inv, interp, optionValues(p, '-i', '--input')[0]);
    const targets = text === null || (strip !== null && !Number.isInteger(strip)) ? null : patchTargets(text, strip);
    if (targets) {
      for (const t of targets.slice(0, 64)) interp.write('modify', { value: t, confidence: 'likely', evidence: [{ range: inv.range, note: `the patch changes ${t}` }], glob: false }, inv.st, inv.range, 'patch', { cwdOverride: cwd });
      return;
    }
    interp.write('modify', { value: `./${HOLE}`, confidence: 'certain', evidence: [], glob: false }, inv.st, inv.range, 'patch', { cwdOverride: cwd, subtree: true, tree: true });
  },
};

export default command({
  names: ['patch'],
  build: () => patch,
});

export const examples: readonly Example[] = [
  ['patch -p1 < /tmp/unknown.diff', 'ask'],
  ['patch README.md /tmp/x.diff', 'allow'],
  ['patch -d ../.. -p1 < /tmp/x.diff', 'deny'],
];
