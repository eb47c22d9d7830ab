/**
 * Small facts the hook computes on every call and may keep between calls (the enforcement's
 * sandbox plan for a worktree, src/layers/sandbox/enforce.ts), in the same private directory as the
 * V8 code caches (./cache-dir.ts) and with the same trust rules: a directory of the user's with
 * mode 0700, a regular file of the user's that nobody else can write, opened without following a
 * link, written to a temporary name and renamed. The directory is a protected region of every
 * workspace (BG1005) and read-only inside the enforcement's sandbox, so the agent cannot plant a
 * fact there. What a fact means, and when it still holds, is the caller's business.
 */
import { readdirSync, readSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { cacheDir, prepareDir, readPrivateFile } from './cache-dir.js';

type Env = Record<string, string | undefined>;

export interface SmallCache {
  /** The text stored under `name`, or null. Never throws. */
  read(name: string): string | null;
  /** Stores `text` under `name`, whole or not at all. Never throws. */
  write(name: string, text: string): void;
  /**
   * The path of a private file that holds exactly `bytes` (written now where it is missing or
   * holds anything else), for a program to open by name; null where it cannot be made. Never throws.
   */
  file(name: string, bytes: Uint8Array): string | null;
}

/** Facts not written for this long are removed when another one is written (a layout that changed). */
const PRUNE_AFTER_MS = 30 * 24 * 3600 * 1000;

function prune(dir: string, keep: string): void {
  const now = Date.now();
  for (const n of readdirSync(dir)) {
    const p = `${dir}/${n}`;
    if (p === keep || !/^fact-.*\.json$/.test(n)) continue;
    try {
      if (now - statSync(p).mtimeMs > PRUNE_AFTER_MS) unlinkSync(p);
    } catch {
      // raced with another process, or not ours to remove
    }
  }
}

/** Largest fact read back (a plan is a few KB). */
const MAX_BYTES = 1 << 20;

/** The cache in `env`'s cache directory, made if missing; null where there is none (BASHGUARD_CODE_CACHE=0, no HOME, not private). */
export function smallCache(env: Env): SmallCache | null {
  const dir = cacheDir(env);
  // (made now, before the caller computes anything from the file system: the directory is a
  // control path, and a plan made before it existed would differ from every later one)
  if (!dir || !prepareDir(dir)) return null;
  const file = (name: string) => `${dir}/fact-${name.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`;
  return {
    read(name) {
      return readPrivateFile(file(name), (fd, size) => {
        if (size > MAX_BYTES) return null;
        const buf = Buffer.allocUnsafe(size);
        let got = 0;
        while (got < size) {
          const n = readSync(fd, buf, got, size - got, got);
          if (n <= 0) break;
          got += n;
        }
        return got === size ? buf.toString('utf8') : null;
      });
    },
    file(name, bytes) {
      const f = `${dir}/blob-${name.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
      const same = readPrivateFile(f, (fd, size) => {
        if (size !== bytes.length) return false;
        const buf = Buffer.allocUnsafe(size);
        return readSync(fd, buf, 0, size, 0) === size && buf.equals(bytes);
      });
      if (same) return f;
      const tmp = `${dir}/.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
      try {
        writeFileSync(tmp, bytes, { mode: 0o600, flag: 'wx' });
        renameSync(tmp, f);
        return f;
      } catch {
        try {
          unlinkSync(tmp);
        } catch {
          // not written
        }
        return null;
      }
    },
    write(name, text) {
      const tmp = `${dir}/.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
      try {
        writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
        renameSync(tmp, file(name));
        prune(dir, file(name));
      } catch {
        try {
          unlinkSync(tmp);
        } catch {
          // not written
        }
      }
    },
  };
}
