/**
 * The execution oracle: runs commands for real in a throwaway copy of the standard layout and
 * reports what they changed outside the worktree.
 *
 * Isolation: one `unshare --mount --propagation private --net` process runs driver.mjs, which
 * mounts a private tmpfs over /tmp, builds the layout there once (a real git repo and worktrees at
 * /home/dev/...), and runs every case in a nested mount + pid namespace that pivot_roots into an
 * overlay of the real root (per-case tmpfs upper), with /home an overlay of the template, private
 * /tmp, /var/tmp and /dev, and the command stripped of mount/mknod capabilities. Nothing a case
 * does reaches the real file system; nothing has network. Requires Linux, root, util-linux
 * (unshare, mount, pivot_root, setpriv) and overlayfs; otherwise runOracle rejects with
 * OracleUnavailableError (call oracleAvailability() first to decide up front).
 */
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { classifyChanges, gitChanges, worktreeOf, type RawChange, type RawGit } from './classify.js';
import { postRunSkipReason, preRunSkipReason } from './skip.js';
import { ORACLE_LAYOUT, type OracleAvailability, type OracleCase, type OracleOptions, type OracleResult } from './types.js';

export * from './types.js';
export { invocations, preRunSkipReason, postRunSkipReason } from './skip.js';

export class OracleUnavailableError extends Error {
  constructor(public readonly reason: string) {
    super(`bashguard execution oracle unavailable: ${reason}`);
    this.name = 'OracleUnavailableError';
  }
}

const DRIVER = fileURLToPath(new URL('./driver.mjs', import.meta.url));

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  error?: Error;
}

function runProcess(cmd: string, args: string[], input?: string, timeoutMs = 20_000): Promise<RunResult> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      resolve({ code: null, stdout: '', stderr: '', error: error as Error });
      return;
    }
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => {});
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr, error });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input ?? '');
  });
}

const PROBE = [
  'set -e',
  'mount -t tmpfs bashguard-oracle-probe /tmp',
  'mkdir /tmp/l /tmp/u /tmp/w /tmp/m',
  'mount -t overlay probe -o lowerdir=/tmp/l,upperdir=/tmp/u,workdir=/tmp/w /tmp/m',
  'for p in git timeout env mount umount mknod pivot_root setpriv; do command -v "$p" >/dev/null || { echo "missing program: $p" >&2; exit 3; }; done',
].join('\n');

const availability = new Map<string, Promise<OracleAvailability>>();

/**
 * Whether this machine can run the oracle: Linux, root, `unshare` with mount + network + pid
 * namespaces, tmpfs and overlayfs inside them. The probe itself runs inside a private namespace.
 */
export function oracleAvailability(opts: Pick<OracleOptions, 'unshare'> = {}): Promise<OracleAvailability> {
  const unshare = opts.unshare ?? 'unshare';
  let p = availability.get(unshare);
  if (!p) {
    p = (async (): Promise<OracleAvailability> => {
      if (process.platform !== 'linux') return { available: false, reason: `needs Linux namespaces (platform is ${process.platform})` };
      if (typeof process.getuid === 'function' && process.getuid() !== 0) {
        return { available: false, reason: `needs root for mount namespaces (uid ${process.getuid()})` };
      }
      const r = await runProcess(unshare, ['--mount', '--propagation', 'private', '--net', '--pid', '--fork', '--kill-child', '/bin/sh', '-c', PROBE]);
      if (r.error) return { available: false, reason: `cannot run ${unshare}: ${r.error.message}` };
      if (r.code !== 0) return { available: false, reason: `${unshare} probe failed (exit ${r.code}): ${r.stderr.trim() || r.stdout.trim()}` };
      return { available: true };
    })();
    availability.set(unshare, p);
  }
  return p;
}

interface DriverResult {
  type: 'result';
  id: string;
  ran: boolean;
  worktree?: string | null;
  error?: string;
  exitCode?: number | null;
  timedOut?: boolean;
  changes?: RawChange[];
  git?: RawGit;
  stdout?: string;
  stderr?: string;
  outputTruncated?: boolean;
  backgroundKilled?: boolean;
  shims?: string[];
  ms?: { run?: number; total?: number };
}

function emptyResult(id: string): OracleResult {
  return {
    id,
    ran: false,
    exitCode: null,
    timedOut: false,
    worktree: null,
    changedOutside: [],
    touchedOutside: [],
    changedInside: [],
    changedCommonDir: [],
    changedScratch: [],
    changes: [],
    gitChanges: { main: [], worktree: [], shared: [] },
    stdout: '',
    stderr: '',
    notes: [],
    ms: 0,
  };
}

function toResult(d: DriverResult): OracleResult {
  const r = emptyResult(d.id);
  r.ms = d.ms?.total ?? 0;
  r.worktree = d.worktree ?? null;
  if (!d.ran) {
    r.error = d.error ?? 'the driver did not run the case';
    return r;
  }
  r.ran = true;
  r.exitCode = d.exitCode ?? null;
  r.timedOut = !!d.timedOut;
  r.stdout = d.stdout ?? '';
  r.stderr = d.stderr ?? '';
  const git = d.git ?? null;
  r.changes = classifyChanges(d.changes ?? [], git, r.worktree);
  for (const c of r.changes) {
    if (c.kind === 'touched') {
      if (c.where === 'outside') r.touchedOutside.push(c.path);
      continue;
    }
    const list = { outside: r.changedOutside, inside: r.changedInside, commonDir: r.changedCommonDir, scratch: r.changedScratch }[c.where];
    list.push(c.path);
  }
  r.gitChanges = gitChanges(git, r.worktree);
  const shims = d.shims ?? [];
  if (shims.includes('sudo')) r.notes.push('sudo is not installed: emulated by a shim that runs the command as root');
  if (d.backgroundKilled) r.notes.push('background processes were still running after the grace period and were killed');
  if (d.outputTruncated) r.notes.push('stdout/stderr truncated to 64 KiB');
  if (r.timedOut) r.notes.push('timed out: changes are those made before the kill');
  const skip = postRunSkipReason({ exitCode: r.exitCode, stderr: r.stderr, shims });
  if (skip) r.skipped = skip;
  return r;
}

