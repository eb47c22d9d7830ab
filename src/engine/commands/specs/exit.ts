import { type Example, type CommandSpec, command } from '../spec.js';

const exit: CommandSpec = { category: 'builtin', silent: true, run(inv) { inv.st.terminated = true; } };

export default command({
  names: ['exit', 'logout'],
  build: () => exit,
});

export const examples: readonly Example[] = [
  ['exit 0; touch ../../x', 'allow'],
  ['touch ../../x; exit 0', 'deny'],
];
