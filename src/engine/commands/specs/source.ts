import { type Example, type CommandSpec, command } from '../spec.js';

const source: CommandSpec = {
  category: 'shell',
  run(inv, interp) {
    const f = inv.args[0];
    if (f) interp.sourceFile(f, inv.st, inv.range, inv.stdin);
  },
};

export default command({
  names: ['source', '.'],
  build: () => source,
});

export const examples: readonly Example[] = [
  ['source /tmp/unknown.sh', 'allow'],
];