function validate(cases: OracleCase[]): void {
  const seen = new Set<string>();
  for (const c of cases) {
    if (typeof c.id !== 'string' || c.id === '') throw new TypeError('oracle case without an id');
    if (seen.has(c.id)) throw new TypeError(`duplicate oracle case id: ${c.id}`);
    seen.add(c.id);
    if (typeof c.cmd !== 'string') throw new TypeError(`oracle case ${c.id}: cmd must be a string`);
    if (c.cmd.includes('\0')) throw new TypeError(`oracle case ${c.id}: cmd contains NUL`);
    const setupTexts = [
      ...(c.setup?.dirs ?? []),
      ...Object.entries(c.setup?.files ?? {}).flat(),
      ...Object.entries(c.setup?.symlinks ?? {}).flat(),
    ];
    if (setupTexts.some((t) => typeof t !== 'string' || t.includes('\0'))) throw new TypeError(`oracle case ${c.id}: setup entries must be strings without NUL`);
    for (const [k, v] of Object.entries(c.env ?? {})) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new TypeError(`oracle case ${c.id}: bad env name ${JSON.stringify(k)}`);
      if (v.includes('\0')) throw new TypeError(`oracle case ${c.id}: env ${k} contains NUL`);
    }
  }
}

/** The case's cwd, absolute and normalized (relative ones resolve against the worktree). */
function absoluteCwd(cwd: string | undefined): string {
  if (!cwd) return ORACLE_LAYOUT.worktree;
  const parts = (cwd.startsWith('/') ? cwd : `${ORACLE_LAYOUT.worktree}/${cwd}`).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '' || p === '.') continue;
    if (p === '..') out.pop();
    else out.push(p);
  }
  return '/' + out.join('/');
}

/**
 * Runs each case in its own fresh copy of the layout and reports what it changed. Results come
 * back in the order of `cases`. Rejects with OracleUnavailableError when the machine cannot host
 * the sandbox, and with a plain Error when the driver fails as a whole.
 */
export async function runOracle(cases: OracleCase[], opts: OracleOptions = {}): Promise<OracleResult[]> {
  validate(cases);
  const avail = await oracleAvailability(opts);
  if (!avail.available) throw new OracleUnavailableError(avail.reason);

  const results = new Map<string, OracleResult>();
  const toRun: OracleCase[] = [];
  for (const c of cases) {
    const reason = preRunSkipReason(c.cmd);
    if (reason) {
      const r = emptyResult(c.id);
      r.skipped = reason;
      r.worktree = worktreeOf(absoluteCwd(c.cwd));
      results.set(c.id, r);
      opts.onResult?.(r);
    } else {
      toRun.push({ ...c, cwd: absoluteCwd(c.cwd) });
    }
  }
  if (toRun.length > 0) await drive(toRun, opts, results);
  return cases.map((c) => results.get(c.id)!);
}

function drive(cases: OracleCase[], opts: OracleOptions, results: Map<string, OracleResult>): Promise<void> {
  const request = {
    cases,
    options: {
      timeoutMs: opts.timeoutMs ?? 5000,
      concurrency: opts.concurrency ?? Math.min(4, Math.max(1, cpus().length)),
      backgroundGraceMs: opts.backgroundGraceMs ?? 200,
      sudoShim: opts.sudoShim ?? true,
      tmpfsSize: opts.tmpfsSize ?? '2g',
    },
  };
  const unshare = opts.unshare ?? 'unshare';
  const node = opts.node ?? process.execPath;
  return new Promise((resolve, reject) => {
    const child = spawn(unshare, ['--mount', '--propagation', 'private', '--net', node, DRIVER], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', LC_ALL: 'C' },
    });
    let buffer = '';
    let stderr = '';
    let fatal: string | null = null;
    const warnings: string[] = [];
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => {});
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (!line.trim()) continue;
        let msg: { type: string; message?: string; warnings?: string[] } & Partial<DriverResult>;
        try {
          msg = JSON.parse(line);
        } catch {
          stderr += `unparseable driver output: ${line}\n`;
          continue;
        }
        if (msg.type === 'result') {
          const r = toResult(msg as DriverResult);
          for (const w of warnings) r.notes.push(`driver warning: ${w}`);
          results.set(r.id, r);
          opts.onResult?.(r);
        } else if (msg.type === 'fatal') {
          fatal = msg.message ?? 'unknown driver failure';
        } else if (msg.type === 'ready' && msg.warnings?.length) {
          warnings.push(...msg.warnings);
        }
      }
    });
    child.on('error', (e) => reject(new OracleUnavailableError(`cannot start ${unshare}: ${e.message}`)));
    child.on('close', (code) => {
      if (fatal) return reject(new Error(`oracle driver failed: ${fatal}\n${stderr}`));
      const missing = cases.filter((c) => !results.has(c.id));
      if (missing.length > 0) {
        return reject(new Error(`oracle driver exited (${code}) without results for ${missing.map((c) => c.id).join(', ')}\n${stderr}`));
      }
      resolve();
    });
    child.stdin.end(JSON.stringify(request));
  });
}
