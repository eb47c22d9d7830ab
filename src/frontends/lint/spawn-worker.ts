/**
 * Starting a lint child process (the other side: ./worker.ts), shared by ./isolated.ts and the
 * lint start-up entry (./cli-start.ts), which starts the first child before it loads the CLI.
 *
 * The channel is two pipes, one JSON message per line: requests on the child's stdin, replies on
 * its descriptor 3 (its stdout is discarded, as before, so nothing it prints can garble a reply);
 * started through bashguard's addon where it is built (rawWorker), else node:child_process.
 * Not Node's IPC channel:
 * a child forked with IPC loads node:child_process, node:net and the stream modules to set the
 * channel up before it runs a line of bashguard (~10 ms of every child's start, measured against
 * the same child with two pipes), while the worker reads and writes its two descriptors with
 * plain blocking fs calls.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, readFileSync, statSync, writeSync } from 'node:fs';
import { nativeIO } from '../../runtime/index.js';
import { availableParallelism, constants as osConstants, loadavg } from 'node:os';
import type { Readable } from 'node:stream';
import { envStrings, treeAddon } from '../../util/tree-addon.js';

/** The command the child runs (hidden from --help): see registerLintWorker in src/frontends/cli. */
export const LINT_WORKER_COMMAND = '__lint-worker';

/**
 * V8 flags for the child: TurboFan (V8's optimizing tier) starts 16x later than by default. The
 * interpreter's code is polymorphic (one function per IR node kind, many object shapes); in a
 * lint run of a few hundred files TurboFan spent more CPU compiling and deoptimizing lukewarm
 * functions than its code saved, while the really hot ones still get optimized. Measured on the
 * machine's shell scripts in one process: 100 scripts 2.5-3.0 -> 2.6 s CPU
 * (Node 20), 3.6 -> 2.4 s (Node 22); 320 and 640 scripts 15% faster. The flag differs by V8
 * line and an unknown flag stops Node, so only the lines it was measured on get one. Findings
 * do not depend on it.
 *
 * `saturated`: the run's children take every core (`--jobs` >= the number of CPUs, the default
 * on a 2-core machine). V8 13 (Node 24) then also gets `--no-maglev`: Maglev, its mid tier,
 * compiles on background threads, which a saturated machine takes from the analysis. Measured on
 * 2 cores, Node 24, the bench's 7 batches of 50 scripts (two children each): 3.7-4.6 s -> 3.1-3.9
 * s, alternated; all 320 scripts in one run (two children of 160) 2.2-3.4 -> 2.1-2.9 s. With a
 * core to spare Maglev pays (one child alone on 320 scripts: 2.4-2.6 s wall with it, 3.0-3.3
 * without), so it stays on there. Node 22 measured the same either way (3.26-3.36 s against
 * 3.30-3.44 s) and keeps its default.
 */
export function workerV8Flags(v8Version: string = process.versions.v8, saturated = false): string[] {
  const major = Number(v8Version.split('.')[0]);
  if (major === 11) return ['--interrupt-budget=1048576']; // Node 20 (default 67584)
  if (major === 12) return ['--invocation-count-for-turbofan=48000']; // Node 22 (default 3000)
  if (major === 13) return ['--invocation-count-for-turbofan=48000', ...(saturated ? ['--no-maglev'] : [])]; // Node 24
  return [];
}

/** Whether `children` lint children take every core of this machine (workerV8Flags' `saturated`). */
export function saturates(children: number, cpus: number = availableParallelism()): boolean {
  return children >= cpus;
}

/** Splits a byte stream into lines (a JSON message holds no raw newline), keeping a partial last one. */
export class LineSplitter {
  private pending: Buffer[] = [];

  /** The lines `chunk` completes. The chunk may be reused by the caller afterwards. */
  push(chunk: Buffer): string[] {
    const out: string[] = [];
    let from = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, from)) {
      this.pending.push(chunk.subarray(from, nl));
      from = nl + 1;
      out.push(Buffer.concat(this.pending).toString('utf8'));
      this.pending = [];
    }
    if (from < chunk.length) this.pending.push(Buffer.from(chunk.subarray(from)));
    return out;
  }
}

/** The child's descriptor for replies. */
export const REPLY_FD = 3;

/**
 * The Node options of a lint child before its entry: this process's, the child's V8 flags, and
 * --preserve-symlinks-main (the entry's path is real already: Node need not resolve it again,
 * ~0.3-0.5 ms of each child's start; src/util/module-require.ts).
 */
