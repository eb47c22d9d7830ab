/**
 * The hook's start-up entry (dist/hook-start.cjs, loaded by bin/bashguard.js for `bashguard hook`):
 * loads the hook bundle dist/hook.cjs through the V8 code cache (./code-cache.ts) and runs it.
 * Kept tiny and free of imports beyond node builtins that every Node process has loaded anyway.
 */
import { join } from 'node:path';
import { loadBundle } from './code-cache.js';
import { setWasmStartupFlags } from './v8-flags.js';
import { fastHookArgs } from '../cli/hook-args.js';
import { treeAddonIn } from '../util/tree-addon.js';

/**
 * V8 flags for a process that lives ~25 ms, the ones bin/bashguard-hook passes on its command line:
 * no Sparkplug batch compiles and no Maglev jobs, work that could only pay off in a longer run.
 * A hook started without them (`bashguard hook`, `node dist/hook-start.cjs hook`: what other
 * installs and the bench's bare hook run) sets them here, through bashguard's addon (V8's own
 * SetFlagsFromString, src/startup/v8-flags.ts), after the entry's Node modules are loaded (so
 * they still come from Node's embedded code cache) and before the bundle is compiled, with a code
 * cache file of its own (V8 refuses data made under other flags). Node 20, medians of 80
 * alternated: allow / deny 25.78 / 25.70 -> 24.96 / 25.05 ms; Node 22 26.06 / 25.99 -> 25.65 /
 * 25.04 ms (bench/README.md, sixteenth round). Not on V8 13 and later (Node 24): there the time
 * was the same and the peak RSS 1.7 MiB higher (45.8 -> 47.5 MiB, of the hook's 48).
 * BASHGUARD_LEAN=0 leaves V8's flags alone.
 */
const LEAN_FLAGS = '--no-sparkplug --no-maglev';

/** Whether this V8 is one LEAN_FLAGS pay off on (Node 20 and 22). */
export function leanFlagsPay(v8Version: string = process.versions.v8): boolean {
  return Number(v8Version.split('.')[0]) < 13;
}

/** Sets LEAN_FLAGS through the addon unless they were given; true when set here. */
function setLeanFlags(): boolean {
  if (!leanFlagsPay() || process.execArgv.includes('--no-sparkplug') || process.env.BASHGUARD_LEAN === '0') return false;
  try {
    const set = treeAddonIn(join(__dirname, '..')).setV8Flags;
    return typeof set === 'function' && set(LEAN_FLAGS) === true;
  } catch {
    return false;
  }
}

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
  const lean = !wasm && setLeanFlags();
  // This module's own require resolves from dist/, as the bundle's would (and costs nothing more).
  const loaded = loadBundle(__dirname, 'hook.cjs', wasm ? `${__BG_HOOK_KEY__}-wasm` : lean ? `${__BG_HOOK_KEY__}-lean` : __BG_HOOK_KEY__, require, 'code cache');
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
