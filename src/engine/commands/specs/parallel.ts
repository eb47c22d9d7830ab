import { HOLE } from '../../effects/types.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const parallel: CommandSpec = {
  category: 'wrapper',
  run(inv, interp) {
    const idx = inv.args.findIndex((a) => a.value === ':::' || a.value === '::::');
    const cmd = (idx >= 0 ? inv.args.slice(0, idx) : inv.args).filter((a) => !a.value.startsWith('-'));
    if (cmd.length === 0) return;
    const values = idx >= 0 ? inv.args.slice(idx + 1) : [];
    const items = values.length > 0 && values.length <= 16 ? values : [{ value: HOLE, confidence: 'possible' as const, evidence: [], glob: false }];
    for (const it of items) {
      const argv = cmd.some((f) => f.value.includes('{}')) ? cmd.map((f) => ({ ...f, value: f.value.split('{}').join(it.value) })) : [...cmd, it];
      if (argv.length === 1 && argv[0]!.value.includes(' ')) interp.runNested(argv[0]!.value, interp.child(inv.st), inv.range, 'parallel');
      else interp.runWrapped(argv, inv.env, inv.st, inv.range, 'parallel', { kind: 'unknown' });
    }
  },
};

export default command({
  names: ['parallel'],
  build: () => parallel,
});

export const examples: readonly Example[] = [
  ['parallel rm ::: ../../x', 'deny'],
  ['parallel rm ::: x', 'allow'],
];
