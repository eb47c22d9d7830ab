/**
 * The hook's start-up entry (dist/hook-start.cjs, loaded by bin/bashguard.js for `bashguard hook`):
 * loads the hook bundle dist/hook.cjs through the V8 code cache (./code-cache.ts) and runs it.
 * Kept tiny and free of imports beyond node builtins that every Node process has loaded anyway.
 */
import { join } from 'node:path';
import { loadBundle } from './code-cache.js';
import { setWasmStartupFlags } from './v8-flags.js';
import { fastHookArgs } from '../cli/hook-args.js';

/** Whether `argv` (after the script) is the hook's fast path; bin/bashguard.js asks this. */
export function isFastHook(argv: string[]): boolean {
  return fastHookArgs(argv) !== null;
}

/** sha256 (hex, shortened) of dist/hook.cjs, set by scripts/build.mjs. */
declare const __BG_HOOK_KEY__: string;

export function startHook(): Promise<void> {
  // A process told to parse with WASM sets the WASM flags first (./v8-flags.ts): its code cache,
  // a file of its own, then holds the whole run instead of what ran before the flags changed.
  const wasm = process.env.BASHGUARD_PARSER === 'wasm';
  if (wasm) setWasmStartupFlags();
  // This module's own require resolves from dist/, as the bundle's would (and costs nothing more).
  const loaded = loadBundle(__dirname, 'hook.cjs', wasm ? `${__BG_HOOK_KEY__}-wasm` : __BG_HOOK_KEY__, require, 'code cache');
  return (loaded.exports as { main(): Promise<void> }).main();
}

// Run directly (`node dist/hook-start.cjs hook [--exit-code]`, what bin/bashguard-hook does):
// one module load less than through bin/bashguard.js.
if (typeof require !== 'undefined' && require.main === module) {
  const argv = process.argv.slice(2);
  if (isFastHook(argv)) void startHook();
  // Anything else is the CLI's: bin/bashguard.js reads the same argv.
  else require(join(__dirname, '..', 'bin', 'bashguard.js'));
}
