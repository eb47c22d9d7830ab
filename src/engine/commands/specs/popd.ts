import type { CwdValue } from '../../shell/state.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const popd: CommandSpec = {
  category: 'builtin',
  run(inv, interp) {
    const args = inv.args.filter((a) => a.value !== '-n');
    if (args[0] && /^[+-]\d+$/.test(args[0].value)) {
      inv.st.dirStack = [];
      return;
    }
    const top = inv.st.dirStack.pop();
    const next: CwdValue = top ?? { paths: null, confidence: 'possible', evidence: [{ range: inv.range, note: '`popd` with a directory stack not known statically' }], changed: true };
    interp.setCwd(inv.st, { ...next, evidence: [...next.evidence, { range: inv.range, note: `cwd returned to ${next.paths?.join(', ') ?? 'an unknown directory'} at \`popd\` (${inv.range.line}:${inv.range.column})` }], changed: true }, inv.range, 'popd');
  },
};

export default command({
  names: ['popd'],
  build: () => popd,
});

export const examples: readonly Example[] = [
  ['pushd build && popd && touch x', 'allow'],
  ['pushd ../.. && pushd /tmp && popd && touch x', 'deny'],
];
