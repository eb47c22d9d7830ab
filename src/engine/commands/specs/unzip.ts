import { HOLE } from '../../effects/types.js';
import { basenameOf, joinPath } from '../../shell/paths.js';
import { hasOption, optionValues, parseArgs } from '../args.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const unzip: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'dxP', stopAtOperand: false });
    if (hasOption(p, '-l', '-t', '-v', '-p', '-c', '-Z', '-z')) return;
    const d = optionValues(p, '-d');
    const target = d[d.length - 1] ?? { value: '.', confidence: 'certain' as const, evidence: [], glob: false };
    // `unzip a.zip MEMBER...`: only those members (their base names with -j) are written.
    const members = p.operands.slice(1);
    if (members.length > 0 && members.every((m) => !m.value.includes(HOLE) && !m.glob && !/[*?[]/.test(m.value)) && !hasOption(p, '-x')) {
      const junk = hasOption(p, '-j');
      for (const m of members) interp.write('write', { ...m, value: joinPath(target.value, junk ? basenameOf(m.value) : m.value.replace(/^\/+/, '')) }, inv.st, inv.range, 'unzip', { subtree: !junk });
      return;
    }
    interp.write('extract', target, inv.st, inv.range, 'unzip', { subtree: true });
  },
};

export default command({
  names: ['unzip'],
  build: () => unzip,
});

export const examples: readonly Example[] = [
  ['unzip -o /tmp/a.zip', 'ask'],
  ['unzip -o /tmp/a.zip -d build', 'allow'],
  ['unzip -l /tmp/a.zip', 'allow'],
  ['unzip /tmp/a.zip README.md', 'allow'],
];
