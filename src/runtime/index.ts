/**
 * The runtime's face: what the policy, the layers and the front ends may use of the speed
 * machinery (the V8 code caches and their start-up loaders, the hook's small fact cache, the
 * native file I/O of the addon, the stage marks). Nothing outside src/runtime/ imports a file of it
 * but this one (scripts/check-layers.mjs), and the engine imports none of it: the analysis is the
 * same with every piece of it off.
 *
 * Kept out of the runtime, in src/util/: the addon's loader (tree-addon.ts), its lstat
 * (native-lstat.ts) and `moduleRequire`, which the engine's parser needs to exist at all.
 */
export { mark, stagesLine } from './startup/marks.js';
export { smallCache, type SmallCache } from './startup/small-cache.js';
export { cacheLocation } from './startup/cache-location.js';
export { cacheDir, dirIsPrivate, prepareDir, readPrivateFile } from './startup/cache-dir.js';
export { CODE_CACHE_REQUIRE_WARM_UP, CODE_CACHE_WARM_UP, CODE_CACHE_WARMED } from './startup/cache-name.js';
export { loadStartBundle } from './startup/cached-load.js';
export { v8FlagSetter } from './startup/v8-flags.js';
export { fastHookArgs } from './startup/hook-args.js';
export { fastWasmStart } from './startup/wasm-start.js';
export { nativeIO, STAT, statName, type NativeIO, type StatName } from '../util/native-io.js';
