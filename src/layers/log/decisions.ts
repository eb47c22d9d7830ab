/**
 * The decision log (issue #12 item 5): every non-allow hook decision appended as one JSON line to
 * `$XDG_STATE_HOME/bashguard/decisions.jsonl` (default `~/.local/state/bashguard/...`), for people
 * who cannot watch an unattended session. The file is capped: past `MAX_LOG_BYTES` it is renamed
 * to `decisions.jsonl.1` (replacing the previous one) and a new file is started. Writing the log is
 * never a reason for the hook to fail: errors go to stderr only. The log directory is protected
 * (BG1005; src/policy/workspace/workspace.ts), so the agent cannot erase what it tried.
 */
import { closeSync, constants, fstatSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { readRegularFile } from '../../util/safe-read.js';
import { dirname } from 'node:path';
import { nativeIO } from '../../runtime/index.js';
import { under } from '../../util/under.js';
import { decisionLogDir } from '../../policy/workspace/state-dirs.js';

export type Env = Record<string, string | undefined>;

/** Past this size the log is rotated to one `.1` file. */
export const MAX_LOG_BYTES = 1024 * 1024;

export interface DecisionRecord {
  /** ISO 8601 time of the decision. */
  time: string;
  session: string | null;
  cwd: string | null;
  tool: string | null;
  /** The Bash command, or the path of an Edit/Write/... call. */
  command?: string;
  path?: string;
  /** `sandbox`: allowed to run contained (bashguard sandbox run). */
  decision: 'ask' | 'deny' | 'sandbox';
  rules: string[];
  /** The reason the agent was given (whole, up to 8 KiB). */
  reason: string;
  /** CLAUDE_CODE_ENTRYPOINT: cli (interactive), sdk-cli (-p), sdk-ts, sdk-py, ... */
  entrypoint: string | null;
  /** CLAUDE_CODE_SESSION_ATTENDED: "0" when nobody watches the session. */
  attended: string | null;
}

export { decisionLogDir };

export function decisionLogFile(env: Env): string | null {
  const dir = decisionLogDir(env);
  return dir ? under(dir, 'decisions.jsonl') : null;
}

/** Appends one record; returns an error message instead of throwing. */
export function appendDecision(env: Env, record: DecisionRecord, maxBytes = MAX_LOG_BYTES): string | null {
  const file = decisionLogFile(env);
  if (!file) return 'cannot log the decision: neither XDG_STATE_HOME nor HOME is set';
  // Every deny and ask of a hook process comes here, so: open first and create the directory only
  // when that fails (one syscall when the log exists, instead of mkdir + stat + open).
  let fd: number | null = null;
  try {
    const text = JSON.stringify(record) + '\n';
    // The common case through the addon (native/file-io.c: open, fstat, write, close, and no Node
    // fs function run cold in the hook process); a rotation or a missing directory comes here.
    const native = nativeIO();
    if (native) {
      try {
        if (native.appendLine(file, text, maxBytes)) return null;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENXIO') throw new Error('not a regular file (a FIFO, a device or a socket sits at its path); nothing written');
        if (code !== 'ENOENT') throw err;
      }
    }
    const line = Buffer.from(text);
    fd = openLog(file);
    const size = fstatSync(fd).size;
    if (size > 0 && size + line.length > maxBytes) {
      closeSync(fd);
      fd = null;
      renameSync(file, `${file}.1`);
      fd = openLog(file);
    }
    writeSync(fd, line);
    return null;
  } catch (err) {
    return `cannot write the decision log ${file}: ${(err as Error).message.split('\n')[0]}`;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * Opens the log for appending. O_NONBLOCK: a FIFO put at the log's path (the agent can make one
 * where the log is missing) fails with ENXIO or opens at once instead of waiting for a reader;
 * anything but a regular file is then refused. (A regular file ignores the flag.)
 */
function openLog(file: string): number {
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NONBLOCK ?? 0);
  let fd: number;
  try {
    fd = openSync(file, flags, 0o600);
  } catch (err) {
    // (a FIFO with no reader: ENXIO under O_NONBLOCK)
    if ((err as NodeJS.ErrnoException).code === 'ENXIO') throw new Error('not a regular file (a FIFO, a device or a socket sits at its path); nothing written');
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    fd = openSync(file, flags, 0o600);
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw new Error('not a regular file (a FIFO, a device or a socket sits at its path); nothing written');
  }
  return fd;
}

/**
 * `Date.prototype.toISOString` for `ms`, without it: its first call in a process loads the time
 * zone database (/etc/localtime, ~0.25 ms of a hook process), which UTC fields do not need.
 */
export function isoTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const y = d.getUTCFullYear();
  const year = y >= 0 && y <= 9999 ? p(y, 4) : (y < 0 ? '-' : '+') + p(Math.abs(y), 6);
  return `${year}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}T${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}Z`;
}

/** Reads the records (the rotated file first, oldest first); lines that are not records are skipped. */
export function readDecisions(env: Env): { file: string | null; records: DecisionRecord[]; skipped: number } {
  const file = decisionLogFile(env);
  if (!file) return { file, records: [], skipped: 0 };
  const records: DecisionRecord[] = [];
  let skipped = 0;
  for (const f of [`${file}.1`, file]) {
    const r = readRegularFile(f, { maxBytes: 16 * MAX_LOG_BYTES });
    if (!r.ok) continue;
    const text = r.text;
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const r = JSON.parse(line) as DecisionRecord;
        if (typeof r === 'object' && r !== null && typeof r.time === 'string' && typeof r.decision === 'string') records.push(r);
        else skipped++;
      } catch {
        skipped++;
      }
    }
  }
  return { file, records, skipped };
}

/**
 * Parses `--since`: a duration (`90s`, `15m`, `2h`, `7d`) before `now`, or an ISO 8601 time.
 * Returns the cut-off in ms since the epoch, or null when the text is neither.
 */
export function parseSince(text: string, now: number): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(s|m|h|d|w)$/.exec(text.trim());
  if (m) {
    const unit = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3 }[m[2] as 's' | 'm' | 'h' | 'd' | 'w'];
    return now - Number(m[1]) * unit;
  }
  if (/^\d{4}-\d{2}-\d{2}/.test(text.trim())) {
    const t = Date.parse(text.trim());
    return Number.isNaN(t) ? null : t;
  }
  return null;
}
