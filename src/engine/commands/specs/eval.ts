import { HOLE } from '../../effects/types.js';
import { displayPath } from '../../shell/paths.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const evalSpec: CommandSpec = {
  category: 'shell',
  run(inv, interp) {
    const src = inv.args.map((a) => a.value).join(' ');
    if (src.includes(HOLE)) {
      interp.dynamicProblem('eval of a string that cannot be known statically', displayPath(src), inv.range);
      return;
    }
    interp.runNested(src, inv.st, inv.range, 'eval');
  },
};

export default command({
  names: ['eval'],
  build: () => evalSpec,
});

export const examples: readonly Example[] = [
  ['eval \'touch ../../x\'', 'deny'],
  ['eval \'touch x\'', 'allow'],
];
