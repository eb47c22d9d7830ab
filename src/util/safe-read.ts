/**
 * The one way the hook reads a file the agent may have put in place (its config files, the
 * settings layers, git's `.git` files, the decision log, kept events): the agent can create a FIFO,
 * a device node, a directory or a huge file at any of those paths, and a plain `readFileSync` of a
 * FIFO blocks until a writer comes, which is forever (the time limit then fires and its fallback,
 * reading the same file, blocks too).
 *
 * So: open(2) with O_NONBLOCK (a FIFO opens at once instead of waiting for a writer; a regular
 * file ignores the flag), and O_NOFOLLOW where the caller asks; fstat(2) the descriptor (not the
 * path: the file read is the file checked) and read only a regular file; at most `maxBytes`.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** Config, settings and `.git` files are small; anything larger is not one of them. */
export const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

export type SafeReadError = {
  /** ENOENT, ENOTDIR, EISDIR (a directory), ENOTREG (a FIFO, socket or device), EFBIG (over the bound), ELOOP (a symlink under nofollow), or the open's code. */
  code: string;
  /** One line naming the file and what is wrong with it. */
  message: string;
};

export type SafeReadResult = { ok: true; text: string } | ({ ok: false } & SafeReadError);

export interface SafeReadOptions {
  maxBytes?: number;
  /** Refuse a symlink at the last component (O_NOFOLLOW). */
  noFollow?: boolean;
}

/** What kind of non-regular file a mode is, for messages. */
export function kindOf(st: { isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean; isDirectory(): boolean }): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isDirectory()) return 'a directory';
  return 'not a regular file';
}

/** Reads a regular file as UTF-8, never blocking on what sits at `file`. Never throws. */
export function readRegularFile(file: string, opts: SafeReadOptions = {}): SafeReadResult {
  const max = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (opts.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    return { ok: false, code, message: `${file}: cannot read (${code === 'ELOOP' && opts.noFollow ? 'a symlink, not followed here' : code})` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) {
      return { ok: false, code: st.isDirectory() ? 'EISDIR' : 'ENOTREG', message: `${file}: ${kindOf(st)}, not a regular file; not read` };
    }
    if (st.size > max) return { ok: false, code: 'EFBIG', message: `${file}: ${st.size} bytes, over the ${max}-byte bound; not read` };
    // The size can change after the fstat: read at most one byte past the bound to notice.
    const buf = Buffer.allocUnsafe(Math.min(max, st.size) + 1);
    let len = 0;
    for (;;) {
      const n = readSync(fd, buf, len, buf.length - len, null);
      if (n <= 0) break;
      len += n;
      if (len === buf.length) {
        return len > max
          ? { ok: false, code: 'EFBIG', message: `${file}: over the ${max}-byte bound; not read` }
          : { ok: false, code: 'EAGAIN', message: `${file}: grew while it was read; not read` };
      }
    }
    return { ok: true, text: buf.toString('utf8', 0, len) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    return { ok: false, code, message: `${file}: cannot read (${code})` };
  } finally {
    closeSync(fd);
  }
}

/** readRegularFile that throws an Error with `code` and the one-line message (for callers built around readFileSync). */
export function readRegularFileOrThrow(file: string, opts: SafeReadOptions = {}): string {
  const r = readRegularFile(file, opts);
  if (r.ok) return r.text;
  const err = new Error(r.message) as NodeJS.ErrnoException;
  err.code = r.code;
  throw err;
}
