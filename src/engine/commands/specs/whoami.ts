import { type Example, command } from '../spec.js';
import { readOnly } from '../kinds.js';

export default command({
  names: ['whoami'],
  build: () => readOnly,
  output(inv, interp) {
    return inv.st.vars.get('USER')?.value ? inv.st.vars.get('USER')!.value + '\n' : null;
  },
});

export const examples: readonly Example[] = [
  ['whoami', 'allow'],
];
