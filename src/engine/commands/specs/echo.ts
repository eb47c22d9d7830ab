import { type Example, command } from '../spec.js';
import { printingBuiltin } from '../kinds.js';

export default command({
  names: ['echo'],
  build: () => printingBuiltin,
  output(inv, interp) {
    const vals = inv.args.map((a) => a.value);
    let i = 0;
    let newline = true;
    let escapes = false;
    while (i < vals.length && /^-[neE]+$/.test(vals[i]!)) {
      for (const c of vals[i]!.slice(1)) {
        if (c === 'n') newline = false;
        else escapes = c === 'e';
      }
      i++;
    }
    const rest = vals.slice(i);
    // `-e` interprets backslash escapes (`\c` ends the output, `\057` is `/`): not computed here.
    if (escapes && rest.some((v) => v.includes('\\'))) return null;
    return rest.join(' ') + (newline ? '\n' : '');
  },
});

export const examples: readonly Example[] = [
  ['echo x > ../../x', 'deny'],
  ['touch "$(echo ../..)/x"', 'deny'],
  ['echo ../../x', 'allow'],
  ['[ "$(echo -e \'x\\c\')" = x ] || exit 0; touch ../../x', 'deny'],
];