export function workerArgv(execArgv: readonly string[], saturated: boolean): string[] {
  const out = [...execArgv, ...workerV8Flags(process.versions.v8, saturated)];
  if (!out.includes('--preserve-symlinks-main')) out.push('--preserve-symlinks-main');
  return out;
}

/** Writes all of `text` to the blocking descriptor `fd` (the lint channel's two ends). Throws what writeSync throws. */
export function writeWhole(fd: number, text: string): void {
  const buf = Buffer.from(text, 'utf8');
  for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off);
}

/** A lint child, as ./isolated.ts drives it. */
export interface WorkerProcess {
  /** Writes to its input (a child that is gone is reported by onExit, not here). */
  send(text: string): void;
  /** Ends its input: the child ends once it has answered what it was sent. */
  endInput(): void;
  /** Its replies, in chunks as they arrive (a chunk may be reused after the listener returns). */
  onReply(listener: (chunk: Buffer) => void): void;
  /** Its end: the exit code, or the signal's name. */
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  /** It could not be started (reported asynchronously, then no exit follows). */
  onError(listener: (err: Error) => void): void;
  /** SIGKILL, unless it has ended. */
  kill(): void;
  readonly ended: boolean;
  /** How it was started. */
  readonly via: 'addon' | 'node:child_process';
}

/**
 * A lint child running `entry` (dist/lint-worker-start.cjs, or the CLI with its hidden
 * LINT_WORKER_COMMAND): requests on its stdin, replies on REPLY_FD; stderr is this process's.
 * `saturated`: the run's children take every core (workerV8Flags). Started through bashguard's
 * addon where it is built (rawWorker), else through node:child_process.
 */
export function spawnWorker(env: Record<string, string | undefined>, entry: string, saturated = false): WorkerProcess {
  const args = [...workerArgv(process.execArgv, saturated), entry, ...(entry.endsWith('.cjs') ? [] : [LINT_WORKER_COMMAND])];
  return rawWorker(args, env) ?? nodeWorker(spawn(process.execPath, args, { stdio: ['pipe', 'ignore', 'inherit', 'pipe'], env: env as NodeJS.ProcessEnv }));
}

function nodeWorker(child: ChildProcess): WorkerProcess {
  // A child that died leaves a broken pipe: its 'exit' reports the file it was on.
  child.stdin!.on('error', () => {});
  return {
    send: (text) => void child.stdin!.write(text),
    endInput: () => void child.stdin!.end(),
    onReply: (listener) => void (child.stdio[REPLY_FD] as Readable).on('data', listener),
    onExit: (listener) => void child.on('exit', listener),
    onError: (listener) => void child.on('error', listener),
    kill: () => void child.kill('SIGKILL'),
    via: 'node:child_process',
    get ended() {
      return child.exitCode !== null || child.signalCode !== null;
    },
  };
}

type SpawnChild = (path: string, argv: string[], env: string[], onReply: (chunk: Buffer | null, code?: number | null, signal?: number | null) => void) => [number, number];

/**
 * The child started by bashguard's addon (native/tree-export.c spawnChild: posix_spawn with the
 * same descriptors), its channel two plain pipes: requests written with blocking writes (short
 * lines; the child reads whenever it is not analyzing), replies read by a thread of the addon's
 * and handed over on this thread, its end seen as the end of its replies, with its status.
 * Through node:child_process the lint process spent ~2.5 ms loading it (node:net and the stream
 * modules with it) and ~3 ms spawning, before the child could start to boot, in every run with
 * a child. Null where the addon cannot (Windows, no addon, an older one, a spawn the system
 * refused: node:child_process then reports that its way).
 */
function rawWorker(args: string[], env: Record<string, string | undefined>): WorkerProcess | null {
  const replyListeners: ((chunk: Buffer) => void)[] = [];
  const exitListeners: ((code: number | null, signal: string | null) => void)[] = [];
  let ended = false;
  let inputOpen = false;
  let requests = -1;
  const closeInput = () => {
    if (!inputOpen) return;
    inputOpen = false;
    closeSync(requests);
  };
  const onReply = (chunk: Buffer | null, code?: number | null, signal?: number | null) => {
    if (chunk) {
      for (const listener of replyListeners) listener(chunk);
      return;
    }
    ended = true;
    closeInput();
    const name = signal == null ? null : (Object.entries(osConstants.signals).find(([, n]) => n === signal)?.[0] ?? `signal ${signal}`);
    for (const listener of exitListeners) listener(code ?? null, name);
  };
  let pid: number;
  try {
    const spawnChild = treeAddon().spawnChild;
    if (typeof spawnChild !== 'function') return null;
    [pid, requests] = (spawnChild as SpawnChild)(process.execPath, [process.execPath, ...args], envStrings(env), onReply);
    inputOpen = true;
  } catch {
    return null;
  }
  return {
    send: (text) => {
      if (!inputOpen) return;
      try {
        writeWhole(requests, text);
      } catch {
        // EPIPE: the child is gone, and its exit says so.
      }
    },
    endInput: closeInput,
    onReply: (listener) => void replyListeners.push(listener),
    onExit: (listener) => void exitListeners.push(listener),
    onError: () => {},
    via: 'addon',
    kill: () => {
      if (ended) return;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    },
    get ended() {
      return ended;
    },
  };
}

