/**
 * The hook process's entry (dist/hook.cjs, loaded through its code cache by dist/hook-start.cjs:
 * src/runtime/startup/hook-start.ts). `main` reads the hook's argv, arms its time limit where it
 * supervises itself, and hands the event to src/frontends/hook/hook.ts `runHook`, which decides it
 * (src/frontends/decide.ts). The CLI (./main.ts) takes the same fast path for `bashguard hook`.
 * Everything else goes to the full program (./program.js: in this bundle a stub that loads the
 * ESM CLI, scripts/build.mjs), which commander parses.
 */
import { mark, fastHookArgs, fastWasmStart, cacheLocation } from '../../runtime/index.js';
import { AGENT_NAME_LIST } from '../hook/clients/names.js';
import { fstatSync, readSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { directIO, endIfPipeClosed, processIO, reportEscaped, reportFailure, type IO } from '../io.js';
import { getParser } from '../../engine/parse/index.js';
import { useWasmLoader } from '../../engine/parse/wasm.js';
import { armOrRefuse, armTimeLimit, armTimeLimitAnswering, disarmTimeLimit, handRestartInput } from '../../util/time-limit.js';

/** The hook's answer for `argv` when it is the hook's fast path (./main.ts `run` too); null: not the fast path. */
export async function fastHook(argv: string[], io: IO): Promise<number | null> {
  const hookArgs = fastHookArgs(argv);
  if (hookArgs) {
    mark('start');
    const { exitCode, agent } = hookArgs;
    // Before anything loads or is read: a mistyped --agent is the installer's error, one line,
    // and exit 2, which every client blocks the call on (agent-hooks.md).
    if (!(AGENT_NAME_LIST as readonly string[]).includes(agent)) {
      io.stderr(`bashguard: unknown --agent ${JSON.stringify(agent)}; valid agents: ${AGENT_NAME_LIST.join(', ')}\n`);
      return 2;
    }
    if (hookArgs.unsupervised) {
      // Run by the client itself, no supervisor script around it (the exec form, src/frontends/cli/install.ts).
      superviseSelf(hookArgs.timeLimit, agent, exitCode, io);
    } else if (hookArgs.timeLimit !== undefined) {
      // Before anything is read: the kernel ends the process at the limit (src/util/time-limit.ts).
      const refused = armOrRefuse(hookArgs.timeLimit, (t) => io.stderr(t));
      if (refused !== null) return refused;
    }
    const { clientByName } = await import('../hook/clients/index.js');
    const client = clientByName(agent);
    if (client) {
      try {
        const { runHook } = await import('../hook/hook.js');
        try {
          const onInput = hookArgs.unsupervised ? (raw: string) => void handRestartInput(`${eventDir(io.env)}/event-${process.pid}.json`, raw) : undefined;
          return await runHook(io, { exitCode, getParser: () => getParser(), client, keepEvent: hookArgs.keepEvent, onInput });
        } finally {
          if (hookArgs.unsupervised) disarmTimeLimit();
        }
      } catch (err) {
        // Never a silent allow: an internal failure asks the person (or denies, for clients that cannot ask), with the reason.
        const reason = `bashguard could not analyze this call (internal error: ${(err as Error).message.split('\n')[0]})`;
        const r = client.render({ decision: 'ask', reason }, { exitCode });
        if (r.stderr) io.stderr(r.stderr);
        if (r.stdout) io.stdout(r.stdout);
        return r.code;
      }
    }
  }
  return null;
}

/** `bashguard ARGV`: the hook's fast path where it applies, else the full program; an exit code, never process.exit. */
export async function run(argv: string[], io: IO): Promise<number> {
  try {
    const answered = await fastHook(argv, io);
    if (answered !== null) return answered;
    const { runProgram } = await import('./program.js');
    return await runProgram(argv, io);
  } catch (err) {
    return reportFailure(err, io);
  }
}

/** The hook process: `bashguard hook ...` on the fast path, anything else through the full program. */
export async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  // A hook process lives for one parse: tune the WASM backend for start-up, not throughput.
  useWasmLoader(fastWasmStart);
  // The hook's I/O through the addon where it is built (../io.ts directIO: no Node fs function or
  // stream made cold in its fresh process), else with readSync and writeSync.
  const io = directIO() ?? hookIO();
  // run() reports its own errors; anything escaping it (a failing stderr write ...) still gets a line.
  const code = await run(argv, io).catch(reportEscaped);
  exitAfterHook(code);
}

/**
 * The hook's answer is written (synchronously, unless a non-blocking descriptor made it fall back
 * to the streams) and its log too; what is left runs in 'exit' handlers (the code cache,
 * src/runtime/startup/code-cache.ts). Ending here instead of letting Node wind down (disposing the
 * isolate, its heap and threads) ends the process sooner after the answer, which the client waits for.
 */
export function exitAfterHook(code: number): void {
  process.exitCode = code;
  if (!hookStreamsUsed) process.exit(code);
}

/** Where a restarted hook's event is put for the moment of its restart: bashguard's private cache directory. */
function eventDir(env: IO['env']): string {
  return cacheLocation(env) ?? '/nonexistent';
}

/** The hook's time limit without a supervisor, in seconds: BASHGUARD_HOOK_TIMEOUT, as bin/bashguard-hook reads it. */
const DEFAULT_HOOK_LIMIT = 10;

