import { HOLE } from '../../effects/types.js';
import { displayPath } from '../../shell/paths.js';
import { optionValues, parseArgs } from '../args.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const flock: CommandSpec = {
  category: 'wrapper',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'wEc', long: ['timeout', 'conflict-exit-code', 'command'], stopAtOperand: true });
    const lock = p.operands[0];
    if (lock && !/^\d+$/.test(lock.value)) interp.write('create', lock, inv.st, inv.range, 'flock');
    const ci = inv.args.findIndex((a) => a.value === '-c' || a.value === '--command');
    const c = optionValues(p, '-c', '--command')[0] ?? (ci >= 0 ? inv.args[ci + 1] : undefined);
    if (c) {
      if (c.value.includes(HOLE)) interp.dynamicProblem('flock -c runs a command string that cannot be known statically', displayPath(c.value), inv.range);
      else interp.runNested(c.value, interp.child(inv.st), inv.range, 'flock -c');
      return;
    }
    const rest = p.operandIndex.length > 1 ? inv.args.slice(p.operandIndex[1]) : [];
    if (rest.length > 0) interp.runWrapped(rest, inv.env, inv.st, inv.range, 'flock', inv.stdin);
  },
};

export default command({
  names: ['flock'],
  build: () => flock,
});

export const examples: readonly Example[] = [
  ['flock /tmp/l -c \'touch ../../x\'', 'deny'],
  ['flock /tmp/l touch x', 'allow'],
];
