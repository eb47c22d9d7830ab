/**
 * The in-memory IO every in-process test of the CLI or the hook uses: stdout and stderr captured,
 * stdin a given text, no terminal. `runCli` runs `bashguard <argv>` with it.
 */
import type { IO } from '../../src/frontends/io.js';

export interface IOOptions {
  env: Record<string, string | undefined>;
  cwd: string;
  stdin?: string;
  tty?: boolean;
}

export interface MemoryIO {
  io: IO;
  out(): string;
  err(): string;
}

export function memoryIO(opts: IOOptions): MemoryIO {
  let out = '';
  let err = '';
  const io: IO = {
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    readStdin: async () => opts.stdin ?? '',
    env: opts.env,
    cwd: opts.cwd,
    isTTY: opts.tty ?? false,
  };
  return { io, out: () => out, err: () => err };
}

export interface Ran {
  code: number;
  out: string;
  err: string;
}

/** `bashguard <argv>` in-process: its exit code and what it wrote. */
export async function runCli(argv: string[], opts: IOOptions): Promise<Ran> {
  // (loaded here: a test that only needs the IO does not load the whole CLI)
  const { run } = await import('../../src/frontends/cli/main.js');
  const m = memoryIO(opts);
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}
