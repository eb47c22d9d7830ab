/**
 * The hook's wall-clock limit, enforced by the kernel (`bashguard hook --time-limit SECONDS`, what
 * bin/bashguard-hook runs). tree-sitter can spend unbounded time inside one native parse step
 * (docs/limits.md), where no JavaScript timer runs, so the limit cannot be a timer of this
 * process. It is an interval timer: when it expires the kernel sends SIGALRM, whose action the
 * addon has reset to the default one, and the process ends (status 142 to the shell) whatever it
 * is doing, exactly as if coreutils' `timeout` had killed it. The supervisor then answers as for
 * any command that cannot be analyzed (`bashguard hook --unfinished`). Armed before the hook reads
 * its input, so a stalled read (stdin never closed, a config file that is a FIFO) is stopped too.
 *
 * Why not `timeout`: around the hook it was a second exec and a fork on every tool call (~1.2 ms,
 * 4% of the hook's start, docs/history/performance.md). Without the addon (not built at install, Windows),
 * arming fails and the supervisor runs the hook under `timeout` as before.
 */
import { treeAddon } from './tree-addon.js';

/** Exit status of `bashguard hook --time-limit` when the limit cannot be armed (nothing is analyzed). */
export const TIME_LIMIT_UNAVAILABLE = 3;

let armed = false;

/**
 * Arms the limit `raw` (a number of seconds, as given on the command line) for this process, once:
 * a second call keeps the first deadline. Returns null when armed, else why not (one line).
 */
export function armTimeLimit(raw: string): string | null {
  const seconds = Number(raw);
  if (!(seconds > 0 && seconds <= 86400)) return `--time-limit takes a number of seconds (more than 0, at most 86400), got ${JSON.stringify(raw)}`;
  if (armed) return null;
  let arm: unknown;
  try {
    arm = treeAddon().armTimeLimit;
  } catch (err) {
    return `--time-limit needs bashguard's native addon: ${(err as Error).message.split('\n')[0]}`;
  }
  if (typeof arm !== 'function') return "--time-limit needs bashguard's native addon, which has no time limit on this system";
  if ((arm as (s: number) => boolean)(seconds) !== true) return '--time-limit: the system refused the interval timer';
  armed = true;
  return null;
}

/** The addon's functions that restart this process at its limit (native/tree-export.c). */
interface RestartAddon {
  prepareRerun(path: string, argv: string[], env: string[] | null, note: string): boolean;
  rerunAfter(seconds: number): boolean;
  setRerunInput(path: string | null, text?: string): boolean;
}

/**
 * The addon's restart at the limit, or why there is none here: what `hook --unsupervised` needs,
 * and what `bashguard install` checks before it writes the form that runs it.
 */
export function restartAtLimit(): RestartAddon | string {
  let addon: Record<string, unknown>;
  try {
    addon = treeAddon();
  } catch (err) {
    return `no native addon: ${(err as Error).message.split('\n')[0]}`;
  }
  if (typeof addon.prepareRerun !== 'function' || typeof addon.rerunAfter !== 'function') return 'the native addon cannot restart this process here';
  if (typeof addon.setRerunInput !== 'function') return 'the native addon cannot hand the restart its input here';
  return addon as unknown as RestartAddon;
}

/**
 * The limit for a hook run without its supervisor script (`hook --unsupervised`, the exec form
 * `bashguard install` writes for Claude Code 2.1.295 and later): when it expires, the addon's
 * SIGALRM handler writes `note` to stderr and execs `argv` in place of this process (same pid,
 * stdout and stderr; the environment as it is then; on stdin the input handRestartInput gave it,
 * else /dev/null), which answers as for a command that cannot be analyzed (`hook --unfinished`),
 * as the supervisor did after a kill. Returns null when armed, else why not; the caller then arms
 * the plain limit (a kill, which the client's `"onFailure": "block"` turns into a block).
 */
export function armTimeLimitAnswering(seconds: number, argv: string[], note: string): string | null {
  if (!(seconds > 0 && seconds <= 86400)) return `the time limit takes a number of seconds (more than 0, at most 86400), got ${seconds}`;
  if (armed) return null;
  const addon = restartAtLimit();
  if (typeof addon === 'string') return addon;
  const { prepareRerun: prepare, rerunAfter: after, setRerunInput: input } = addon;
  if (prepare(argv[0]!, argv, null, note) !== true) return 'the native addon could not prepare the restart';
  // Until the hook has its input: the restart's stdin is /dev/null, not the client's pipe.
  input(null);
  if (after(seconds) !== true) return 'the system refused the interval timer';
  armed = true;
  restartTakesInput = true;
  return null;
}

let restartTakesInput = false;

/**
 * Hands the restart armTimeLimitAnswering prepared the input this process read (the hook's
 * event): should the limit expire, the SIGALRM handler writes it to `file` (created exclusively,
 * unlinked at once) and makes that the restart's stdin. Nothing is written on the way that
 * finishes in time: this replaced a file written and removed on every call (~0.4 ms). False when
 * there is no such restart.
 */
export function handRestartInput(file: string, text: string): boolean {
  if (!restartTakesInput) return false;
  restartTakesInput = false;
  const addon = restartAtLimit();
  return typeof addon !== 'string' && addon.setRerunInput(file, text) === true;
}

/** Takes the limit off (a hook whose answer is out, run in a process that goes on: the tests). */
export function disarmTimeLimit(): void {
  if (!armed) return;
  try {
    const after = treeAddon().rerunAfter;
    if (typeof after === 'function' && (after as (s: number) => boolean)(0) === true) armed = false;
  } catch {
    // no addon: nothing was armed through it
  }
}

/**
 * `hook --time-limit` for both of its parsers (the fast path in src/frontends/cli/hook-main.ts, commander in
 * src/frontends/cli/program.ts): arms the limit, or writes why not as one line and returns the exit status
 * the hook then ends with (TIME_LIMIT_UNAVAILABLE); null when armed.
 */
export function armOrRefuse(raw: string, stderr: (text: string) => void): number | null {
  const why = armTimeLimit(raw);
  if (why === null) return null;
  stderr(`bashguard: ${why}\n`);
  return TIME_LIMIT_UNAVAILABLE;
}
