import { SET_LETTERS } from '../../shell/shell-options.js';
import { type Example, command } from '../spec.js';
import { printingBuiltin } from '../kinds.js';
import { parseSet } from '../option-parse.js';
import { changeOption } from '../option-change.js';

export default command({
  names: ['set'],
  build: () => printingBuiltin,
  /** `set -- a b`: the positional parameters; `set -P`, `set -o physical` ...: options (src/engine/shell/shell-options.ts). */
  shell(inv, sh) {
    const args = inv.args;
    const { changes, positional } = parseSet(args.map((a) => a.value));
    for (const c of changes) {
      const name = c.name ?? SET_LETTERS[c.letter!];
      if (name) changeOption(inv, sh, name, c.on, false);
    }
    if (positional !== null) sh.setPositional(inv.st, args.slice(positional));
    return true;
  },
  shellPrints: true,
});

export const examples: readonly Example[] = [
  ['set -euo pipefail; touch x', 'allow'],
  ['set -- ../..; touch "$1/x"', 'deny'],
];
