/**
 * The hook's stdin, stdout, decision log, kept event and the workspace's stat calls (and lint's
 * report) through bashguard's addon (native/file-io.c) instead of Node's fs functions, whose first
 * call in a process runs Node's own JavaScript for it cold (fstatSync and readSync ~0.11 ms each,
 * writeSync ~0.07, openSync ~0.05; docs/history/performance.md). The hook is a fresh process
 * on every tool call and loads the addon anyway.
 * null where the addon is not built, is from another version, or BASHGUARD_NATIVE_IO=0 (the tests
 * compare both paths): callers then use Node's fs as before.
 */
import { loadedTreeAddon, treeAddon } from './tree-addon.js';

export interface NativeIO {
  /** Every byte of `fd` until its end, decoded as UTF-8; null when `fd` is a terminal. Throws errors with Node's `code`. */
  readAll(fd: number): string | null;
  /** Writes all of `text` (UTF-8) to `fd`. Throws errors with Node's `code` (EPIPE included). */
  writeAll(fd: number, text: string): true;
  /**
   * Appends `text` to `file` (created 0600) unless the file is not empty and the text would take
   * it past `maxBytes`: then false, nothing written. Throws errors with Node's `code` (ENOENT for
   * a missing directory).
   */
  appendLine(file: string, text: string, maxBytes: number): boolean;
  /**
   * What stat(2) (lstat(2) when `follow` is false) says of `path`: a regular file's size (>= 0),
   * or one of STAT below. Never throws for a path string.
   */
  statKind(path: string, follow: boolean): number;
  /** A new file (exclusive, 0600 less the umask) holding `text`. Throws errors with Node's `code` (EEXIST included). */
  createFile(path: string, text: string): true;
  /** unlink(2): whether it removed the file. */
  removeFile(path: string): boolean;
  /** A real directory owned by this user with mode 0700 or tighter (src/runtime/startup/cache-dir.ts dirIsPrivate). */
  privateDir(path: string): boolean;
  /** isatty(3), without loading node:tty (which loads node:net). */
  isTerminal(fd: number): boolean;
}

/** statKind's answers other than a regular file's size (native/file-io.c has the same). */
export const STAT = { ENOENT: -1, ERROR: -2, DIRECTORY: -3, OTHER: -4, SYMLINK: -5, ENOTDIR: -6 } as const;

const NAMES = ['readAll', 'writeAll', 'appendLine', 'statKind', 'createFile', 'removeFile', 'privateDir', 'isTerminal'] as const satisfies readonly (keyof NativeIO)[];
let io: NativeIO | null | undefined;

/**
 * The addon's file functions, loading the addon when this process has not yet; with `load` false
 * only if it is loaded already (src/runtime/startup/cache-dir.ts, which the start entries carry: they must
 * not load it from there).
 */
export function nativeIO(load = true): NativeIO | null {
  if (io !== undefined) return io;
  if (process.platform === 'win32' || process.env.BASHGUARD_NATIVE_IO === '0') return (io = null);
  let addon: Record<string, unknown> | null;
  try {
    addon = load ? treeAddon() : loadedTreeAddon();
  } catch {
    return (io = null);
  }
  // (Not loaded yet, and not to be loaded here: a later call may still load it.)
  return addon ? (io = usable(addon)) : null;
}

/** What statKind's answer says, as a name: a regular file, a directory, anything else, nothing there (ENOENT, ENOTDIR), or an error. */
export type StatName = 'file' | 'directory' | 'other' | 'missing' | 'error';

export function statName(kind: number): StatName {
  if (kind >= 0) return 'file';
  if (kind === STAT.DIRECTORY) return 'directory';
  if (kind === STAT.OTHER || kind === STAT.SYMLINK) return 'other';
  return kind === STAT.ENOENT || kind === STAT.ENOTDIR ? 'missing' : 'error';
}

function usable(a: Record<string, unknown>): NativeIO | null {
  return NAMES.every((n) => typeof a[n] === 'function') ? (a as unknown as NativeIO) : null;
}
