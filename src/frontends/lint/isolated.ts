/**
 * Lint with a time limit per file. tree-sitter can spend unbounded time inside one native parse
 * step on some malformed input (docs/limits.md); nothing in the process running it can stop it,
 * and a Node worker stuck in native code even blocks process exit. So the files are analyzed in
 * child processes (by the work, up to the number of CPUs, not one per file: `--jobs`), each
 * given one file at a time and reporting its result back; when a file runs past the limit its
 * child is killed, that file gets a BG0002 finding, and a new child carries on with the next file.
 * By default the lint process analyzes too, in place of one child (./rerun.ts): then it is given
 * its share here (`own`).
 */
import { existsSync } from 'node:fs';
import type { BackendChoice } from '../../engine/parse/index.js';
import { packagePath } from '../../util/package-root.js';
import { fingerprint, type FileResult, type Linter, type LintOptions } from './lint.js';
import { fileSize, LineSplitter, saturates, spawnWorker, takePrestarted, type WorkerProcess } from './spawn-worker.js';

export { LINT_WORKER_COMMAND, defaultWorkers, saturates, workerV8Flags } from './spawn-worker.js';

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
export type WorkerReply =
  | { type: 'result'; index: number; result: FileResult }
  /**
   * Sent once, after the init: whether the child writes its code cache when its input ends (the
   * first run after an install), and so is to end that way, not be killed.
   */
  | { type: 'ready'; writesCodeCache: boolean };

/**
 * The child's entry: the lean worker bundle (dist/lint-worker.cjs, src/frontends/lint/worker-main.ts) when
 * it is built, which starts ~3x faster than the full CLI, loaded through the V8 code cache by
 * dist/lint-worker-start.cjs (./worker-start.ts); else the CLI's hidden command (running from
 * src/ under a test runner).
 */
function workerEntry(): string {
  for (const lean of [packagePath('dist', 'lint-worker-start.cjs'), packagePath('dist', 'lint-worker.cjs')]) if (existsSync(lean)) return lean;
  return packagePath('bin', 'bashguard.js');
}

/**
 * This process's share of the files, when it analyzes beside its children (./rerun.ts): it takes
 * files from the same queue as they do, each under the kernel's timer.
 */
export interface OwnShare {
  /** Lints one file here (the parent's Linter, with a parser). */
  lint(index: number): FileResult;
  /** Arms / disarms the limit for the next file of this process. */
  arm(): void;
  disarm(): void;
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
  /** Files this process analyzes itself, beside its children. */
  own: OwnShare | null = null,
  /** The jobs' sizes (jobSizes), when the caller has them already. */
  sizes: number[] = jobSizes(jobs),
): Promise<FileResult[]> {
  const results: FileResult[] = new Array(jobs.length);
  // Files are handed out one at a time to whichever child is free, the largest first (so that a
  // big file does not start last and leave the other children idle at the end: on the bench's
  // batches of 50 scripts, 4% less time until the last child is done than in command-line order);
  // each result goes to its index, so the output does not depend on which child analyzed what.
  // This process, which answers its children only between two of its own files, takes the
  // smallest files, from the other end of the queue; and a child beside it is sent its next file
  // ahead, so that it does not wait for this process to finish one (waits of up to 14 ms per file
  // were measured), unless this process would run out of files first: a file sent ahead is one
  // the child holds while this process could have taken it (on the bench's batch with a 150 KB
  // page this process waited 49 ms for it). Up to the last file: it used to stop while fewer
  // than 6 were left, and a child then waited on this process for each of its last files (timed
  // in the child: 5-10 ms in the middle of a batch, up to 23 ms at its end). A child's file sent
  // ahead goes back to the queue when the child is stopped; and once the queue is empty this
  // process takes it back, rather than wait while the child finishes the file it is on before it
  // comes to that one (the child is then killed as soon as it answers the file it is on). The
  // bench's 7 batches, two passes: 1,154 / 1,108 ms with the first change alone, 1,146 / 1,097
  // with both.
  const order = largestFirst(sizes);
  let next = 0;
  let last = order.length;
  let bytesLeft = sizes.reduce((a, b) => a + b, 0);
  const returned: number[] = [];
  const taken = (i: number | null | undefined): number | null => {
    if (i === undefined || i === null) return null;
    bytesLeft -= sizes[i]!;
    return i;
  };
  const queue: Queue = {
    take: () => taken(returned.shift() ?? (next < last ? order[next++]! : null)),
    takeSmallest: () => taken(returned.shift() ?? (next < last ? order[--last]! : null)),
    worthSendingAhead: (current) => returned.length + last - next > 0 && sizes[current]! * 2 < bytesLeft,
    giveBack: (indices) => {
      for (const i of indices) bytesLeft += sizes[i]!;
      returned.unshift(...indices);
    },
  };
  const started = new Set<number>();
  const startOnce = (i: number) => {
    if (started.has(i)) return;
    started.add(i);
    onStart(i);
  };
  // Children holding a file sent ahead, which this process takes back once its queue is empty.
  const ahead = new Set<AheadHolder>();
  const children = Math.max(own ? 0 : 1, Math.min(workers, jobs.length - (own ? 1 : 0)));
  const saturated = saturates(children + (own ? 1 : 0));
  const runner = async (): Promise<void> => {
    let first = queue.take();
    while (first !== null) {
      const stopped = await runChild(jobs, first, queue, own ? ahead : null, init, limitSeconds, env, results, startOnce, saturated);
      if (stopped === null) return;
      // The child was stopped, or died, on this file: its result says so, and a new child
      // carries on with the next file.
      const j = jobs[stopped.index]!;
      results[stopped.index] = parent.lintFile(j.path, j.display, j.stdinText, j.stdinPath, stopped.why);
      first = queue.take();
    }
  };
  // The children are started, and sent their first files, before this process takes one.
  const running = Array.from({ length: children }, runner);
  if (own) running.push(ownShare(own, queue, ahead, results, startOnce));
  await Promise.all(running);
  return results;
}

