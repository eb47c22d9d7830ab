/**
 * What the code cache's reader and writer (./code-cache.ts) and the start entries' common case
 * (./cached-load.ts) agree on: the file's name and place, its magic, the wrapper the bundle is
 * compiled in, and the globals of the warm-up protocol the bundles read (src/frontends/hook/warm-up.ts,
 * src/frontends/lint/training.ts) without loading the cache's code.
 */
import { cacheDir } from './cache-dir.js';

/** The first bytes of a cache file (latin1). */
export const MAGIC_TEXT = 'BGCC\x01\n\0\0';

/** Node's CommonJS wrapper, so the bundle sees the same free variables as under `require`. */
export const WRAP_HEAD = '(function (exports, require, module, __filename, __dirname) { ';
export const WRAP_TAIL = '\n})';

export type CacheState = 'hit' | 'miss' | 'rejected' | 'off';

export interface LoadResult {
  exports: unknown;
  /** hit: V8 used the cached data; miss: no valid file; rejected: V8 refused it; off: no cache. */
  state: CacheState;
  /** The cache file, when there is a usable cache directory. */
  file: string | null;
}

/**
 * The file for `key` under this Node. V8 refuses data made under other V8 flags, so processes
 * started with other flags (node options on the command line or in NODE_OPTIONS) get their own
 * file instead of rewriting each other's.
 */
export function cacheFileName(key: string, execArgv: string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): string {
  const flags = execArgv.join('\0') + '\0' + nodeOptions;
  let h = 0x811c9dc5;
  for (let i = 0; i < flags.length; i++) h = Math.imul(h ^ flags.charCodeAt(i), 16777619);
  const variant = flags === '\0' ? '' : `-f${(h >>> 0).toString(16)}`;
  return `hook-${key}-node${process.versions.node}-${process.arch}${variant}.cache`;
}

/** The cache file for `key` in the user's cache directory (./cache-dir.ts cacheDir), or null when there is none. */
export function cacheFilePath(key: string, env: Record<string, string | undefined> = process.env, execArgv: string[] = process.execArgv): string | null {
  const dir = cacheDir(env);
  return dir === null ? null : dir + '/' + cacheFileName(key, execArgv, env.NODE_OPTIONS ?? '');
}

/** The global set to true when this process will write the code cache (src/frontends/hook/warm-up.ts reads it). */
export const CODE_CACHE_WARM_UP = Symbol.for('bashguard.codeCacheWarmUp');
/**
 * Set to true by a start entry whose cache must come from a warmed-up process (the lint child, a
 * lint that analyzes in its own process): the cache is then written only if CODE_CACHE_WARMED is
 * true by the end (src/frontends/lint/training.ts sets it after its training run).
 */
export const CODE_CACHE_REQUIRE_WARM_UP = Symbol.for('bashguard.codeCacheRequireWarmUp');
export const CODE_CACHE_WARMED = Symbol.for('bashguard.codeCacheWarmed');
