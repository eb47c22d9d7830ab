/** The CLI's only contact with the process: streams, env, cwd. Tests pass their own. */
export interface IO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Reads all of stdin (rejects only on I/O errors). */
  readStdin(): Promise<string>;
  env: Record<string, string | undefined>;
  cwd: string;
  isTTY: boolean;
}

export function processIO(): IO {
  // `bashguard rules | head`: a closed pipe is not an error worth a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
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
    io.stderr(`bashguard: ${err.message}\n`);
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
