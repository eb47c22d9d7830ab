import { type Example, command } from '../spec.js';
import { printingBuiltin } from '../kinds.js';

export default command({
  names: ['echo'],
  build: () => printingBuiltin,
  output(inv, interp) {
    const vals = inv.args.map((a) => a.value);
    let i = 0;
    let newline = true;
    while (i < vals.length && /^-[neE]+$/.test(vals[i]!)) {
      if (vals[i]!.includes('n')) newline = false;
      i++;
    }
    return vals.slice(i).join(' ') + (newline ? '\n' : '');
  },
});

export const examples: readonly Example[] = [
  ['echo x > ../../x', 'deny'],
  ['touch "$(echo ../..)/x"', 'deny'],
  ['echo ../../x', 'allow'],
];
