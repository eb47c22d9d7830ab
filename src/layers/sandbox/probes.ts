/**
 * What the enforcement (./enforce.ts, ./landlock.ts) asks of the machine before it wraps a call:
 * whether bubblewrap can create its sandbox here, and whether the Landlock helper is installed
 * and the kernel has Landlock. Each probe spawns a process, so its answer is cached per machine
 * boot in bashguard's cache dir (which the enforcement keeps read-only: the agent cannot plant an
 * answer), keyed by the probed binary's identity (a replaced binary is probed again).
 */
import { accessSync, constants, lstatSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { uptime } from 'node:os';
import { dirname } from 'node:path';
import type { Env } from '../../policy/workspace/config.js';
import { packageRoot } from '../../util/package-root.js';
import { cacheLocation, nativeIO } from '../../runtime/index.js';
import { readRegularFile } from '../../util/safe-read.js';
import { physicalPath } from '../../util/physical-path.js';

/** What a probe found: ok, or why not. */
export interface Probe {
  ok: boolean;
  why: string;
}

/**
 * This boot's id ('' where there is none: then nothing is cached). procfs reports size 0, so not
 * through readRegularFile. Without procfs (macOS): the boot time from the uptime, to the minute.
 */
export function currentBootId(): string {
  return (bootId ??= readBootId());
}

/** (read once per process: every cached probe of a call asks, and no process outlives its boot) */
let bootId: string | undefined;

function readBootId(): string {
  if (process.platform !== 'linux') return process.platform === 'darwin' ? `boot-${Math.round((Date.now() / 1000 - uptime()) / 60)}` : '';
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '';
  }
}

/** A file's identity for the cache key: a replaced binary is probed again. */
function identity(p: string): string {
  try {
    const st = statSync(p);
    return `${st.dev}:${st.ino}:${st.mtimeMs}:${st.size}`;
  } catch {
    return 'missing';
  }
}

/** Where the probes are cached, with the key of bubblewrap's (tests plant answers there). */
export function probeCacheFile(env: Env): string | null {
  const dir = cacheLocation(env);
  return dir ? `${dir}/enforce-probes.json` : null;
}
export const bwrapProbeKey = (bwrap: string): string => `bwrap ${bwrap} ${identity(bwrap)}`;
export const inShellProbeKey = (so: string, shell: string): string => `mounts ${so} ${identity(so)} ${shell}`;
export const helperMountsProbeKey = (helper: string): string => `mounts-helper ${helper} ${identity(helper)}`;

/** A real directory (not a link) owned by this user, mode 0700 or tighter. */
function privateDir(dir: string): boolean {
  // (through the addon where the hook has loaded it: the same test, without Node's lstat run cold)
  const io = nativeIO(false);
  if (io) return io.privateDir(dir);
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** A probe that spawns, cached per machine boot (see the file comment). */
export function cachedProbe<P extends Probe>(env: Env, key: string, run: () => P): P {
  const dir = cacheLocation(env);
  const boot = currentBootId();
  const file = probeCacheFile(env);
  let cache: ProbeCache = { boot, probes: {} };
  // Only in a directory that is ours alone, as the code cache's (src/runtime/startup/cache-dir.ts):
  // a symlinked or foreign one is neither read nor written.
  if (file && boot && privateDir(dir!)) {
    cache = readProbeCache(file, boot);
    const hit = cache.probes[key];
    if (hit && typeof hit.ok === 'boolean' && typeof hit.why === 'string') return hit as P;
  }
  const result = run();
  if (file && boot) {
    try {
      mkdirSync(dir!, { recursive: true, mode: 0o700 });
      if (!privateDir(dir!)) return result;
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ boot, probes: { ...cache.probes, [key]: result } }), { flag: 'wx', mode: 0o600 });
      renameSync(tmp, file);
    } catch {
      // not cached: probed again next time
    }
  }
  return result;
}

type ProbeCache = { boot: string; probes: Record<string, Probe> };

/**
 * The probes file as this process last read it, with its stamp (an allowed call asks two or three
 * probes of the same file: one lstat instead of a read and a parse, ~0.1 ms each; a file replaced
 * or rewritten since has another stamp and is read again).
 */
const read = new Map<string, { stamp: string; cache: ProbeCache }>();