/**
 * Processes other than this one running or waiting for a CPU right now: the run queue of
 * /proc/loadavg on Linux (its fourth field counts this process too), else the 1-minute load
 * average. The load average alone counted a lint run's own children of the minute before: run
 * after run on an idle machine (CI steps, the bench's batches) it went above the CPU count and
 * the next run got one child.
 */
export function othersRunning(): number {
  try {
    const running = Number(readFileSync('/proc/loadavg', 'latin1').split(' ')[3]?.split('/')[0]);
    if (Number.isInteger(running) && running >= 1) return running - 1;
  } catch {
    // Not Linux: the load average.
  }
  return loadavg()[0] ?? 0;
}

/**
 * How many processes analyze a run of `files` files by default: one per 16 files, or, when their
 * total size is known, one per 80 KiB of work (the bytes, plus 2 KiB for each file's own cost); up
 * to the machine's parallelism and 4, and one while the machine is already busy (as many other
 * processes running as it has CPUs, as `make -l` holds back). Another process costs a child's
 * start (~35-45 ms of CPU, its own JIT warm-up) and pays off only when a core is free and the
 * work is large enough. Measured with the lint process beside one child against it alone, Intel
 * VM, Node 20 (medians of 8, wall ms): 25 scripts of 180 KB 227 -> 173; 50 of 93 KB 147 -> 136;
 * 16 of 55 KB 103 -> 100 (a wash, +43 ms of CPU); 20 of 55 KB 59 -> 70; 10 of 11 KB 66 -> 72; 50
 * of 167 KB 154 -> 136.
 */
export function defaultWorkers(files: number, cpus: number = availableParallelism(), others: number = othersRunning(), bytes?: number): number {
  if (others >= cpus) return 1;
  const share = bytes === undefined ? Math.floor(files / 16) : Math.floor((bytes + files * 2048) / (80 * 1024));
  return Math.max(1, Math.min(cpus, 4, share));
}

/** The size of the regular file at `path`; 0 for anything else (a directory, a missing path, an unreadable one). */
export function fileSize(path: string): number {
  // (One stat through the addon where it is built: a size, or a negative kind for anything else.)
  const k = nativeIO()?.statKind(path, true);
  if (k !== undefined) return k > 0 ? k : 0;
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st?.isFile() ? st.size : 0;
  } catch {
    return 0;
  }
}

/** The total size of the regular files among `paths` (stdin, `-`, counts as none). */
export function totalBytes(paths: readonly string[]): number {
  let total = 0;
  for (const p of paths) if (p !== '-') total += fileSize(p);
  return total;
}

/** How many processes a command line's `files` paths (`operands`) get (prestartCount, analyzersWithThisProcess). */
export type WorkersFor = (files: number, operands: readonly string[]) => number;

/** The default: defaultWorkers with the operands' sizes. */
const byOperands: WorkersFor = (files, operands) => defaultWorkers(files, undefined, undefined, totalBytes(operands));

/** Where ./cli-start.ts leaves the children it started early (two bundles share no module state). */
const PRESTARTED = Symbol.for('bashguard.lint.prestartedWorkers');
type Slot = { [PRESTARTED]?: { children: WorkerProcess[]; env: Record<string, string | undefined>; others: number | null } };

/**
 * Starts `n` children now, for the run that is about to begin; `takePrestarted` hands them over.
 * `others` is othersRunning() as read before they started (they are runnable while they boot),
 * null when it was not needed (`--jobs N`).
 */
