import { dropVar } from '../../shell/state.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const unset: CommandSpec = {
  category: 'builtin',
  silent: true,
  run(inv) {
    for (const a of inv.args) if (!a.value.startsWith('-')) dropVar(inv.st, a.value);
  },
};

export default command({
  names: ['unset'],
  build: () => unset,
});

export const examples: readonly Example[] = [
  ['X=../..; unset X; touch "$X/x"', 'ask'],
  ['X=../..; unset X; echo "$X"', 'allow'],
];
