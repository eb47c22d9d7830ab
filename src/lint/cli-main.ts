/**
 * `bashguard lint`'s own entry (dist/lint-cli.cjs, loaded through its V8 code cache by
 * dist/lint-start.cjs: ./cli-start.ts): the full CLI's root program (src/cli/root.ts) with only
 * the lint command registered (src/cli/lint-command.ts), so a lint run neither loads nor
 * initialises the other commands (install, doctor, demo, audit, sandbox, corpus, ...). Help,
 * errors and exit codes are those of `bashguard lint` through the full CLI (src/cli/program.ts).
 */
import { processIO, reportFailure, type IO } from '../cli/io.js';
import { registerLint } from '../cli/lint-command.js';
import { parseProgram, rootProgram } from '../cli/root.js';
import { dropPrestarted } from './spawn-worker.js';

/** `bashguard ARGV` for an argv that starts with `lint`; returns the exit code, never exits. */
export async function runLintCli(argv: string[], io: IO): Promise<number> {
  try {
    let exitCode = 0;
    const program = rootProgram(io);
    registerLint(program, io, (code) => {
      exitCode = code;
    });
    return (await parseProgram(program, argv)) ?? exitCode;
  } catch (err) {
    return reportFailure(err, io);
  }
}

export async function main(): Promise<void> {
  const io = processIO();
  // runLintCli reports its own errors; anything escaping it (a failing stderr write ...) still gets a line.
  const code = await runLintCli(process.argv.slice(2), io).catch((err: unknown) => {
    process.stderr.write(`bashguard: internal error: ${String((err as Error)?.message ?? err).split('\n')[0]}\n`);
    return 2;
  });
  process.exitCode = code;
  // The report is out. Ending here, as the hook does (src/cli/main.ts), instead of letting Node wind
  // down saves this process's teardown and the wait for its children's exit: they have every
  // answer sent, their input ends with this process, and they let go of stderr first
  // (src/lint/worker.ts). 'exit' handlers (the code cache) still run. Not while a write is still
  // queued (stdout or stderr asynchronous, as a pipe can be on macOS): then Node drains it first.
  // The bench's 50-file batches, caller reading stdout and stderr through pipes: ~8-20 ms per run.
  if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) {
    // Children the entry started that the run did not take (a usage error, --help): ended as
    // ./cli-start.ts would have after this function.
    dropPrestarted();
    process.exit(code);
  }
}
