/**
 * `bashguard lint`'s own entry (dist/lint-cli.cjs, loaded through its V8 code cache by
 * dist/lint-start.cjs: ./cli-start.ts): the full CLI's root program (src/frontends/cli/root.ts) with only
 * the lint command registered (src/frontends/cli/lint-command.ts), so a lint run neither loads nor
 * initialises the other commands (install, doctor, demo, audit, sandbox, corpus, ...). Help,
 * errors and exit codes are those of `bashguard lint` through the full CLI (src/frontends/cli/program.ts).
 */
import { directIO, processIO, reportEscaped, reportFailure, type IO } from '../io.js';
import { registerLint } from '../cli/lint-command.js';
import { parseProgram, rootProgram } from '../cli/root.js';

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

/**
 * Runs the command line; the exit code is left in process.exitCode (./cli-start.ts ends the
 * process). Resolves to whether the report went through Node's streams (whose writes may still be
 * queued) rather than written whole through the addon (directIO: making the streams costs a lint
 * process ~2.4 ms when they are pipes).
 */
export async function main(): Promise<{ streams: boolean }> {
  const direct = directIO();
  // runLintCli reports its own errors; anything escaping it (a failing stderr write ...) still gets a line.
  process.exitCode = await runLintCli(process.argv.slice(2), direct ?? processIO()).catch(reportEscaped);
  return { streams: direct === null };
}
