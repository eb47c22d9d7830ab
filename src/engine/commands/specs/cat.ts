import { type Example, command } from '../spec.js';
import { readOnly } from '../kinds.js';

export default command({
  names: ['cat'],
  build: () => readOnly,
  output(inv, interp) {
    const vals = inv.args.map((a) => a.value);
    if ((vals.length === 0 || (vals.length === 1 && vals[0] === '-')) && inv.stdin.kind === 'text') return inv.stdin.text;
    return null;
  },
});

export const examples: readonly Example[] = [
  ['cat ../../README.md', 'allow'],
  ['cat <<EOF | bash\ntouch ../../x\nEOF', 'deny'],
];
