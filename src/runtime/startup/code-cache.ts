/**
 * A V8 code cache for the hook's CommonJS bundle. The hook is a fresh Node process on every tool
 * call; compiling the ~220 KB bundle and running its functions for the first time in the
 * interpreter is a large part of what it costs above `node -e 0`. The bundle
 * is compiled with `vm.Script` and the `cachedData` V8 produced after an earlier run, so the
 * functions that run come back as bytecode instead of being parsed and compiled again.
 *
 * Safety: V8 checks only its own version, its flags and the source's *length* before trusting
 * cached data, and (in release builds) no checksum of the data. So nothing here trusts a cache
 * file that is not provably the one written for exactly this bundle:
 * - the file name is keyed by a hash of the bundle's content (computed at build time), the Node
 *   version and the architecture, so two installs or two Nodes never share or fight over a file;
 * - the file holds a full copy of the source it was made from and is used only when that copy is
 *   byte-for-byte the bundle read now (a bundle edited in place, even to the same length, is a
 *   miss);
 * - the cached data is stored twice and used only when both copies agree (a torn or damaged file
 *   is a miss), and the lengths in the header must account for every byte;
 * - it lives in a per-user directory ($XDG_CACHE_HOME/bashguard or ~/.cache/bashguard) that
 *   must be a real directory owned by the user with mode 0700 (it is created so; a looser one is
 *   tightened before writing and not read from), and the file must be a regular file owned by the
 *   user and not writable by others. Never /tmp: another user could plant bytecode there;
 * - files are written to a temporary name and renamed, so a reader sees a whole file or none.
 * Any problem (missing, stale, corrupt, unreadable, unwritable) means: compile from source, as
 * without a cache, and write a fresh file after the run if possible. A cache can cost time, never
 * an answer: every error in here is caught, and the bundle's own errors are not.
 */
import { closeSync, constants, fstatSync, openSync, readSync, readdirSync, renameSync, unlinkSync, writeFileSync, statSync } from 'node:fs';
import { isAscii } from 'node:buffer';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script, constants as vmConstants } from 'node:vm';
import { cacheDir, prepareDir, readPrivateFile } from './cache-dir.js';
import { treeAddonIn } from '../../util/tree-addon.js';
import { BEFORE_V8_FLAGS } from './v8-flags.js';
import { cacheFileName, cacheFilePath, CODE_CACHE_REQUIRE_WARM_UP, CODE_CACHE_WARM_UP, CODE_CACHE_WARMED, MAGIC_TEXT, WRAP_HEAD, WRAP_TAIL, type CacheState, type LoadResult } from './cache-name.js';
export { cacheDir, prepareDir, BEFORE_V8_FLAGS, cacheFileName, CODE_CACHE_REQUIRE_WARM_UP, CODE_CACHE_WARM_UP, CODE_CACHE_WARMED, MAGIC_TEXT, WRAP_HEAD, WRAP_TAIL, type CacheState, type LoadResult };

/**
 * MAGIC_TEXT's bytes, made on first use: the hook bundle carries this module (src/engine/parse/wasm.ts,
 * src/frontends/hook/warm-up.ts), and a Buffer made when it is initialised cost every hook process the
 * compile of Node's encoding functions.
 */
let magicBytes: Buffer | null = null;
const magic = (): Buffer => (magicBytes ??= Buffer.from(MAGIC_TEXT, 'latin1'));
const HEADER = MAGIC_TEXT.length + 8;
/** Files of other keys not modified for this long are removed when a new one is written. */
const PRUNE_AFTER_MS = 30 * 24 * 3600 * 1000;

/**
 * The cached data in `file` if it was written for exactly `source`; null otherwise. Never throws.
 */
