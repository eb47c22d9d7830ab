// Shared helpers for bench/run.mjs and bench/cpu-ratio.mjs: the layout, statistics, process timing, RSS, environment facts.
import { spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(BENCH_DIR, '..');

// ---- layout -----------------------------------------------------------------------------------

/** A main checkout with a linked worktree: the layout the hook enforces in. */
export function makeLayout(prefix = 'bashguard-bench-') {
  const base = mkdtempSync(join(tmpdir(), prefix));
  const main = join(base, 'main');
  const wt = join(base, 'wt');
  const home = join(base, 'home');
  mkdirSync(main);
  mkdirSync(home);
  const git = (cwd, ...a) => execFileSync('git', a, { cwd, stdio: 'ignore', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
  git(main, 'init', '-q', '-b', 'main');
  writeFileSync(join(main, 'README.md'), 'hello\n');
  git(main, 'add', '.');
  git(main, '-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-q', '-m', 'init');
  git(main, 'worktree', 'add', '-q', '-b', 'wt', wt);
  return { base, main, wt, home };
}

// ---- statistics -------------------------------------------------------------------------------

export function sorted(a) {
  return [...a].sort((x, y) => x - y);
}

/** Percentile by linear interpolation between closest ranks (p in 0..100). */
export function pct(a, p) {
  if (a.length === 0) return NaN;
  const s = sorted(a);
  const i = (p / 100) * (s.length - 1);
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return s[lo] + (s[hi] - s[lo]) * (i - lo);
}

export const median = (a) => pct(a, 50);
export const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;

export function summary(a) {
  return { n: a.length, min: Math.min(...a), p10: pct(a, 10), p25: pct(a, 25), median: pct(a, 50), p75: pct(a, 75), p90: pct(a, 90), p99: pct(a, 99), max: Math.max(...a) };
}

/** Least-squares fit of log10(y) = a + b log10(x): b is the growth exponent (1 = linear). */
export function logLogFit(xs, ys) {
  const lx = xs.map(Math.log10);
  const ly = ys.map(Math.log10);
  const mx = mean(lx);
  const my = mean(ly);
  let num = 0;
  let den = 0;
  for (let i = 0; i < lx.length; i++) {
    num += (lx[i] - mx) * (ly[i] - my);
    den += (lx[i] - mx) ** 2;
  }
  const slope = num / den;
  return { slope, intercept: my - slope * mx, perTenX: 10 ** slope };
}

// ---- processes --------------------------------------------------------------------------------

const TIME = '/usr/bin/time';
export const HAS_TIME = existsSync(TIME) && spawnSync(TIME, ['-f', '%M', 'true'], { encoding: 'utf8' }).status === 0;
const VMHWM_PRELOAD = join(BENCH_DIR, 'vmhwm.cjs');

/** Wall time (ms) of one run of argv with `input` on stdin, measured around spawnSync. */
export function timeRun(argv, { input = '', env = process.env, cwd } = {}) {
  const t = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { input, env, cwd, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.error) throw r.error;
  return { ms, status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

/**
 * timeRun from a small parent process (bench/time-one.mjs): for sections that run after the bench
 * process has grown (spawning from a large heap adds tens of ms to every subject).
 */
export function timeRunLight(argv, { input = '', env = process.env, cwd } = {}) {
  const r = spawnSync(process.execPath, [join(BENCH_DIR, 'time-one.mjs')], { input: JSON.stringify({ argv, env, cwd, input }), stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 256 << 20 });
  if (r.status !== 0) throw new Error(`time-one failed: ${r.stderr.toString().trim()}`);
  return JSON.parse(r.stdout.toString());
}

/**
 * Peak RSS (KiB) and CPU (ms) of one run: GNU time's %M (the kernel's ru_maxrss) when
 * /usr/bin/time exists; else, for node commands, a --require preload that reads VmHWM from
 * /proc/self/status at exit (it sees the same high-water mark, minus the preload's own start).
 */
export function rssRun(argv, { input = '', env = process.env, cwd } = {}) {
  if (HAS_TIME) {
    const dir = mkdtempSync(join(tmpdir(), 'bg-rss-'));
    const out = join(dir, 'time');
    try {
      const r = spawnSync(TIME, ['-o', out, '-f', '%M %U %S', ...argv], { input, env, cwd, stdio: ['pipe', 'ignore', 'ignore'] });
      if (r.error) throw r.error;
      const [kib, user, sys] = readFileSync(out, 'utf8').trim().split('\n').pop().split(' ').map(Number);
      return { kib, cpuMs: (user + sys) * 1000, method: '/usr/bin/time -f %M' };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (!/(^|\/)node$/.test(argv[0])) return { kib: NaN, cpuMs: NaN, method: 'unavailable' };
  const dir = mkdtempSync(join(tmpdir(), 'bg-rss-'));
  const out = join(dir, 'hwm');
  try {
    const opts = `${env.NODE_OPTIONS ?? ''} --require ${VMHWM_PRELOAD}`.trim();
    spawnSync(argv[0], argv.slice(1), { input, env: { ...env, NODE_OPTIONS: opts, BENCH_VMHWM_OUT: out }, cwd, stdio: ['pipe', 'ignore', 'ignore'] });
    return { kib: Number(readFileSync(out, 'utf8')), cpuMs: NaN, method: '/proc/self/status VmHWM (preload)' };
  } catch {
    return { kib: NaN, cpuMs: NaN, method: 'unavailable' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- environment ------------------------------------------------------------------------------

export function environment() {
  const git = (args) => {
    try {
      return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return null;
    }
  };
  const dirty = git(['status', '--porcelain', '--untracked-files=no']);
  return {
    date: new Date().toISOString(),
    node: process.version,
    v8: process.versions.v8,
    platform: `${process.platform} ${process.arch}`,
    cpu: cpus()[0]?.model ?? 'unknown',
    cpus: cpus().length,
    loadavgStart: loadavg(),
    commit: git(['rev-parse', 'HEAD']),
    dirty: dirty === null ? null : dirty.length > 0,
  };
}

export const log = (...a) => process.stderr.write(a.join(' ') + '\n');

export function fmtMs(ms) {
  if (!Number.isFinite(ms)) return 'n/a';
  if (ms < 0.01) return `${(ms * 1000).toFixed(2)} µs`;
  if (ms < 1) return `${(ms * 1000).toFixed(0)} µs`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(0)} ms`;
}
