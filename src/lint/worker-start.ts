/**
 * Entry of the lint child process (dist/lint-worker-start.cjs, forked by ./isolated.ts): loads
 * the worker bundle dist/lint-worker.cjs through the V8 code cache (src/startup/code-cache.ts), as
 * the hook's start-up entry does, so a lint run does not pay for compiling the ~360 KB bundle in
 * its child every time. The cache is keyed by a hash of the worker bundle (computed by the build)
 * and written when the child ends normally (the parent disconnects it once every file is done).
 */
import { join } from 'node:path';
import { cacheDir, cacheFileName, loadWithCodeCache } from '../startup/code-cache.js';

/** sha256 (hex, shortened) of dist/lint-worker.cjs, set by scripts/build.mjs. */
declare const __BG_LINT_WORKER_KEY__: string;

const dir = cacheDir(process.env);
const loaded = loadWithCodeCache(join(__dirname, 'lint-worker.cjs'), dir ? join(dir, cacheFileName(`lint-${__BG_LINT_WORKER_KEY__}`)) : null, require);
if (process.env.BASHGUARD_CODE_CACHE_DEBUG) process.stderr.write(`bashguard: lint worker code cache ${loaded.state}${loaded.file ? ` ${loaded.file}` : ''}\n`);