export function readCache(
  file: string,
  source: Buffer,
  /**
   * Memory the data may be read into instead of a new buffer, when it fits (the loader passes the
   * buffer the source was read into, no longer needed once decoded: ~0.35 MB less peak RSS).
   * Whatever the outcome, its content is not to be used afterwards.
   */
  into?: Buffer,
): Buffer | null {
  return readPrivateFile(file, (fd, size) => {
    if (size < HEADER || size > 64 * 1024 * 1024) return null;
    const header = Buffer.allocUnsafe(HEADER);
    if (!readAt(fd, header, 0)) return null;
    if (!header.subarray(0, MAGIC_TEXT.length).equals(magic())) return null;
    const sourceLen = header.readUInt32LE(MAGIC_TEXT.length);
    const dataLen = header.readUInt32LE(MAGIC_TEXT.length + 4);
    if (dataLen === 0 || HEADER + sourceLen + 2 * dataLen !== size) return null;
    if (sourceLen !== source.length) return null;
    // The copies are compared a chunk at a time: only one copy of the data is ever held (the
    // whole file is ~3x the data, and every byte read into memory is peak RSS of the hook).
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(sourceLen, dataLen)));
    if (!sameAs(fd, HEADER, source, chunk)) return null;
    const data = into && into.length >= dataLen ? into.subarray(0, dataLen) : Buffer.allocUnsafe(dataLen);
    if (!readAt(fd, data, HEADER + sourceLen)) return null;
    return sameAs(fd, HEADER + sourceLen + dataLen, data, chunk) ? data : null;
  });
}

const CHUNK = 64 * 1024;

/** The file's bytes between WRAP_HEAD and WRAP_TAIL, in one buffer. Throws when unreadable. */
function readWrapped(path: string): Buffer {
  // O_NONBLOCK: a FIFO at the path opens at once and is refused, instead of blocking the start.
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error(`${path}: not a regular file`);
    const size = st.size;
    const buf = Buffer.allocUnsafe(WRAP_HEAD.length + size + WRAP_TAIL.length);
    buf.write(WRAP_HEAD, 0, 'latin1');
    if (!readAt(fd, buf.subarray(WRAP_HEAD.length, WRAP_HEAD.length + size), 0)) throw new Error(`${path}: shorter than its size`);
    buf.write(WRAP_TAIL, WRAP_HEAD.length + size, 'latin1');
    return buf;
  } finally {
    closeSync(fd);
  }
}

/**
 * The source bytes a new cache file records, taken from the text that was compiled (the buffer
 * it was decoded from may hold cached data by now). Exact for the ASCII bundles; for other text
 * it is the UTF-8 of what V8 compiled, which a later reader compares with the file as usual.
 */
function sourceBytes(text: string, ascii: boolean): Buffer {
  return Buffer.from(text.slice(WRAP_HEAD.length, text.length - WRAP_TAIL.length), ascii ? 'latin1' : 'utf8');
}

/**
 * The bundle's text between the wrapper's ends and the cache file's data (undefined: no cache to
 * trust), read by bashguard's addon (native/file-io.c readBundle: the same reads and checks as
 * readWrapped and readCache, the text handed to V8 without a copy), which the start entry loads
 * from the bundle's package (`<dist>/../build/Release`) and leaves for the bundle to use. null
 * where there is no addon, it has no readBundle (Windows), the bundle is not ASCII or cannot be
 * read: the caller then reads it in JavaScript (and reports what require would).
 * BASHGUARD_NATIVE_READ=0 asks for the JavaScript reader (the tests compare the two).
 */
function readNatively(bundle: string, file: string | null): [string, Buffer | undefined] | null {
  if (process.platform === 'win32' || process.env.BASHGUARD_NATIVE_READ === '0') return null;
  try {
    const dist = bundle.slice(0, bundle.lastIndexOf('/'));
    const readBundle = treeAddonIn(dist.slice(0, dist.lastIndexOf('/'))).readBundle;
    if (typeof readBundle !== 'function') return null;
    const got = readBundle(bundle, WRAP_HEAD, WRAP_TAIL, file, MAGIC_TEXT) as [string, Buffer | null] | null;
    return got ? [got[0], got[1] ?? undefined] : null;
  } catch {
    return null;
  }
}

/** Fills `buf` from `fd` at `pos`; false when the file ends first. */
function readAt(fd: number, buf: Buffer, pos: number): boolean {
  let off = 0;
  while (off < buf.length) {
    const n = readSync(fd, buf, off, buf.length - off, pos + off);
    if (n === 0) return false;
    off += n;
  }
  return true;
}

