/**
 * `bashguard lint` analyzes in its own process too (issue #16: "no child process for small
 * runs"). By default the lint process takes the place of one of its children: a run that would
 * have had one child has none, a run that would have had two has one beside this process, which
 * takes the smallest files from the other end of the queue (./isolated.ts). A child's start (Node's
 * boot, its bundle, its own JIT warm-up) is what is saved; the lint process otherwise only waited.
 * Measured against the code before, alternated, Intel VM, Node 20 (wall / CPU of all processes,
 * ms, medians of 15): a 2-line file 60.4 / 73.0 -> 46.7 / 46.9; a 61-line script 69.9 / 81.2 ->
 * 51.7 / 52.2; 8 scripts 77.1 / 90.5 -> 59.8 / 59.8; 25 scripts 241.8 / 273.0 -> 229.3 / 251.1.
 * The bench's 7 batches of 50 scripts (two children before, one now), Node 20: 1.31-1.42 s ->
 * 1.24-1.34 s, CPU 2.24-2.48 -> 2.03-2.22 s.
 *
 * The per-file time limit stays the kernel's. tree-sitter can run away inside one native parse
 * step (docs/limits.md), where nothing in this process can stop it; so before each file the
 * addon arms an interval timer (rerunAfter), and when it expires a SIGALRM handler written in C
 * writes one line to stderr and execs the same lint command again with BASHGUARD_LINT_ISOLATE=1,
 * which puts every file in a child process as before: that run reports the file as BG0002 and
 * lints the rest (the children of the first run see their input end, and exit). Nothing has been
 * written to stdout by then (the report is written after the last file). Where the restart
 * cannot be prepared (no addon: Windows, a build without it; stdin among the files, which cannot
 * be read twice; `--jobs N`; a command line run through `run()` rather than the `bashguard`
 * executable, as the tests do), the run uses child processes only, as before.
 */
import { envStrings, treeAddon } from '../../util/tree-addon.js';

/** Set (to anything) in a lint's environment: every file in a child process, never in this one. */
export const ISOLATE_ENV = 'BASHGUARD_LINT_ISOLATE';

/** Where ./cli-start.ts offers the command line a restart would run (two bundles share no module state). */
const OFFER = Symbol.for('bashguard.lint.rerunOffer');

interface Offer {
  path: string;
  argv: string[];
  env: Record<string, string | undefined>;
  /** othersRunning() as read by the entry, or null. */
  others: number | null;
}

type Slot = { [OFFER]?: Offer };

/**
 * Called by the lint executable's entry, which alone knows its own command line: the restart runs
 * `path argv...` (argv[0] included) with `env` and ISOLATE_ENV set.
 */
export function offerRerun(path: string, argv: string[], env: Record<string, string | undefined>, others: number | null): void {
  (globalThis as Slot)[OFFER] = { path, argv, env, others };
}

/** The other processes running as the entry read them, when it offered a restart. */
export function offeredOthers(): number | null | undefined {
  return (globalThis as Slot)[OFFER]?.others;
}

export interface RerunTimer {
  /** Arms the limit for the next file (replacing the last one). */
  arm(): void;
  /** No limit any more (the analysis is over). */
  disarm(): void;
}

/**
 * Makes the offered restart ready, for files analyzed in this process with a limit of
 * `limitSeconds` each. Null when there is no offer or it cannot be made ready (then the caller
 * uses a child process). Once per process.
 */
export function prepareRerun(limitSeconds: number): RerunTimer | null {
  const offer = (globalThis as Slot)[OFFER];
  if (!offer || !(limitSeconds > 0 && limitSeconds <= 86400)) return null;
  delete (globalThis as Slot)[OFFER];
  let addon: Record<string, unknown>;
  try {
    addon = treeAddon();
  } catch {
    return null;
  }
  const prepare = addon.prepareRerun;
  const after = addon.rerunAfter;
  if (typeof prepare !== 'function' || typeof after !== 'function') return null;
  const env = envStrings({ ...offer.env, [ISOLATE_ENV]: '1' });
  const note = `bashguard: a file ran past --timeout (${limitSeconds} s) in the lint process; running the lint again with each file in a child process\n`;
  // A string with a NUL inside cannot be passed to execve: the addon refuses, and a child is used.
  if ((prepare as (p: string, a: string[], e: string[], n: string) => boolean)(offer.path, offer.argv, env, note) !== true) return null;
  const set = after as (seconds: number) => boolean;
  if (set(0) !== true) return null;
  return {
    arm: () => {
      set(limitSeconds);
    },
    disarm: () => {
      set(0);
    },
  };
}