/**
 * `hook --unsupervised`: what bin/bashguard-hook did around the hook, done by the hook itself. It
 * arms its time limit (`--time-limit`, else BASHGUARD_HOOK_TIMEOUT, else 10 s) so that when the
 * limit expires this process is replaced by `hook --unfinished`, which reads the event this one
 * read on its stdin and answers from it and the configuration as for any command it cannot
 * analyze (src/util/time-limit.ts; before the event is read, from no event: never an allow).
 * Where that cannot be prepared, the limit is a kill; where not even that, the hook runs without
 * one. In both cases the client's `"onFailure": "block"` (which `bashguard install` writes with
 * this form) blocks the call instead.
 */
function superviseSelf(given: string | undefined, agent: string, exitCode: boolean, io: IO): void {
  const raw = given ?? io.env.BASHGUARD_HOOK_TIMEOUT ?? String(DEFAULT_HOOK_LIMIT);
  let seconds = Number(raw);
  if (!(seconds > 0 && seconds <= 86400)) {
    io.stderr(`bashguard: the hook's time limit takes a number of seconds (more than 0, at most 86400), got ${JSON.stringify(raw)}; using ${DEFAULT_HOOK_LIMIT}\n`);
    seconds = DEFAULT_HOOK_LIMIT;
  }
  // Only bashguard's own entries can be run again with these arguments (not a test runner that called run()).
  // (By its name, not a regular expression: V8 compiles each one a process runs, ~20 µs.)
  const script = process.argv[1] ?? '';
  const name = script.slice(Math.max(script.lastIndexOf('/'), script.lastIndexOf('\\')) + 1);
  const entry = name === 'hook-start.cjs' || name === 'bashguard' || name === 'bashguard.js' ? script : undefined;
  // The restart has a limit of its own (it reads only files src/util/safe-read.ts reads, but
  // should anything hold it, the kernel ends it and the client's "onFailure": "block" blocks).
  const argv = [process.execPath, ...process.execArgv, ...(entry ? [entry] : []), 'hook', '--unfinished', String(seconds), '--time-limit', '3', '--agent', agent, ...(exitCode ? ['--exit-code'] : [])];
  const note = `bashguard: the analysis ran past its time limit (${seconds} s); answering as for a command it cannot analyze\n`;
  const why = entry ? armTimeLimitAnswering(seconds, argv, note) : 'no entry script to restart';
  if (why === null) return;
  const plain = armTimeLimit(String(seconds));
  if (plain !== null) io.stderr(`bashguard: the hook runs without its own time limit (${why}; ${plain})\n`);
}

/** Whether a hookIO fell back to Node's streams, whose writes may still be pending at exit. */
let hookStreamsUsed = false;

/**
 * processIO() for the hook, without Node's stream machinery: touching process.stdin/stdout
 * builds net/fs streams (several ms of module loading per hook call). Same observable
 * behaviour: stdin read to EOF ('' on a TTY), writes in order, a closed pipe ends quietly.
 * Falls back to the streams when the descriptor is non-blocking (EAGAIN).
 */
export function hookIO(): IO {
  const io = processIO;
  let streams: IO | null = null;
  const fallback = (): IO => {
    hookStreamsUsed = true;
    return (streams ??= io());
  };
  const write = (fd: number, text: string): void => {
    if (streams) return void (fd === 1 ? streams.stdout(text) : streams.stderr(text));
    const buf = Buffer.from(text, 'utf8');
    let off = 0;
    try {
      while (off < buf.length) off += writeSync(fd, buf, off);
    } catch (err) {
      endIfPipeClosed(err);
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
      const rest = buf.subarray(off).toString('utf8');
      if (fd === 1) fallback().stdout(rest);
      else fallback().stderr(rest);
    }
  };
  return {
    stdout: (t) => write(1, t),
    stderr: (t) => write(2, t),
    readStdin: () => {
      // node:tty pulls in node:net; only a character device can be a terminal, so ask only then.
      if (fstatSync(0).isCharacterDevice() && isatty(0)) return Promise.resolve('');
      // One buffer, grown when an event does not fit: an event is usually read whole in one call
      // and decoded straight from it (no per-chunk copies and concatenation to compile and run).
      let buf = Buffer.allocUnsafe(64 * 1024);
      let len = 0;
      for (;;) {
        if (len === buf.length) {
          const bigger = Buffer.allocUnsafe(buf.length * 2);
          buf.copy(bigger, 0, 0, len);
          buf = bigger;
        }
        let n: number;
        try {
          n = readSync(0, buf, len, buf.length - len, null);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'EOF') break;
          if (code === 'EAGAIN') {
            const head = buf.toString('utf8', 0, len);
            return fallback()
              .readStdin()
              .then((rest) => head + rest);
          }
          return Promise.reject(err);
        }
        if (n === 0) break;
        len += n;
      }
      return Promise.resolve(buf.toString('utf8', 0, len));
    },
    env: process.env,
    cwd: process.cwd(),
    get isTTY() {
      return isatty(1);
    },
  };
}

function isatty(fd: number): boolean {
  const { isatty: check } = createRequire(import.meta.url)('node:tty') as typeof import('node:tty');
  return check(fd);
}