/** Whether the file's bytes at `pos` are exactly `expected`, read through `chunk`. */
function sameAs(fd: number, pos: number, expected: Buffer, chunk: Buffer): boolean {
  for (let off = 0; off < expected.length; off += chunk.length) {
    const part = chunk.subarray(0, Math.min(chunk.length, expected.length - off));
    if (!readAt(fd, part, pos + off) || !part.equals(expected.subarray(off, off + part.length))) return false;
  }
  return true;
}

/** Writes a cache file for `source` (atomically, mode 0600, in a 0700 directory). Never throws. */
export function writeCache(file: string, source: Buffer, data: Buffer | (() => Buffer)): boolean {
  const dir = dirname(file);
  if (!prepareDir(dir)) return false;
  let tmp: string | null = null;
  try {
    // Made only once the directory is known to be usable: it costs a few ms.
    const bytes = typeof data === 'function' ? data() : data;
    if (bytes.length === 0) return false;
    const header = Buffer.alloc(HEADER);
    magic().copy(header);
    header.writeUInt32LE(source.length, MAGIC_TEXT.length);
    header.writeUInt32LE(bytes.length, MAGIC_TEXT.length + 4);
    tmp = join(dir, `.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`);
    writeFileSync(tmp, Buffer.concat([header, source, bytes, bytes]), { mode: 0o600, flag: 'wx' });
    renameSync(tmp, file);
    tmp = null;
    prune(dir, file);
    return true;
  } catch {
    return false;
  } finally {
    if (tmp) {
      try {
        unlinkSync(tmp);
      } catch {
        // already gone
      }
    }
  }
}

/**
 * Removes cache files of other keys (other versions, other Nodes) that have not been written for a
 * month, and events kept for the hook's supervisor (src/frontends/hook/kept-event.ts) left over for a day
 * (a supervisor killed in between).
 */
function prune(dir: string, keep: string): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const event = /^event-.*\.json$/.test(name);
    if (path === keep || !(event || /^hook-.*\.cache$|^\.tmp-/.test(name))) continue;
    try {
      if (now - statSync(path).mtimeMs > (event ? 24 * 3600 * 1000 : PRUNE_AFTER_MS)) unlinkSync(path);
    } catch {
      // raced with another process, or not ours to remove
    }
  }
}

/**
 * Loads a CommonJS `bundle` like `require` would, through the code cache `file` (null: no cache).
 * After the process has run (at `exit`), a missing or refused cache is written anew; when the
 * process changed V8's flags meanwhile (the WASM fallback, which announces it through
 * BEFORE_V8_FLAGS: src/runtime/startup/v8-flags.ts), from the bytecode snapshot taken just before, the
 * data made after would be unusable for the next, default-flag process.
 */
export function loadWithCodeCache(
  bundle: string,
  file: string | null,
  /** The `require` the bundle gets: one of a module in the bundle's directory (createRequire when not given). */
  requireFn?: NodeRequire,
  /**
   * A module loaded after the process settled its V8 flags (web-tree-sitter under the WASM
   * flags, src/engine/parse/wasm.ts): its cache is written as the process ends, and it takes no part
   * in the main bundle's flag-change and warm-up protocol (BEFORE_V8_FLAGS, CODE_CACHE_WARM_UP).
   */
  secondary = false,
): LoadResult {
  let text: string;
  let ascii: boolean;
  let script: Script;
  let state: CacheState = 'off';
  try {
    let cachedData: Buffer | undefined;
    const read = readNatively(bundle, file);
    if (read) {
      [text, cachedData] = read;
      ascii = true;
    } else {
      // The file is read between Node's CommonJS wrapper's two ends, in one buffer decoded once:
      // V8 gets one flat string (concatenating the wrapper made it copy the whole text again), and
      // the buffer then takes the cached data (readCache's `into`). Peak RSS: ~0.75 MB less.
      const wrapped = readWrapped(bundle);
      const source = wrapped.subarray(WRAP_HEAD.length, wrapped.length - WRAP_TAIL.length);
      // The build makes the bundle ASCII: latin1 decoding gives V8 a one-byte string, much cheaper.
      ascii = typeof isAscii === 'function' && isAscii(source);
      text = ascii ? wrapped.toString('latin1') : wrapped.toString('utf8');
      cachedData = file ? (readCache(file, source, wrapped) ?? undefined) : undefined;
    }
    script = new Script(text, {
      filename: bundle,
      cachedData,
      // Dynamic import() in the bundle resolves as it would under require (Node >= 20.x has this).
      ...(vmConstants?.USE_MAIN_CONTEXT_DEFAULT_LOADER ? { importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER } : {}),
    });
    state = file === null ? 'off' : cachedData === undefined ? 'miss' : script.cachedDataRejected ? 'rejected' : 'hit';
  } catch {
    // Unreadable bundle or a compile problem: exactly what plain require would do (and report).
    return { exports: createRequire(bundle)(bundle) as unknown, state: 'off', file: null };
  }
  const module = { exports: {} as unknown };
  const fn = script.runInThisContext() as (e: unknown, r: NodeRequire, m: { exports: unknown }, f: string, d: string) => void;
  fn.call(module.exports, module.exports, requireFn ?? createRequire(bundle), module, bundle, dirname(bundle));
  if (file !== null && (state === 'miss' || state === 'rejected')) writeCacheAfterRun(file, script, text, ascii, secondary);
  return { exports: module.exports, state, file };
}

