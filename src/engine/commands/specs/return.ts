import { type Example, type CommandSpec, command } from '../spec.js';

const ret: CommandSpec = { category: 'builtin', silent: true, run(inv) { inv.st.returned = true; } };

export default command({
  names: ['return'],
  build: () => ret,
});

export const examples: readonly Example[] = [
  ['f() { return; touch ../../x; }; f', 'allow'],
];
