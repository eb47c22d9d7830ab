/**
 * Commands handed to a process that is already running elsewhere (issue #51 item 4): a tmux or
 * screen server, the docker daemon, systemd, atd, cron, an ssh server. The code does not run in
 * this shell: it runs in the daemon's cwd, with the daemon's rights, outside any sandbox this call
 * runs in. So the call is never allowed silently (a problem: ask, naming the daemon), and where
 * the code is literal and runs on this machine it is analyzed from the cwd the daemon uses (unknown
 * unless the command fixes it: a relative path from an unknown cwd is unresolved, not safe).
 */
import { HOLE } from '../effects/types.js';
import type { Field } from '../shell/field.js';
import { displayPath } from '../shell/paths.js';
import type { CommandContext, Invocation, Stdin } from './context.js';

export interface Handover {
  /** Who runs the code, for the message: `the tmux server`, `atd`. */
  daemon: string;
  /** The command as the message shows it: `tmux new-window`. */
  what: string;
  /** The code as shell text; null when not known (a file, stdin, an unknown word). */
  code: string | null;
  /**
   * The cwd the daemon runs the code in: an absolute path, `here` (the current cwd: `at`,
   * `systemd-run --same-dir`), or null (unknown: the server's own cwd).
   */
  cwd: string | 'here' | null;
  /** The code runs on another machine (or may): it is not analyzed for paths here. */
  remote?: boolean;
  stdin?: Stdin;
}

/** A word list as shell text (`tmux new-window touch x` runs `touch x`). */
export function shellWords(words: readonly Field[]): string {
  return words.map((w) => (/^[A-Za-z0-9_./=:@%+,-]+$/.test(w.value) ? w.value : `'${w.value.replace(/'/g, `'\\''`)}'`)).join(' ');
}

export function handOver(inv: Invocation, interp: CommandContext, h: Handover): void {
  const shown = h.code === null ? h.what : displayPath(h.code.length > 120 ? `${h.code.slice(0, 117)}...` : h.code);
  const where = h.remote ? 'on the host it names' : h.cwd === 'here' ? 'in this directory' : h.cwd ? `in ${displayPath(h.cwd)}` : "in the daemon's own directory";
  interp.dynamicProblem(`\`${h.what}\` hands its command to ${h.daemon}, which runs it outside this shell: ${where}, with the daemon's rights, outside any sandbox this call runs in`, shown, inv.range, true);
  if (h.code === null || h.remote) return;
  if (h.code.includes(HOLE)) return;
  const st = interp.child(inv.st);
  if (h.cwd === null) st.cwd = { paths: null, confidence: 'possible', evidence: [{ range: inv.range, note: `${h.daemon} runs it in its own cwd, not known here` }], changed: true };
  else if (h.cwd !== 'here') st.cwd = { paths: [h.cwd], confidence: 'certain', evidence: [{ range: inv.range, note: `${h.daemon} runs it in ${displayPath(h.cwd)}` }], changed: true };
  interp.runNested(h.code, st, inv.range, `${h.what} (run by ${h.daemon})`, h.stdin ?? { kind: 'unknown' });
}
