/**
 * The CLI's entry (dist/bashguard.js, loaded by bin/bashguard.js for everything but the hook's
 * fast path and lint). `run(argv, io)` returns an exit code and never calls process.exit.
 * `bashguard hook ...` takes the hook's own fast path (./hook-main.ts), without commander.
 */
import { directIO, processIO, reportEscaped } from '../io.js';
import { exitAfterHook, hookIO, run } from './hook-main.js';
import { fastWasmStart } from '../../runtime/index.js';
import { useWasmLoader } from '../../engine/parse/wasm.js';

export { run };

/** docs/usage.md's flags table (scripts/gen-flags-table.mjs); loaded only when asked for. */
export async function flagsTable(): Promise<string> {
  return (await import('./flags-table.js')).flagsTable();
}

export async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  // `hook` arguments the fast path does not take (`hook --unfinished`, the restart of a hook
  // past its time limit) come here: the hook's I/O and exit all the same.
  const isHook = argv[0] === 'hook';
  if (isHook) useWasmLoader(fastWasmStart);
  const io = isHook ? (directIO() ?? hookIO()) : processIO();
  // run() reports its own errors; anything escaping it (a failing stderr write ...) still gets a line.
  const code = await run(argv, io).catch(reportEscaped);
  if (isHook) exitAfterHook(code);
  else process.exitCode = code;
}
