/**
 * Entry point. `run(argv, io)` returns an exit code and never calls process.exit. The hook
 * path skips commander and everything else it does not need: it runs on every tool call.
 */
import { processIO, UsageError, type IO } from './io.js';
import { getParser } from '../parse/index.js';

export async function run(argv: string[], io: IO): Promise<number> {
  try {
    if (argv[0] === 'hook' && argv.every((a) => a === 'hook' || a === '--exit-code')) {
      const exitCode = argv.includes('--exit-code');
      try {
        const { runHook } = await import('../hook/hook.js');
        return await runHook(io, { exitCode, getParser: () => getParser() });
      } catch (err) {
        // Never a silent allow: an internal failure asks the person, with the reason.
        const reason = `bashguard could not analyze this call (internal error: ${(err as Error).message.split('\n')[0]})`;
        if (exitCode) {
          io.stderr(reason + '\n');
          return 2;
        }
        io.stdout(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: reason } }) + '\n');
        return 0;
      }
    }
    const { runProgram } = await import('./program.js');
    return await runProgram(argv, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`bashguard: ${err.message}\n`);
      return err.exitCode;
    }
    const e = err as Error;
    io.stderr(`bashguard: internal error: ${e.message.split('\n')[0]}${io.env.BASHGUARD_DEBUG ? `\n${e.stack}` : ' (set BASHGUARD_DEBUG=1 for details)'}\n`);
    return 2;
  }
}

export async function main(): Promise<void> {
  const io = processIO();
  const argv = process.argv.slice(2);
  const code = await run(argv, io).catch(() => 2);
  process.exitCode = code;
}
