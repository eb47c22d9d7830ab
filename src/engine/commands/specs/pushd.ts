import { displayPath } from '../../shell/paths.js';
import { type Example, type CommandSpec, type ShellHandler, command } from '../spec.js';
import { changeDir, dirsList, setDirs, stackIndex } from '../dir-stack.js';

const pushd: CommandSpec = {
  category: 'builtin',
  run(inv, interp) {
    const args = inv.args.filter((a) => a.value !== '-n');
    const noChdir = args.length !== inv.args.length;
    const t = args[0];
    const label = `pushd ${args.map((a) => displayPath(a.value)).join(' ')}`.trim();
    if (noChdir && t && !/^[+-]\d+$/.test(t.value)) {
      // `pushd -n DIR`: DIR goes on the stack, the cwd stays.
      inv.st.dirStack.push(interp.resolveCd(inv.st, t, inv.range, false));
      return;
    }
    if (!t) {
      const top = inv.st.dirStack[inv.st.dirStack.length - 1];
      if (top) {
        changeDir(interp, inv.st, top, (to) => {
          inv.st.dirStack.pop();
          inv.st.dirStack.push(inv.st.cwd);
          interp.setCwd(inv.st, to, inv.range, label);
        });
      }
      return;
    }
    if (/^[+-]\d+$/.test(t.value)) {
      interp.setCwd(inv.st, { paths: null, confidence: 'possible', evidence: [{ range: inv.range, note: `\`${label}\` rotates the directory stack` }], changed: true }, inv.range, label);
      return;
    }
    const next = interp.resolveCd(inv.st, t, inv.range, false);
    // A directory it cannot enter: bash says so, and the stack and the cwd stay.
    changeDir(interp, inv.st, next, (to) => {
      inv.st.dirStack.push(inv.st.cwd);
      interp.setCwd(inv.st, to, inv.range, label);
    });
  },
};

const pushdShell: ShellHandler = (inv, sh) => {
  const args = inv.args.filter((a) => a.value !== '-n');
  const t = args[0];
  if (!t || !/^[+-]\d+$/.test(t.value)) return false;
  const list = dirsList(inv.st);
  const i = stackIndex(t.value, list.length);
  if (i === null || i < 0) return true; // out of range: bash refuses, nothing moves
  if (args.length !== inv.args.length) return true; // -n: no rotation of the cwd
  setDirs(inv, sh, [...list.slice(i), ...list.slice(0, i)], `pushd ${t.value}`);
  return true;
};

export default command({
  names: ['pushd'],
  build: () => pushd,
  shell: pushdShell,
  shellPrints: true,
});

export const examples: readonly Example[] = [
  ['pushd ../.. && touch x', 'deny'],
  ['pushd build && touch x', 'allow'],
];
