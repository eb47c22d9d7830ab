import { type Example, command } from '../spec.js';
import type { Field } from '../../shell/field.js';
import { silentBuiltin } from '../kinds.js';

export default command({
  names: ['shift'],
  build: () => silentBuiltin,
  shell(inv, sh) {
    const n = inv.args[0] ? Number(inv.args[0].value) : 1;
    const all = inv.st.pos.get('@')?.array;
    if (!all || all.partial || !Number.isInteger(n)) {
      sh.setPositional(inv.st, null);
      return true;
    }
    const values = all.entries.slice(n).map(([, v]): Field => ({ value: v, confidence: 'likely', evidence: [], glob: false }));
    sh.setPositional(inv.st, values);
    return true;
  },
});

export const examples: readonly Example[] = [
  ['shift ../../README.md', 'allow'],
  ['set -- build ../..; shift; touch "$1/x"', 'deny'],
];
