/**
 * Where bashguard keeps its V8 code caches (src/runtime/startup/code-cache.ts). Its own module so that the
 * workspace can protect the directory (BG1005: bytecode planted there would run in the hook)
 * without loading the cache code; the hook keeps its event there for the supervisor too
 * (src/frontends/hook/kept-event.ts).
 */
import { chmodSync, closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync } from 'node:fs';
import { nativeIO } from '../../util/native-io.js';
import { parentOf } from '../../util/under.js';
import { cacheLocation } from './cache-location.js';

type Env = Record<string, string | undefined>;

export { cacheLocation };

/** The cache directory to use: cacheLocation, or null when BASHGUARD_CODE_CACHE switches it off. */
export function cacheDir(env: Env): string | null {
  if (env.BASHGUARD_CODE_CACHE === '0' || env.BASHGUARD_CODE_CACHE === 'off') return null;
  return cacheLocation(env);
}

export function uid(): number | null {
  return typeof process.getuid === 'function' ? process.getuid() : null;
}

/** The directory is ours alone: a real directory (not a link), owned by us, mode 0700 or tighter. */
export function dirIsPrivate(dir: string): boolean {
  const me = uid();
  if (me === null) return false;
  // (Through the addon when this process has loaded it: one lstat, no Node fs function run cold.)
  const native = nativeIO(false);
  if (native) return native.privateDir(dir);
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === me && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** Creates the directory (0700) or makes sure it is ours and private. Never throws. */
export function prepareDir(dir: string): boolean {
  const me = uid();
  if (me === null) return false;
  // (the common case, one lstat: Node's recursive mkdir costs a fresh process ~0.2 ms)
  if (dirIsPrivate(dir)) return true;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory() || st.uid !== me) return false;
    if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
    return dirIsPrivate(dir);
  } catch {
    return false;
  }
}

/**
 * `read(fd, size)` of `file` when it is one of ours to trust: in a private directory, opened
 * without following a link, a regular file owned by us that nobody else can write. null
 * otherwise, or when `read` throws or returns null. The descriptor is closed here.
 */
export function readPrivateFile<T>(file: string, read: (fd: number, size: number) => T | null): T | null {
  if (!dirIsPrivate(parentOf(file))) return null;
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO put there would otherwise block the open until a writer came, and the
    // hook opens its code cache before it arms its time limit (src/util/time-limit.ts). It
    // changes nothing for a regular file, the only kind read.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.uid !== uid() || (st.mode & 0o022) !== 0) return null;
    return read(fd, st.size);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