interface Queue {
  /** The next file for a child: the largest left. */
  take(): number | null;
  /** The next file for this process: the smallest left. */
  takeSmallest(): number | null;
  /**
   * Whether a child on `current` is to be sent its next file now: while one is left, and the
   * file it is on is less than half the bytes left (else this process, on the rest, would run out
   * before the child came to the file sent ahead).
   */
  worthSendingAhead(current: number): boolean;
  /** Files sent to a child that was stopped before it came to them. */
  giveBack(indices: number[]): void;
}

/** A child with a file sent ahead that it has not come to yet. */
interface AheadHolder {
  /** Takes that file back from the child (which is then ended once its current file is answered). */
  takeBack(): number | null;
}

/**
 * This process's share: one file at a time, giving the event loop a turn between files (replies,
 * next files). When the queue is empty it takes back a file sent ahead to a child, rather than
 * wait for the child to come to it after the one it is on.
 */
async function ownShare(own: OwnShare, queue: Queue, ahead: Set<AheadHolder>, results: FileResult[], onStart: (index: number) => void): Promise<void> {
  const takeBack = (): number | null => {
    for (const holder of ahead) {
      const i = holder.takeBack();
      if (i !== null) return i;
    }
    return null;
  };
  for (let i = queue.takeSmallest() ?? takeBack(); i !== null; i = queue.takeSmallest() ?? takeBack()) {
    onStart(i);
    own.arm();
    results[i] = own.lint(i);
    own.disarm();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The jobs' sizes: a file's bytes, stdin's characters, 0 for what cannot be read. */
export function jobSizes(jobs: LintJob[]): number[] {
  return jobs.map((j) => (j.stdinText !== undefined ? j.stdinText.length : fileSize(j.path)));
}

/** The jobs' indices by size, largest first (ties in command-line order). */
function largestFirst(size: number[]): number[] {
  return size.map((_, i) => i).sort((a, b) => size[b]! - size[a]! || a - b);
}

/**
 * Runs one child on `first`, then on each file the queue hands out, until there is none left
 * (resolves null) or the child is stopped or dies on a file (resolves with its index and why; the
 * file sent ahead, if any, goes back to the queue). With `ahead`, a second file is sent while the
 * child is on one when the queue says it is worth it; the file the child is on gets the full
 * limit from the moment the one before it was answered.
 */
function runChild(
  jobs: LintJob[],
  first: number,
  queue: Queue,
  /** Beside this process: the set in which a child with a file sent ahead offers it back (null: nothing is sent ahead). */
  ahead: Set<AheadHolder> | null,
  init: Omit<WorkerInit, 'type'>,
  limitSeconds: number,
  env: Record<string, string | undefined>,
  results: FileResult[],
  onStart: (index: number) => void,
  /** The run's analyzing processes take every core (workerV8Flags). */
  saturated: boolean,
): Promise<{ index: number; why: string } | null> {
  return new Promise((resolve) => {
    // The first child of a run may already be up (started by the lint entry before it loaded the CLI).
    const child: WorkerProcess = takePrestarted(env) ?? spawnWorker(env, workerEntry(), saturated);
    // The files sent and not answered yet, in the order the child takes them.
    const sent: number[] = [];
    // A file sent ahead that this process took back: the child still has it in its input, so it
    // gets no other file and is ended (killed) once the one it is on is answered. Not from a child
    // that writes its code cache at the end of its input: killed, it would leave the cache to the
    // next run, and the next.
    let takenBack = false;
    let killable = false;
    const holder: AheadHolder = {
      takeBack: () => {
        if (sent.length < 2 || !killable) return null;
        takenBack = true;
        ahead!.delete(holder);
        return sent.pop()!;
      },
    };
    let timer: NodeJS.Timeout | null = null;
    let done = false;
    const finish = (why: string | null) => {
      if (done) return;
      done = true;
      ahead?.delete(holder);
      if (timer) clearTimeout(timer);
      if (why === null && !takenBack) {
        // Every file answered: the child ends by itself at the end of its input (and writes its
        // code cache, ./worker-start.ts) while this process formats the output; a child that
        // does not end within a few seconds is killed.
        const stop = setTimeout(() => child.kill(), 5000);
        child.onExit(() => clearTimeout(stop));
        child.endInput();
      } else {
        // Stopped, or on a file this process took back (its answer is not needed).
        child.kill();
      }
      const current = sent.shift();
      queue.giveBack(sent);
      resolve(why === null || current === undefined ? null : { index: current, why });
    };
    const send = (msg: WorkerRequest) => {
      child.send(JSON.stringify(msg) + '\n');
    };
    const timedOut = `analysis did not finish within ${limitSeconds} s and was stopped (tree-sitter can run away on some malformed input; docs/limits.md)`;
    const sendFile = (index: number) => {
      onStart(index);
      send({ type: 'file', index, ...jobs[index]! });
      sent.push(index);
    };
    // Tops the child up (one file, or two while enough are left with `ahead`), and times the one it is on.
    const fill = () => {
      if (sent.length === 0 && !takenBack) {
        const i = queue.take();
        if (i !== null) sendFile(i);
      }
      if (ahead && !takenBack && sent.length === 1 && queue.worthSendingAhead(sent[0]!)) {
        const i = queue.take();
        if (i !== null) sendFile(i);
      }
      if (ahead && sent.length === 2) ahead.add(holder);
      else ahead?.delete(holder);
      if (timer) clearTimeout(timer);
      timer = null;
      if (sent.length === 0) return finish(null);
      timer = setTimeout(() => finish(timedOut), limitSeconds * 1000);
    };
    // One JSON reply per line on the child's reply pipe.
    const lines = new LineSplitter();
    child.onReply((chunk) => {
      for (const line of lines.push(chunk)) {
        if (done) return;
        let m: WorkerReply;
        try {
          m = JSON.parse(line) as WorkerReply;
        } catch {
          return finish('the analysis process sent a malformed reply on this file');
        }
        if (m.type === 'ready') killable = !m.writesCodeCache;
        if (m.type !== 'result' || m.index !== sent[0]) continue;
        results[m.index] = { ...m.result, findings: fingerprint(m.result.findings, m.result.source) };
        sent.shift();
        fill();
      }
    });
    child.onExit((code, signal) => finish(`the analysis process ended (${signal ?? `exit ${code}`}) on this file`));
    child.onError((err) => finish(`the analysis process failed (${err.message})`));
    send({ type: 'init', ...init });
    sendFile(first);
    fill();
  });
}