/**
 * Arranges for a cache file to be written for `script` (compiled from `text` without usable data:
 * missing or refused) once the process is done: at `exit`, after the hook's warm-up, or just
 * before the process changes V8's flags. For a bundle run by loadWithCodeCache, and by a start
 * entry's common case whose file V8 refused (./cached-load.ts).
 */
export function writeCacheAfterRun(file: string, script: Script, text: string, ascii: boolean, secondary = false): void {
  if (secondary) {
    process.once('exit', () => writeCache(file, sourceBytes(text, ascii), () => script.createCachedData()));
  } else {
    // A process about to change V8's flags (setWasmStartupFlags, src/runtime/startup/v8-flags.ts) calls this first:
    // bytecode serialized now is still valid for the next default-flag process, so a machine
    // where only WASM works still gets a cache (of what ran before the parser).
    let beforeFlags: Buffer | null = null;
    let flagsChanged = false;
    (globalThis as Record<symbol, unknown>)[BEFORE_V8_FLAGS] = () => {
      flagsChanged = true;
      try {
        beforeFlags ??= script.createCachedData();
      } catch {
        // a cache is an optimisation only
      }
    };
    // The hook bundle runs its typical calls before exit when this is set (src/frontends/hook/warm-up.ts),
    // so the cache written below covers more than this one call's path.
    (globalThis as Record<symbol, unknown>)[CODE_CACHE_WARM_UP] = true;
    process.once('exit', () => {
      try {
        // A process that had to warm up first (CODE_CACHE_REQUIRE_WARM_UP) and did not (a lint run
        // that ended in a usage error before analyzing): this cache would lack what its next
        // processes run, and as a valid file it would never be written again. The next one writes it.
        const g = globalThis as Record<symbol, unknown>;
        if (g[CODE_CACHE_REQUIRE_WARM_UP] === true && g[CODE_CACHE_WARMED] !== true) return;
        if (flagsChanged) {
          if (beforeFlags) writeCache(file, sourceBytes(text, ascii), beforeFlags);
          return;
        }
        writeCache(file, sourceBytes(text, ascii), () => script.createCachedData());
      } catch {
        // a cache is an optimisation only
      }
    });
  }
}

/**
 * What every start entry (hook, lint CLI, lint child) does: loads `dir/<bundle>` through the cache
 * file for `key` in the user's cache directory, and prints `bashguard: <label> <state> <file>`
 * on stderr when BASHGUARD_CODE_CACHE_DEBUG is set.
 */
export function loadBundle(dir: string, bundle: string, key: string, requireFn: NodeRequire, label: string): LoadResult {
  // Concatenation, not path.join (src/util/under.ts): both directories are absolute and normalized.
  const loaded = loadWithCodeCache(dir + '/' + bundle, cacheFilePath(key), requireFn);
  if (process.env.BASHGUARD_CODE_CACHE_DEBUG) process.stderr.write(`bashguard: ${label} ${loaded.state}${loaded.file ? ` ${loaded.file}` : ''}\n`);
  return loaded;
}
