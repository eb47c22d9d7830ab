/** The directory stack of `pushd`/`popd`/`dirs`, as the builtins' shell-level parts (specs/pushd.ts, specs/popd.ts) move it. */
import type { BuiltinHost, Invocation } from './context.js';
import { cloneState, type CwdValue, type State } from '../shell/state.js';

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

/**
 * How a `cd` (pushd, popd) to `next` can end. `enters`: every candidate is a directory the host can
 * enter now, which nothing before may have changed; `fails`: none is (nothing there, or no
 * directory); else either, with the candidates it certainly cannot enter left out. `mayRefuse`:
 * the builtin may refuse its arguments whatever the directory (`cd a b`: bash 5 fails, bash 3.2
 * goes to a). `fallback`: where `next` holds alternatives bash tries in turn (CDPATH, cdable_vars),
 * the one it ends with; the cd succeeds for certain when that one can be entered.
 */
export function cdOutcome(sh: Pick<BuiltinHost, 'enterable'>, next: CwdValue, mayRefuse = false, fallback: CwdValue = next): { kind: 'enters' | 'fails' | 'either'; next: CwdValue } {
  if (next.paths === null) return { kind: 'either', next };
  const can = next.paths.map((p) => sh.enterable(p));
  if (can.every((c) => c === false)) return { kind: 'fails', next };
  const paths = next.paths.filter((_, i) => can[i] !== false);
  const kept = paths.length === next.paths.length ? next : { ...next, paths };
  if (!mayRefuse && (fallback === next ? can.every((c) => c === true) : fallback.paths?.every((p) => sh.enterable(p) === true))) return { kind: 'enters', next: kept };
  return { kind: 'either', next: kept };
}

/**
 * Moves the cwd as a `cd` does (`move` changes the stack too, for pushd and popd, then sets the
 * cwd): where it may fail, the shell also goes on where it was, cwd, $OLDPWD and stack unchanged,
 * with status 1 (CommandContext#mayFail); where it certainly fails, only there (status 1); where it
 * certainly succeeds, status 0.
 */
export function changeDir(sh: Pick<BuiltinHost, 'enterable' | 'mayFail' | 'exitStatus' | 'cdMayFail'>, st: State, next: CwdValue, move: (next: CwdValue) => void, mayRefuse = false, fallback: CwdValue = next): void {
  if (!sh.cdMayFail) {
    move(next);
    return;
  }
  const outcome = cdOutcome(sh, next, mayRefuse, fallback);
  if (outcome.kind === 'fails') {
    sh.exitStatus(false);
    return;
  }
  const failure = outcome.kind === 'either' ? cloneState(st) : null;
  move(outcome.next);
  if (failure !== null) sh.mayFail(st, failure);
  else sh.exitStatus(true);
}