export function prestartWorkers(
  env: Record<string, string | undefined>,
  entry: string,
  n: number,
  others: number | null,
  /** The run's analyzing processes take every core (workerV8Flags). */
  saturated = saturates(n),
): void {
  const children: WorkerProcess[] = [];
  try {
    for (let i = 0; i < n; i++) children.push(spawnWorker(env, entry, saturated));
  } catch {
    // Nothing is lost: the run starts the children it needs.
  }
  if (children.length > 0) (globalThis as Slot)[PRESTARTED] = { children, env, others };
}

/**
 * The other processes running when the entry started its children, or null when it started none
 * (or did not read them): read later, the run queue would count those children themselves.
 */
export function othersBeforePrestart(): number | null {
  return (globalThis as Slot)[PRESTARTED]?.others ?? null;
}

/** A child started early, if one is left and they were started with `env`. */
export function takePrestarted(env: Record<string, string | undefined>): WorkerProcess | null {
  const slot = (globalThis as Slot)[PRESTARTED];
  if (!slot) return null;
  if (slot.env !== env) {
    dropPrestarted();
    return null;
  }
  for (let child = slot.children.shift(); child; child = slot.children.shift()) {
    if (!child.ended) return child;
    child.kill();
  }
  return null;
}

/** Ends the children started early that the run did not use (usage error, fewer files, ...). */
export function dropPrestarted(): void {
  const slot = (globalThis as Slot)[PRESTARTED];
  if (!slot) return;
  delete (globalThis as Slot)[PRESTARTED];
  for (const child of slot.children) child.kill();
}

/** `bashguard lint` options that take no value (every other option takes the next argument). */
const LINT_FLAGS = new Set(['--norc', '--report-unused-directives', '--color', '--no-color', '--progress', '--no-progress', '--no-summary']);

/**
 * How many children a `bashguard lint` command line will run its files in, guessed from argv
 * before the CLI parses it: none with `--timeout 0` (in this process), `--help` or `--version`;
 * `--jobs N`; else the default for the number of paths given (a directory counts as one file).
 * A wrong guess costs a child that `dropPrestarted` ends, or one started later.
 */
export function prestartCount(argv: readonly string[], workers: WorkersFor = byOperands): number {
  const plan = lintPlan(argv);
  return plan.paths === 0 || plan.help || plan.inProcess ? 0 : Math.min(plan.jobs ?? workers(plan.paths, plan.operands), plan.paths);
}

/**
 * Whether a `bashguard lint` command line analyzes its files in this process (`--timeout 0`, at
 * least one path, not `--help` or `--version`), guessed from argv as prestartCount does.
 */
export function analyzesInProcess(argv: readonly string[]): boolean {
  const plan = lintPlan(argv);
  return plan.inProcess && plan.paths > 0 && !plan.help;
}

/**
 * How many processes analyze the files of a `bashguard lint` command line by default (no `--jobs`,
 * a time limit, no `-` for stdin among the paths) when the lint process is one of them, under the
 * kernel's timer (./rerun.ts): the children the run would have had, one of them replaced by this
 * process. 0 when this process does not analyze (or analyzes alone, with `--timeout 0`). Guessed
 * from argv as prestartCount does.
 */
export function analyzersWithThisProcess(argv: readonly string[], workers: WorkersFor = byOperands): number {
  const plan = lintPlan(argv);
  if (plan.paths === 0 || plan.help || plan.inProcess || plan.jobs !== null || plan.stdin) return 0;
  return Math.min(workers(plan.paths, plan.operands), plan.paths);
}

function lintPlan(argv: readonly string[]): { paths: number; operands: string[]; jobs: number | null; help: boolean; inProcess: boolean; stdin: boolean } {
  const operands: string[] = [];
  let jobs: number | null = null;
  let inProcess = false;
  let stdin = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      operands.push(...argv.slice(i + 1));
      stdin ||= argv.slice(i + 1).includes('-');
      break;
    }
    if (a === '-h' || a === '--help' || a === '-V' || a === '--version') return { paths: operands.length, operands, jobs, help: true, inProcess, stdin };
    const eq = a.indexOf('=');
    const [name, value] = a.startsWith('--') && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, argv[i + 1]];
    if (name === '--timeout') inProcess = Number(value) === 0;
    if ((name === '--jobs' || name === '-j') && Number.isInteger(Number(value)) && Number(value) >= 1) jobs = Number(value);
    if (a.startsWith('-') && a !== '-') {
      if (eq < 0 && !LINT_FLAGS.has(a)) i++;
      continue;
    }
    if (a === '-') stdin = true;
    operands.push(a);
  }
  return { paths: operands.length, operands, jobs, help: false, inProcess, stdin };
}
