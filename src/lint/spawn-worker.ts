/**
 * Starting a lint child process (the other side: ./worker.ts), shared by ./isolated.ts and the
 * lint start-up entry (./cli-start.ts), which starts the first child before it loads the CLI.
 *
 * The channel is two pipes, one JSON message per line: requests on the child's stdin, replies on
 * its descriptor 3 (its stdout is discarded, as before, so nothing it prints can garble a reply).
 * Not Node's IPC channel:
 * a child forked with IPC loads node:child_process, node:net and the stream modules to set the
 * channel up before it runs a line of bashguard (~10 ms of every child's start, measured against
 * the same child with two pipes), while the worker reads and writes its two descriptors with
 * plain blocking fs calls.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** The command the child runs (hidden from --help): see registerLintWorker in src/cli. */
export const LINT_WORKER_COMMAND = '__lint-worker';

/**
 * V8 flags for the child: TurboFan (V8's optimizing tier) starts 16x later than by default. The
 * interpreter's code is polymorphic (one function per IR node kind, many object shapes); in a
 * lint run of a few hundred files TurboFan spent more CPU compiling and deoptimizing lukewarm
 * functions than its code saved, while the really hot ones still get optimized. Measured on the
 * machine's shell scripts in one process (bench/README.md): 100 scripts 2.5-3.0 -> 2.6 s CPU
 * (Node 20), 3.6 -> 2.4 s (Node 22); 320 and 640 scripts 15% faster. The flag differs by V8
 * line and an unknown flag stops Node, so only the lines it was measured on get one. Findings
 * do not depend on it.
 */
export function workerV8Flags(v8Version: string = process.versions.v8): string[] {
  const major = Number(v8Version.split('.')[0]);
  if (major === 11) return ['--interrupt-budget=1048576']; // Node 20 (default 67584)
  if (major === 12 || major === 13) return ['--invocation-count-for-turbofan=48000']; // Node 22, 24 (default 3000)
  return [];
}

/** The child's descriptor for replies. */
export const REPLY_FD = 3;

/**
 * A lint child running `entry` (dist/lint-worker-start.cjs, or the CLI with its hidden
 * LINT_WORKER_COMMAND): requests on its stdin, replies on REPLY_FD; stderr is this process's.
 */
export function spawnWorker(env: Record<string, string | undefined>, entry: string): ChildProcess {
  return spawn(process.execPath, [...process.execArgv, ...workerV8Flags(), entry, ...(entry.endsWith('.cjs') ? [] : [LINT_WORKER_COMMAND])], {
    stdio: ['pipe', 'ignore', 'inherit', 'pipe'],
    env: env as NodeJS.ProcessEnv,
  });
}

/** Where ./cli-start.ts leaves the child it started early (two bundles share no module state). */
const PRESTARTED = Symbol.for('bashguard.lint.prestartedWorker');
type Slot = { [PRESTARTED]?: { child: ChildProcess; env: Record<string, string | undefined> } };

/** Starts a child now, for the run that is about to begin; `takePrestarted` hands it over. */
export function prestartWorker(env: Record<string, string | undefined>, entry: string): void {
  try {
    (globalThis as Slot)[PRESTARTED] = { child: spawnWorker(env, entry), env };
  } catch {
    // Nothing is lost: the run starts its own children.
  }
}

/** The child started early, if there is one and it was started with `env`; once. */
export function takePrestarted(env: Record<string, string | undefined>): ChildProcess | null {
  const slot = (globalThis as Slot)[PRESTARTED];
  if (!slot) return null;
  delete (globalThis as Slot)[PRESTARTED];
  if (slot.env !== env || slot.child.exitCode !== null || slot.child.signalCode !== null) {
    slot.child.kill('SIGKILL');
    return null;
  }
  return slot.child;
}

/** Ends a child started early that the run did not use (usage error, nothing to lint, ...). */
export function dropPrestarted(): void {
  const slot = (globalThis as Slot)[PRESTARTED];
  if (!slot) return;
  delete (globalThis as Slot)[PRESTARTED];
  slot.child.kill('SIGKILL');
}

/**
 * Whether a `bashguard lint` command line will run its files in child processes: not with
 * `--timeout 0` (in this process), `--help` or `--version`. A guess from argv before the CLI
 * parses it; a wrong guess costs one child that `dropPrestarted` ends.
 */
export function argvWantsWorkers(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a === '-h' || a === '--help' || a === '-V' || a === '--version') return false;
    if (a === '--timeout' && Number(argv[i + 1]) === 0) return false;
    if (a.startsWith('--timeout=') && Number(a.slice('--timeout='.length)) === 0) return false;
  }
  return true;
}
