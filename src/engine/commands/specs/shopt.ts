import { type Example, command } from '../spec.js';
import { parseShopt } from '../option-parse.js';
import { changeOption } from '../option-change.js';

export default command({
  names: ['shopt'],
  build: () => undefined,
  shell(inv, sh) {
    const { on, setO, names } = parseShopt(inv.args.map((a) => a.value));
    if (on === null) return true;
    if (!setO && names.includes('expand_aliases')) inv.st.extras.expandAliases = on ? sh.sourceLine(inv.range) : null;
    for (const name of names) changeOption(inv, sh, name, on, !setO);
    return true;
  },
  shellPrints: true,
});

export const examples: readonly Example[] = [
  ['shopt -s nullglob; touch x', 'allow'],
  ['shopt -s expand_aliases; alias t="touch ../../x"\nt', 'deny'],
];
