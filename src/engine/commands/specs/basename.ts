import { basenameOf } from '../../shell/paths.js';
import { type Example, command } from '../spec.js';
import { readOnly } from '../kinds.js';

export default command({
  names: ['basename'],
  build: () => readOnly,
  output(inv, interp) {
    const vals = inv.args.map((a) => a.value);
    const ops = vals.filter((v) => !v.startsWith('-'));
    if (ops.length === 0) return null;
    let b = basenameOf(ops[0]!);
    if (ops[1] && b.endsWith(ops[1])) b = b.slice(0, -ops[1].length);
    return b + '\n';
  },
});

export const examples: readonly Example[] = [
  ['touch "../../$(basename /a/x)"', 'deny'],
  ['basename ../../x', 'allow'],
];
