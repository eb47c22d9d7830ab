/**
 * Lint with a time limit per file. tree-sitter can spend unbounded time inside one native parse
 * step on some malformed input (docs/limits.md); nothing in the process running it can stop it,
 * and a Node worker stuck in native code even blocks process exit. So the files are analyzed in
 * child processes (one per 16 files up to the number of CPUs, not one per file: `--jobs`), each
 * given one file at a time and reporting its result back; when a file runs past the limit its
 * child is killed, that file gets a BG0002 finding, and a new child carries on with the next file.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import type { BackendChoice } from '../parse/index.js';
import { packagePath } from '../util/package-root.js';
import { fingerprint, type FileResult, type Linter, type LintOptions } from './lint.js';

export interface LintJob {
  path: string;
  display: string;
  stdinText?: string;
  stdinPath?: string;
}

export interface WorkerInit {
  type: 'init';
  parser: BackendChoice | undefined;
  opts: Omit<LintOptions, 'fs'>;
  displayCwd: string;
}

export type WorkerRequest = WorkerInit | ({ type: 'file'; index: number } & LintJob);
export type WorkerReply = { type: 'result'; index: number; result: FileResult };

/** The command the child runs (hidden from --help): see registerLintWorker in src/cli. */
export const LINT_WORKER_COMMAND = '__lint-worker';

/**
 * The child's entry: the lean worker bundle (dist/lint-worker.cjs, src/lint/worker-main.ts) when
 * it is built, which starts ~3x faster than the full CLI, loaded through the V8 code cache by
 * dist/lint-worker-start.cjs (./worker-start.ts); else the CLI's hidden command (running from
 * src/ under a test runner).
 */
function workerEntry(): string {
  for (const lean of [packagePath('dist', 'lint-worker-start.cjs'), packagePath('dist', 'lint-worker.cjs')]) if (existsSync(lean)) return lean;
  return packagePath('bin', 'bashguard.js');
}
function workerArgs(): string[] {
  return workerEntry().endsWith('.cjs') ? [] : [LINT_WORKER_COMMAND];
}

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

/**
 * How many child processes a run of `files` files gets by default: one per 16 files, up to the
 * machine's parallelism and 4, and one while the machine is already busy (load average over the
 * last minute at or above its CPU count, as `make -l`). A child costs ~0.1 s of CPU to start and
 * warms up its own JIT: on two cores the 320 scripts took 20% more CPU in two children than in
 * one, which pays off only when a core is free (and costs wall time when none is).
 */
export function defaultWorkers(files: number, cpus: number = availableParallelism(), load: number = loadavg()[0] ?? 0): number {
  if (load >= cpus) return 1;
  return Math.max(1, Math.min(cpus, 4, Math.floor(files / 16)));
}

export async function lintIsolated(
  jobs: LintJob[],
  init: Omit<WorkerInit, 'type'>,
  /** Builds the result for a file whose analysis was stopped or crashed (no parsing). */
  parent: Linter,
  limitSeconds: number,
  env: Record<string, string | undefined>,
  onStart: (index: number) => void,
  /** Child processes working at the same time, each on one file at a time. */
  workers = 1,
): Promise<FileResult[]> {
  const results: FileResult[] = new Array(jobs.length);
  // Files are handed out one at a time, in order, to whichever child is free; each result goes
  // to its index, so the output does not depend on which child analyzed what.
  let next = 0;
  const take = (): number | null => (next < jobs.length ? next++ : null);
  const runner = async (): Promise<void> => {
    let first = take();
    while (first !== null) {
      const stopped = await runChild(jobs, first, take, init, limitSeconds, env, results, onStart);
      if (stopped === null) return;
      // The child was stopped, or died, on this file: its result says so, and a new child
      // carries on with the next file.
      const j = jobs[stopped.index]!;
      results[stopped.index] = parent.lintFile(j.path, j.display, j.stdinText, j.stdinPath, stopped.why);
      first = take();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, jobs.length)) }, runner));
  return results;
}

/**
 * Runs one child on `first`, then on each file `take` hands out, until there is none left
 * (resolves null) or the child is stopped or dies on a file (resolves with its index and why).
 */
function runChild(
  jobs: LintJob[],
  first: number,
  take: () => number | null,
  init: Omit<WorkerInit, 'type'>,
  limitSeconds: number,
  env: Record<string, string | undefined>,
  results: FileResult[],
  onStart: (index: number) => void,
): Promise<{ index: number; why: string } | null> {
  return new Promise((resolve) => {
    const child: ChildProcess = fork(workerEntry(), workerArgs(), {
      execArgv: [...process.execArgv, ...workerV8Flags()],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: env as NodeJS.ProcessEnv,
    });
    let current: number | null = first;
    let timer: NodeJS.Timeout | null = null;
    let done = false;
    const finish = (why: string | null) => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      if (why === null && child.connected) {
        // Every file answered: the child ends by itself once disconnected (and writes its code
        // cache, ./worker-start.ts) while this process formats the output; a child that does
        // not end within a few seconds is killed.
        const stop = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => clearTimeout(stop));
        child.disconnect();
      } else child.kill('SIGKILL');
      resolve(why === null || current === null ? null : { index: current, why });
    };
    const send = (msg: WorkerRequest) => child.send(msg, (err) => err && finish(`the analysis process could not be reached (${err.message})`));
    const timedOut = `analysis did not finish within ${limitSeconds} s and was stopped (tree-sitter can run away on some malformed input; docs/limits.md)`;
    // The child has one file at a time, which gets the full limit from the moment it is sent.
    const start = () => {
      if (timer) clearTimeout(timer);
      if (current === null) return finish(null);
      onStart(current);
      send({ type: 'file', index: current, ...jobs[current]! });
      timer = setTimeout(() => finish(timedOut), limitSeconds * 1000);
    };
    child.on('message', (m: WorkerReply) => {
      if (done || m.type !== 'result' || m.index !== current) return;
      results[current] = { ...m.result, findings: fingerprint(m.result.findings, m.result.source) };
      current = take();
      start();
    });
    child.on('exit', (code, signal) => finish(`the analysis process ended (${signal ?? `exit ${code}`}) on this file`));
    child.on('error', (err) => finish(`the analysis process failed (${err.message})`));
    send({ type: 'init', ...init });
    start();
  });
}
