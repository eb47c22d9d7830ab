/**
 * The common case of loading a bundle through its V8 code cache, and nothing else: bashguard's
 * addon reads the bundle and a cache file that holds exactly it (native/file-io.c readBundle:
 * the same checks as ./code-cache.ts readCache, the private directory and file included), and V8
 * takes the data. Anything else (no addon, no cache directory, no valid file yet, Windows,
 * BASHGUARD_NATIVE_READ=0) returns null before anything ran, and the start entry hands the load to
 * ./code-cache.ts (dist/code-cache.cjs), which also writes the cache. Data that V8 refuses (its
 * own checks, after ours): the bundle is compiled by then, so it runs, and `refused` arranges the
 * new file (loading it again instead would find the script in V8's compilation cache, with no
 * word of the refusal, and the file would never be written again).
 *
 * Why a module of its own: a start entry is compiled from source in every process (it has no code
 * cache), and V8 parses all of it: the rest of the loader (its JavaScript reader and checks, the
 * writer, the pruning, the WASM flags) would be parsed and compiled in every hook process for
 * nothing on a hit (the measurements: docs/history/performance.md).
 */
import { Script, constants as vmConstants } from 'node:vm';
import { cacheFilePath, MAGIC_TEXT, WRAP_HEAD, WRAP_TAIL, type LoadResult } from './cache-name.js';
import { tryTreeAddonIn } from '../../util/tree-addon.js';
import type * as FullLoad from './full-load.js';

/**
 * `dir/bundle` run as `require` would run it, from the cache file for `key`, when the cache is
 * there (and V8 took it, or `refused` was told); null (nothing ran) otherwise. Never throws
 * before the bundle runs; the bundle's own errors are not caught.
 */
export function loadIfCached(
  dir: string,
  bundle: string,
  key: string,
  requireFn: NodeRequire,
  label: string,
  /** Called after the bundle ran from source because V8 refused the file's data (./code-cache.ts writeCacheAfterRun). */
  refused: (file: string, script: Script, text: string) => void,
): LoadResult | null {
  if (process.platform === 'win32' || process.env.BASHGUARD_NATIVE_READ === '0') return null;
  const file = cacheFilePath(key);
  if (file === null) return null;
  const readBundle = tryTreeAddonIn(dir.slice(0, dir.lastIndexOf('/')))?.readBundle;
  if (typeof readBundle !== 'function') return null;
  const path = dir + '/' + bundle;
  let script: Script;
  let text: string;
  try {
    const got = readBundle(path, WRAP_HEAD, WRAP_TAIL, file, MAGIC_TEXT) as [string, Buffer | null] | null;
    if (!got || !got[1]) return null;
    text = got[0];
    script = new Script(text, {
      filename: path,
      cachedData: got[1],
      ...(vmConstants?.USE_MAIN_CONTEXT_DEFAULT_LOADER ? { importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER } : {}),
    });
    releaseData(got[1]);
  } catch {
    return null;
  }
  const state = script.cachedDataRejected ? 'rejected' : 'hit';
  const module = { exports: {} as unknown };
  const fn = script.runInThisContext() as (e: unknown, r: NodeRequire, m: { exports: unknown }, f: string, d: string) => void;
  fn.call(module.exports, module.exports, requireFn, module, path, dir);
  if (state === 'rejected') refused(file, script, text);
  if (process.env.BASHGUARD_CODE_CACHE_DEBUG) process.stderr.write(`bashguard: ${label} ${state} ${file}\n`);
  return { exports: module.exports, state, file };
}

/**
 * The cache data's memory back now, not at the heap's next collection (which a hook process never
 * sees): V8 deserialized it into the heap while compiling and keeps no reference. Detaching its
 * ArrayBuffer (transfer, V8 11.4 and later: Node 22 on) frees the ~0.6 MB block at once, ~0.6 MiB
 * of peak RSS. Only a buffer that is its ArrayBuffer whole (the addon's own, never a pool's).
 */
export function releaseData(data: Buffer): void {
  const ab = data.buffer as ArrayBuffer & { transfer?: (n: number) => ArrayBuffer };
  if (typeof ab.transfer === 'function' && data.byteOffset === 0 && data.byteLength === ab.byteLength) ab.transfer(0);
}

/**
 * The whole loader (dist/code-cache.cjs, ./full-load.ts), for what the common case does not
 * cover: a file next to the start entry this module is bundled into.
 */
export function fullLoader(): typeof FullLoad {
  return require(__dirname + '/code-cache.cjs') as typeof FullLoad;
}

/** What a start entry does: `dir/bundle` through the cache file for `key`, the common case here, the rest through fullLoader. */
export function loadStartBundle(dir: string, bundle: string, key: string, requireFn: NodeRequire, label: string): LoadResult {
  const refused = (file: string, script: Script, text: string): void => fullLoader().writeCacheAfterRun(file, script, text, true);
  return loadIfCached(dir, bundle, key, requireFn, label, refused) ?? fullLoader().loadBundle(dir, bundle, key, requireFn, label);
}
