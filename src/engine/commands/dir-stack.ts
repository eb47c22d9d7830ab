/** The directory stack of `pushd`/`popd`/`dirs`, as the builtins' shell-level parts (specs/pushd.ts, specs/popd.ts) move it. */
import type { BuiltinHost, Invocation } from './context.js';
import type { CwdValue } from '../shell/state.js';

/** The directory stack as `dirs` prints it: the cwd first, then the most recent push. */
export function dirsList(st: Invocation['st']): CwdValue[] {
  return [st.cwd, ...st.dirStack.slice().reverse()];
}

export function setDirs(inv: Invocation, sh: BuiltinHost, list: CwdValue[], label: string): void {
  inv.st.dirStack = list.slice(1).reverse();
  if (list[0] !== inv.st.cwd) sh.setCwd(inv.st, { ...list[0]!, changed: true }, inv.range, label);
}

/** `pushd +N` / `pushd -N` rotate the stack; `popd +N` / `popd -N` remove an entry. */
export function stackIndex(arg: string, length: number): number | null {
  const m = /^([+-])(\d+)$/.exec(arg);
  if (!m) return null;
  const n = Number(m[2]);
  const i = m[1] === '+' ? n : length - 1 - n;
  return i >= 0 && i < length ? i : -1;
}
