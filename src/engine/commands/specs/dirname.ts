import { HOLE } from '../../effects/types.js';
import { dirnameOf } from '../../shell/paths.js';
import { type Example, command } from '../spec.js';
import { readOnly } from '../kinds.js';

/** dirname of a value that may hold unknown stretches: unknown text may contain more `/`. */
function dirnameOfValue(v: string): string {
  const slash = v.lastIndexOf('/');
  if (!v.includes(HOLE)) return dirnameOf(v);
  if (slash < 0) return HOLE;
  const base = v.slice(slash + 1);
  if (base.includes(HOLE)) return (slash === 0 ? '/' : v.slice(0, slash)) + HOLE;
  return dirnameOf(v);
}

export default command({
  names: ['dirname'],
  build: () => readOnly,
  output(inv, interp) {
    const vals = inv.args.map((a) => a.value);
    return vals.filter((v) => !v.startsWith('-')).map(dirnameOfValue).join('\n') + '\n';
  },
});

export const examples: readonly Example[] = [
  ['touch "$(dirname "$(pwd)")/b2/x"', 'deny'],
  ['dirname ../../x', 'allow'],
];
