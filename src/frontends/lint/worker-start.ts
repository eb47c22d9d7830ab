/**
 * Entry of the lint child process (dist/lint-worker-start.cjs, forked by ./isolated.ts): loads
 * the worker bundle dist/lint-worker.cjs through the V8 code cache (src/runtime/startup/code-cache.ts), as
 * the hook's start-up entry does, so a lint run does not pay for compiling the ~360 KB bundle in
 * its child every time. The cache is keyed by a hash of the worker bundle (computed by the build)
 * and written when the child ends normally (the parent disconnects it once every file is done).
 */
import { CODE_CACHE_REQUIRE_WARM_UP, loadStartBundle } from '../../runtime/index.js';

/** sha256 (hex, shortened) of dist/lint-worker.cjs, set by scripts/build.mjs. */
declare const __BG_LINT_WORKER_KEY__: string;

// Written only after the training run (../lint/training.ts): a child that ended without work
// (never sent a file) leaves the cache to the next one.
(globalThis as Record<symbol, unknown>)[CODE_CACHE_REQUIRE_WARM_UP] = true;
loadStartBundle(__dirname, 'lint-worker.cjs', `lint-${__BG_LINT_WORKER_KEY__}`, require, 'lint worker code cache');
