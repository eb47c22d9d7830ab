/**
 * Lint with a time limit per file. tree-sitter can spend unbounded time inside one native parse
 * step on some malformed input (docs/limits.md); nothing in the process running it can stop it,
 * and a Node worker stuck in native code even blocks process exit. So the files are analyzed in a
 * child process (one for the whole run, not one per file), which reports each result back; when
 * a file runs past the limit the child is killed, that file gets a BG0002 finding, and a new
 * child carries on with the next file.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
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

export async function lintIsolated(
  jobs: LintJob[],
  init: Omit<WorkerInit, 'type'>,
  /** Builds the result for a file whose analysis was stopped or crashed (no parsing). */
  parent: Linter,
  limitSeconds: number,
  env: Record<string, string | undefined>,
  onStart: (index: number) => void,
): Promise<FileResult[]> {
  const results: FileResult[] = new Array(jobs.length);
  let next = 0;
  while (next < jobs.length) {
    const stopped = await runChild(jobs, next, init, limitSeconds, env, results, onStart);
    next = stopped.next;
    if (next < jobs.length && results[next] === undefined) {
      // The child was stopped, or died, on this file.
      const j = jobs[next]!;
      results[next] = parent.lintFile(j.path, j.display, j.stdinText, j.stdinPath, stopped.why);
      next++;
    }
  }
  return results;
}

/**
 * Runs one child from `start`; resolves with the index of the first file it did not finish and,
 * when that is a file of the run, why.
 */
function runChild(
  jobs: LintJob[],
  start: number,
  init: Omit<WorkerInit, 'type'>,
  limitSeconds: number,
  env: Record<string, string | undefined>,
  results: FileResult[],
  onStart: (index: number) => void,
): Promise<{ next: number; why: string }> {
  return new Promise((resolve) => {
    const child: ChildProcess = fork(workerEntry(), workerArgs(), {
      execArgv: [...process.execArgv, ...workerV8Flags()],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: env as NodeJS.ProcessEnv,
    });
    let current = start;
    let timer: NodeJS.Timeout | null = null;
    let done = false;
    const finish = (why: string) => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      if (why === 'done' && child.connected) {
        // Every file answered: the child ends by itself once disconnected (and writes its code
        // cache, ./worker-start.ts) while this process formats the output; a child that does
        // not end within a few seconds is killed.
        const stop = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => clearTimeout(stop));
        child.disconnect();
      } else child.kill('SIGKILL');
      resolve({ next: current, why });
    };
    const send = (msg: WorkerRequest) => child.send(msg, (err) => err && finish(`the analysis process could not be reached (${err.message})`));
    const timedOut = `analysis did not finish within ${limitSeconds} s and was stopped (tree-sitter can run away on some malformed input; docs/limits.md)`;
    // The child works through the files in order, so the one in progress is always `current`;
    // each file gets the full limit from the moment the previous one was answered.
    const arm = () => {
      if (timer) clearTimeout(timer);
      if (current >= jobs.length) return finish('done');
      onStart(current);
      timer = setTimeout(() => finish(timedOut), limitSeconds * 1000);
    };
    child.on('message', (m: WorkerReply) => {
      if (m.type !== 'result' || m.index !== current) return;
      results[current] = { ...m.result, findings: fingerprint(m.result.findings, m.result.source) };
      current++;
      arm();
    });
    child.on('exit', (code, signal) => finish(`the analysis process ended (${signal ?? `exit ${code}`}) on this file`));
    child.on('error', (err) => finish(`the analysis process failed (${err.message})`));
    send({ type: 'init', ...init });
    for (let i = start; i < jobs.length; i++) send({ type: 'file', index: i, ...jobs[i]! });
    arm();
  });
}
