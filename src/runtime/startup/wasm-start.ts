/**
 * The WASM parser's start-up for a process that lives for one parse (the hook; installed by
 * src/frontends/cli/hook-main.ts and main.ts through the parser's useWasmLoader).
 *
 * V8's flags: by default V8 also compiles the 1.3 MB grammar with TurboFan in the background,
 * which on a small machine costs the hook 0.3-0.6 s of CPU before its one parse finishes; with
 * Liftoff only, compiled lazily, it answers in a fraction of that. The flags are process-wide, so
 * only the hook opts in; the library API keeps V8's defaults, faster for a long-lived process.
 * (A no-op when the process knew it would use WASM and set them first: ./hook-start.ts.)
 *
 * web-tree-sitter's CommonJS build, through a V8 code cache of its own like the hook bundle
 * (./code-cache.ts): compiling its 160 KB from source was ~14 M instructions (~3.5 ms) of every
 * WASM hook. Its cache is made under the WASM flags, which every process that loads it has set by then.
 */
import { statSync } from 'node:fs';
import { cacheDir, cacheFileName, loadWithCodeCache } from './code-cache.js';
import { setWasmStartupFlags } from './v8-flags.js';

export const fastWasmStart = {
  beforeCompile: setWasmStartupFlags,
  load(req: NodeRequire): unknown {
    const file = req.resolve('web-tree-sitter');
    const dir = cacheDir(process.env);
    let cache: string | null = null;
    try {
      // Size and time name the file; the cache's own source check is what makes it safe.
      const st = statSync(file);
      if (dir) cache = dir + '/' + cacheFileName(`wts${st.size}-${Math.trunc(st.mtimeMs)}`);
    } catch {
      // no cache then
    }
    return loadWithCodeCache(file, cache, req, true).exports;
  },
};
