/**
 * The hook's start-up entry (dist/hook-start.cjs, loaded by bin/bashguard.js for `bashguard hook`,
 * run by the launcher `bashguard install` writes): loads the hook bundle dist/hook.cjs through the
 * V8 code cache and runs it.
 *
 * This file is parsed and compiled from source in every hook process, and each of its functions
 * that runs costs the process a compile of its own. So it carries only the common case
 * (./cached-load.ts), in few functions; the rest of the loader (the JavaScript reader, the cache's
 * writer, the WASM flags) is dist/code-cache.cjs (./full-load.ts), loaded when needed. And its
 * exports are set on `module.exports` by hand: as ES exports, the bundler's interop helpers would
 * be more functions to compile (measurements: docs/history/performance.md).
 */
import { fastHookArgs } from './hook-args.js';
import { tryTreeAddonIn } from '../../util/tree-addon.js';
import { fullLoader, loadStartBundle } from './cached-load.js';
import { LEAN_FLAGS, leanFlagsPay } from './v8-flags.js';

/** Whether `argv` (after the script) is the hook's fast path; bin/bashguard.js asks this. */
function isFastHook(argv: string[]): boolean {
  return fastHookArgs(argv) !== null;
}

/** sha256 (hex, shortened) of dist/hook.cjs, set by scripts/build.mjs. */
declare const __BG_HOOK_KEY__: string;

function startHook(): Promise<void> {
  // A process told to parse with WASM sets the WASM flags first (./v8-flags.ts): its code cache,
  // a file of its own, then holds the whole run instead of what ran before the flags changed.
  const wasm = process.env.BASHGUARD_PARSER === 'wasm';
  if (wasm) fullLoader().setWasmStartupFlags();
  // LEAN_FLAGS (./v8-flags.ts) unless given, set through the addon, which the bundle's parser
  // then uses too. After this module's Node modules are loaded (they still come from Node's
  // embedded code cache) and before the bundle is compiled (its cache file is one of its own).
  let lean = false;
  if (!wasm && leanFlagsPay() && !process.execArgv.includes('--no-sparkplug') && process.env.BASHGUARD_LEAN !== '0') {
    try {
      const set = tryTreeAddonIn(__dirname.slice(0, __dirname.lastIndexOf('/')))?.setV8Flags;
      lean = typeof set === 'function' && set(LEAN_FLAGS) === true;
    } catch {
      // V8's own flags then, and their cache file
    }
  }
  const key = wasm ? `${__BG_HOOK_KEY__}-wasm` : lean ? `${__BG_HOOK_KEY__}-lean` : __BG_HOOK_KEY__;
  // This module's own require resolves from dist/, as the bundle's would (and costs nothing more).
  const loaded = wasm ? fullLoader().loadBundle(__dirname, 'hook.cjs', key, require, 'code cache') : loadStartBundle(__dirname, 'hook.cjs', key, require, 'code cache');
  return (loaded.exports as { main(): Promise<void> }).main();
}

module.exports = { isFastHook, startHook };

// Run directly (`node dist/hook-start.cjs hook [--exit-code]`, what bin/bashguard-hook does, and
// the launcher through Module._load): one module load less than through bin/bashguard.js.
if (typeof require !== 'undefined' && require.main === module) {
  const argv = process.argv.slice(2);
  if (fastHookArgs(argv) !== null) void startHook();
  // Anything else is the CLI's: bin/bashguard.js reads the same argv.
  else require(__dirname.slice(0, __dirname.lastIndexOf('/')) + '/bin/bashguard.js');
}
