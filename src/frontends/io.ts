/** The CLI's only contact with the process: streams, env, cwd. Tests pass their own. */
import { nativeIO } from '../runtime/index.js';

export interface IO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Reads all of stdin (rejects only on I/O errors). */
  readStdin(): Promise<string>;
  env: Record<string, string | undefined>;
  cwd: string;
  isTTY: boolean;
}

/**
 * `bashguard rules | head`: a closed pipe is not an error worth a stack trace. Ends the process
 * quietly (with the exit code so far) when a write failed with EPIPE; returns otherwise.
 */
export function endIfPipeClosed(err: unknown): void {
  if ((err as NodeJS.ErrnoException)?.code === 'EPIPE') process.exit(process.exitCode ?? 0);
}

export function processIO(): IO {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      endIfPipeClosed(err);
      throw err;
    });
  }
  return {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    readStdin: () =>
      new Promise((resolve, reject) => {
        if (process.stdin.isTTY) return resolve('');
        const chunks: Buffer[] = [];
        process.stdin.on('data', (c: Buffer) => chunks.push(c));
        process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        process.stdin.on('error', reject);
      }),
    env: process.env,
    cwd: process.cwd(),
    isTTY: Boolean(process.stdout.isTTY),
  };
}

/**
 * processIO without Node's streams, through bashguard's addon (src/util/native-io.ts): every write
 * is written whole before it returns (a non-blocking descriptor is waited on), stdin is read in
 * one call, and the terminal check is isatty(3). Making the stdout and stderr streams costs a
 * fresh process ~2.4 ms when they are pipes (node:net and the stream machinery, Node 20), and
 * node:tty loads node:net too; the hook and lint are fresh processes. A closed pipe ends the
 * process quietly, as processIO does. null where the addon is not in use: processIO then.
 */
export function directIO(): IO | null {
  const native = nativeIO();
  if (!native) return null;
  const write = (fd: number, text: string): void => {
    try {
      native.writeAll(fd, text);
    } catch (err) {
      endIfPipeClosed(err);
      throw err;
    }
  };
  let tty: boolean | undefined;
  return {
    stdout: (t) => write(1, t),
    stderr: (t) => write(2, t),
    readStdin: () => {
      try {
        return Promise.resolve(native.readAll(0) ?? '');
      } catch (err) {
        return Promise.reject(err);
      }
    },
    env: process.env,
    cwd: process.cwd(),
    get isTTY() {
      return (tty ??= native.isTerminal(1));
    },
  };
}

const ERRNO_TEXT: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory, not a file',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EEXIST: 'already exists',
  EMFILE: 'too many open files',
};

/** A file-system error in words (`ENOENT` -> "no such file or directory"), for one-line messages. */
export function errnoText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return (e?.code && ERRNO_TEXT[e.code]) ?? e?.code ?? (e as Error)?.message ?? String(err);
}

/** Errors the CLI reports as one line (`bashguard: ...`) with a defined exit code. */
export class UsageError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
  }
}

/**
 * What a command that threw prints and exits with: a usage error its message and code; anything
 * else one line, `internal error`, with the stack under BASHGUARD_DEBUG=1, and 2.
 */
export function reportFailure(err: unknown, io: IO): number {
  if (err instanceof UsageError) {
    // The message can quote an operand (a file name, a command): no control character reaches the terminal.
    io.stderr(`bashguard: ${err.message.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}\n`);
    return err.exitCode;
  }
  const e = err as Error;
  io.stderr(`bashguard: internal error: ${e.message.split('\n')[0]}${io.env.BASHGUARD_DEBUG ? `\n${e.stack}` : ' (set BASHGUARD_DEBUG=1 for details)'}\n`);
  return 2;
}

/**
 * The last resort of a process entry (`main`): what escaped run()'s own reporting (a failing
 * stderr write ...) still gets one line on the process's stderr; the exit code is 2.
 */
export function reportEscaped(err: unknown): number {
  process.stderr.write(`bashguard: internal error: ${String((err as Error)?.message ?? err).split('\n')[0]}\n`);
  return 2;
}
