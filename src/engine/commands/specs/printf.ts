import { HOLE } from '../../effects/types.js';
import { type Example, command } from '../spec.js';
import { readVar } from '../kinds.js';

export default command({
  names: ['printf'],
  build: () => ({ category: 'builtin', run: (inv, interp) => (inv.args[0]?.value === '-v' ? readVar.run(inv, interp) : undefined) }),
  output(inv, interp) {
    const vals = inv.args.map((a) => a.value);
    if (vals[0] === '-v') return '';
    const fmt = vals[0] ?? '';
    if (fmt === '%s' || fmt === '%s\n') return vals.slice(1).join('') + (fmt.endsWith('\n') ? '\n' : '');
    if (!fmt.includes('%') && !fmt.includes('\\')) return fmt;
    return HOLE;
  },
});

export const examples: readonly Example[] = [
  ['printf -v d %s ../..; touch "$d/x"', 'deny'],
  ['printf "%s\\n" x > y', 'allow'],
];
