import type { CwdValue } from '../../shell/state.js';
import { type Example, type CommandSpec, type ShellHandler, command } from '../spec.js';
import { changeDir, dirsList, setDirs, stackIndex } from '../dir-stack.js';

const popd: CommandSpec = {
  category: 'builtin',
  run(inv, interp) {
    const args = inv.args.filter((a) => a.value !== '-n');
    if (args[0] && /^[+-]\d+$/.test(args[0].value)) {
      inv.st.dirStack = [];
      return;
    }
    const top = inv.st.dirStack[inv.st.dirStack.length - 1];
    const next: CwdValue = top ?? { paths: null, confidence: 'possible', evidence: [{ range: inv.range, note: '`popd` with a directory stack not known statically' }], changed: true };
    // A directory it cannot enter (removed since the push): bash says so, and the stack and the cwd stay.
    changeDir(interp, inv.st, next, (to) => {
      inv.st.dirStack.pop();
      interp.setCwd(inv.st, { ...to, evidence: [...to.evidence, { range: inv.range, note: `cwd returned to ${to.paths?.join(', ') ?? 'an unknown directory'} at \`popd\` (${inv.range.line}:${inv.range.column})` }], changed: true }, inv.range, 'popd');
    });
  },
};

const popdShell: ShellHandler = (inv, sh) => {
  const args = inv.args.filter((a) => a.value !== '-n');
  const t = args[0];
  if (!t || !/^[+-]\d+$/.test(t.value)) return false;
  const list = dirsList(inv.st);
  const i = stackIndex(t.value, list.length);
  if (i === null || i < 0) return true;
  if (i === 0 && args.length !== inv.args.length) {
    inv.st.dirStack = list.slice(2).reverse();
    return true;
  }
  const rest = [...list.slice(0, i), ...list.slice(i + 1)];
  if (rest.length === 0) return true;
  setDirs(inv, sh, rest, `popd ${t.value}`);
  return true;
};

export default command({
  names: ['popd'],
  build: () => popd,
  shell: popdShell,
  shellPrints: true,
});

export const examples: readonly Example[] = [
  ['pushd build && popd && touch x', 'allow'],
  ['pushd ../.. && pushd /tmp && popd && touch x', 'deny'],
];
