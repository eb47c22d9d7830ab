/**
 * dist/code-cache.cjs: the start entries' loader beyond its common case (./cached-load.ts), loaded
 * only when that case does not apply: the JavaScript reader and its checks, the cache's writer
 * and the warm-up protocol (./code-cache.ts), and the WASM fallback's flags (./v8-flags.ts).
 */
export { loadBundle, writeCacheAfterRun } from './code-cache.js';
export { setWasmStartupFlags } from './v8-flags.js';
