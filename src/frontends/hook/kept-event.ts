/**
 * The event kept for the supervisor (bin/bashguard-hook). The supervisor stops an analysis that
 * runs past its limit and then answers from the event and the configuration alone (`hook
 * --unfinished`). It used to keep the event itself (`cat` into a shell variable, then `printf`
 * into a pipe to node): two more processes on every tool call, ~2.5 ms of CPU.
 * Now the hook keeps it: `hook --keep-event TOKEN` writes the event it read to a private file
 * before analysing it and removes the file once its answer is out; the `--unfinished` run given
 * the same TOKEN takes the event from there.
 *
 * The file lives in bashguard's private cache directory (0700, a BG1005 protected path, like the
 * code caches) and is created exclusively, mode 0600; it is read only when it is a regular file
 * of ours that nobody else can write. Anything wrong means "no kept event", which the
 * `--unfinished` run answers without the event (never an allow).
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { cacheLocation, dirIsPrivate, prepareDir, readPrivateFile, nativeIO } from '../../runtime/index.js';

type Env = Record<string, string | undefined>;

/** The kept event's file for TOKEN (the supervisor's shell pid), or null when unusable. */
export function keptEventFile(env: Env, token: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(token)) return null;
  const dir = cacheLocation(env);
  return dir ? `${dir}/event-${token}.json` : null;
}

/** Writes `raw` to `file` (exclusively, 0600, in the private directory). Never throws. */
export function keepEvent(file: string, raw: string): boolean {
  const dir = file.slice(0, file.lastIndexOf('/'));
  // The code cache has usually made the directory already: one lstat instead of mkdir + lstats.
  if (!dirIsPrivate(dir) && !prepareDir(dir)) return false;
  // Through the addon where it is built (src/util/native-io.ts): the installed hook does this on
  // every call, and Node's writeFileSync and unlinkSync would each run cold in its fresh process.
  const native = nativeIO();
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      if (native) native.createFile(file, raw);
      else writeFileSync(file, raw, { mode: 0o600, flag: 'wx' });
      return true;
    } catch (err) {
      // A file left by a supervisor that was killed, whose pid this one reuses: replace it once.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
      dropKeptEvent(file);
    }
  }
  return false;
}

export function dropKeptEvent(file: string): void {
  const native = nativeIO();
  if (native) return void native.removeFile(file);
  try {
    unlinkSync(file);
  } catch {
    // not there
  }
}

/** The kept event in `file`, removed once read; null when missing or not trustworthy. */
export function takeKeptEvent(file: string): string | null {
  try {
    return readPrivateFile(file, (fd) => readFileSync(fd, 'utf8'));
  } finally {
    dropKeptEvent(file);
  }
}