function stampOf(file: string): string | null {
  try {
    const st = lstatSync(file, { throwIfNoEntry: false });
    return st ? `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : null;
  } catch {
    return null;
  }
}

function readProbeCache(file: string, boot: string): ProbeCache {
  const stamp = stampOf(file);
  const known = read.get(file);
  if (stamp !== null && known && known.stamp === stamp && known.cache.boot === boot) return known.cache;
  let cache: ProbeCache = { boot, probes: {} };
  const r = readRegularFile(file, { maxBytes: 64 * 1024, noFollow: true });
  if (r.ok) {
    try {
      const parsed = JSON.parse(r.text) as ProbeCache;
      if (parsed && parsed.boot === boot && typeof parsed.probes === 'object' && parsed.probes !== null) cache = parsed;
    } catch {
      // damaged: probed again and rewritten
    }
  }
  if (stamp !== null) read.set(file, { stamp, cache });
  return cache;
}

/** The arguments that show whether bubblewrap can create the enforcement's sandbox here (before `-- PROGRAM`). */
export const BWRAP_PROBE: readonly string[] = ['--unshare-user', '--unshare-pid', '--bind', '/', '/', '--proc', '/proc'];

/** Whether bubblewrap can create the enforcement's sandbox here (user namespaces, a new /proc). */
export function bwrapStarts(bwrap: string, env: Env): Probe {
  return cachedProbe(env, bwrapProbeKey(bwrap), () => {
    const r = spawnSync(bwrap, [...BWRAP_PROBE, '--', 'true'], { encoding: 'utf8', timeout: 10_000 });
    return r.status === 0 ? { ok: true, why: 'bubblewrap starts' } : { ok: false, why: `bubblewrap (${bwrap}) cannot create a sandbox here (user namespaces disabled or not permitted?): ${(r.stderr ?? r.error?.message ?? '').trim().split('\n')[0]}` };
  });
}

/**
 * Whether the in-shell mounts (native/landlock-builtin.c's bashguard_mounts) work here for `shell`,
 * cached per boot: the builtin, run with no mount in a scratch shell, must leave it in a new user
 * namespace, with the tree made read-only in place (`r/`, which every plan's text starts with: `/`
 * must be a mount's root). Where an LSM lets unshare(2) succeed but not what follows (Ubuntu's AppArmor
 * restriction of unprivileged user namespaces), the call would fail past the point of no return:
 * the wrapper then starts bubblewrap without trying.
 */
export function inShellMountsWork(so: string, shell: string, env: Env): Probe {
  return cachedProbe(env, inShellProbeKey(so, shell), () => mountsProbe([shell, '-c', `builtin enable -f "$1" bashguard_mounts && builtin bashguard_mounts --mounts 'r/' && ${IN_NEW_USERNS}`, 'probe', so], "the client's shell", ' itself'));
}

/**
 * Whether the helper's `--mounts` (native/landlock-exec.c, native/mounts-core.h) works here, cached
 * per boot as the builtin's: a program it runs with no mount must be in a new user namespace. The
 * wrapper of a client shell other than bash uses it instead of bubblewrap where it does.
 */
export function helperMountsWork(helper: string, env: Env): Probe {
  return cachedProbe(env, helperMountsProbeKey(helper), () => mountsProbe([helper, '--mounts', 'r/', '--', '/bin/sh', '-c', IN_NEW_USERNS], "bashguard's helper"));
}

/** The shell test both mounts probes end with: this process is in a new user namespace (its uid_map one line of one id). */
const IN_NEW_USERNS = 'read -r a b c </proc/self/uid_map && [ "$c" = 1 ]';

/** A mounts probe run: `argv` ends in IN_NEW_USERNS; `who` makes the mounts (`itself`: said after it). */
function mountsProbe(argv: string[], who: string, itself = ''): Probe {
  const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'ignore', 'pipe'] });
  const message = (r.stderr ?? r.error?.message ?? '').trim().replace(/^bashguard-landlock: /, '').split('\n')[0] || 'no message';
  return r.status === 0 ? { ok: true, why: `${who} makes the mounts${itself}` } : { ok: false, why: `${who} cannot make the mounts${itself} here (exit ${r.status ?? r.signal}: ${message})` };
}

function executableFile(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * The Landlock helper binary (native/landlock-exec.c): build/Release/bashguard-landlock
 * (scripts/build-native.mjs), else the shipped prebuilt one (an install with --ignore-scripts).
 * Physical (the wrappers name it, and the builtin beside it, by a path no symlink on the way can
 * redirect: the package may be reached through one). Null where neither is there.
 */
export function landlockHelper(): string | null {
  let root: string;
  try {
    root = packageRoot();
  } catch {
    return null;
  }
  for (const p of [`${root}/build/Release/bashguard-landlock`, `${root}/prebuilds/${process.platform}-${process.arch}/bashguard-landlock`]) if (executableFile(p)) return physicalPath(p);
  return null;
}

/** The bash builtin beside the helper (native/landlock-builtin.c), when installed. */
export function landlockBuiltin(helper: string): string | null {
  const p = `${dirname(helper)}/bashguard-landlock.so`;
  return lstatSync(p, { throwIfNoEntry: false })?.isFile() ? p : null;
}

/** Whether Landlock can confine a command here: the helper is installed and the kernel has Landlock. */
export function landlockAvailable(env: Env): Probe & { helper: string | null } {
  if (process.platform !== 'linux') return { ok: false, why: `Landlock needs Linux (this is ${process.platform})`, helper: null };
  const helper = landlockHelper();
  if (!helper) return { ok: false, why: 'the Landlock helper (build/Release/bashguard-landlock) is not installed (reinstall bashguard where a C compiler is present)', helper: null };
  const p = cachedProbe(env, `landlock ${helper} ${identity(helper)}`, () => {
    const r = spawnSync(helper, ['--probe'], { encoding: 'utf8', timeout: 10_000 });
    const abi = Number(r.stdout.trim());
    // ABI 3 (Linux 6.2) brought TRUNCATE: before it, truncate(2) of a protected file is not confined.
    if (r.status === 0 && abi < 3) return { ok: false, why: `this kernel's Landlock (ABI ${abi}) cannot confine truncate(2) (needs ABI 3, Linux 6.2)` };
    return r.status === 0 ? { ok: true, why: `Landlock ABI ${abi}` } : { ok: false, why: (r.stderr || r.error?.message || `exit ${r.status}`).trim().replace(/^bashguard-landlock: /, '').split('\n')[0]! };
  });
  return { ...p, helper };
}
