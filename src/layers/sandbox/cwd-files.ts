/**
 * The wrapper's cwd files (./enforce.ts `enforcementWrapper`): where they go, and the sweep that
 * removes those of calls that ended long ago.
 */
import { lstatSync, mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import type { Env } from '../../policy/workspace/config.js';
import { nativeIO } from '../../runtime/index.js';

/** How long a cwd file is kept: longer than any foreground call (Claude Code's Bash timeout is at most 10 min). */
const CWD_FILE_TTL_MS = 30 * 60_000;

/**
 * The directory of the wrapper's cwd files: `<tmp>/bashguard-cwd-<uid>`, created 0700 and used
 * only when it is a directory of this user's that nobody else can write (else null: the files go
 * to `<tmp>` itself and are not swept).
 */
export function cwdDir(env: Env): string | null {
  const tmp = env.TMPDIR?.startsWith('/') ? env.TMPDIR.replace(/\/+$/, '') || '/tmp' : '/tmp';
  const dir = `${tmp}/bashguard-cwd-${process.getuid?.() ?? 'u'}`;
  // (the common case through the addon the hook has loaded: the same test, and Node's lstat not run cold on every allowed call)
  if (nativeIO(false)?.privateDir(dir)) return dir;
  let st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch {
      return null;
    }
    st = lstatSync(dir, { throwIfNoEntry: false });
  }
  if (!st || !st.isDirectory() || (process.getuid && st.uid !== process.getuid()) || (st.mode & 0o077) !== 0) return null;
  return dir;
}

/**
 * How many files one sweep looks at: each costs an lstat run in JavaScript, and the directory is
 * the user's, shared by every session (685 files here made a sweep 7-13 ms and +6 MiB of peak
 * RSS on the call that drew it). A window this size at a random place reaches every file in
 * turn: with one call in 16 sweeping, up to 4 expired files go per call while each call adds
 * one, so the directory stays within ~4/3 of the files of the last CWD_FILE_TTL_MS.
 */
const SWEEP_AT_MOST = 64;

/** Removes the cwd files of calls that ended long ago (by their time of last change), at most `atMost` looked at (see SWEEP_AT_MOST). */
export function sweepCwdFiles(dir: string, now = Date.now(), atMost = SWEEP_AT_MOST): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const count = Math.min(atMost, names.length);
  const start = names.length > count ? Math.floor(Math.random() * names.length) : 0;
  for (let i = 0; i < count; i++) {
    const n = names[(start + i) % names.length]!;
    try {
      const st = lstatSync(`${dir}/${n}`);
      if (now - st.mtimeMs > CWD_FILE_TTL_MS) unlinkSync(`${dir}/${n}`);
    } catch {
      // gone already, or not ours to remove
    }
  }
}

