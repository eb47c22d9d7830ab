/**
 * Landlock enforcement (issue #38): where bubblewrap cannot start (unprivileged user namespaces
 * off, no bwrap), the allowed Bash call runs under native/landlock-exec.c (`bashguard-landlock`),
 * which confines writes to rules computed here from the same plan as bubblewrap's (./grants.ts
 * via ./enforce.ts's enforcementPlan). The wrapper text is ./enforce.ts's, with the helper in
 * place of bwrap, so the client's semantics (cd, exit status, output, background processes) are
 * the same.
 *
 * Landlock can only grant: a read-only hole cannot be carved out of a granted tree. So the rules
 * are the complement of the read-only set: each writable root of the plan that holds no read-only
 * path is granted whole; one that does is not granted itself, and each of its entries is, except
 * the read-only ones and those that hold one, which are descended into the same way. Consequences
 * (docs/limits.md):
 * - a protected path that does not exist cannot be created (bubblewrap cannot reserve a file's
 *   name: the plan's `unreserved`), since its directory gets no rule;
 * - a new entry directly in a directory that holds a protected path is refused: `touch ~/newfile`,
 *   `mkdir ~/.newtool`, a new entry beside the main checkout, a new top-level entry of the
 *   worktree (its `.git` file and `.claude/` are protected), and a file replaced by rename there
 *   (`sed -i`, atomic writers);
 * - renames and hard links across rules fail with EXDEV unless both sides grant the same rights
 *   (Landlock's REFER), and always on ABI 1;
 * - a directory with more than PER_DIR_LIMIT entries is not descended into: its entries stay
 *   read-only (said by `doctor`); over RULE_LIMIT rules in all, no Landlock (the call is not
 *   enforced, and says why). The rules never grant a protected path.
 *
 * The one exception to "never grant a protected path" is this worktree's admin dir
 * (`<common>/worktrees/<name>`): git creates its lock files there (index.lock, HEAD.lock), so it
 * is granted whole, and with it the registration files `gitdir` and `commondir` inside it; the
 * plan says so (`widened`) and so does `doctor`.
 *
 * As root, /proc and /sys get no rule (a root process could write /proc/sys/kernel/core_pattern,
 * which the kernel runs outside any sandbox) and /dev only its harmless nodes (bubblewrap's
 * minimal /dev); the helper drops every capability as well.
 */
import { dirname } from 'node:path';
import { lstatSync, readdirSync, readFileSync, type Dirent, renameSync, statSync, writeFileSync, mkdirSync, accessSync, constants, realpathSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { uptime } from 'node:os';
import type { Workspace } from '../../policy/workspace/index.js';
import type { Env } from '../../policy/workspace/config.js';
import { isInside } from '../../engine/shell/paths.js';
import { packageRoot } from '../../util/package-root.js';
import { cacheLocation } from '../../util/cache-location.js';
import { readRegularFile } from '../../util/safe-read.js';
import type { SandboxPlan } from './grants.js';

/** Rules in all above which the helper is not used (each costs ~2 µs at every call). */
export const RULE_LIMIT = 1000;
/** Entries of one directory above which it is not descended into (its entries stay read-only). */
export const PER_DIR_LIMIT = 300;

/** /dev nodes a root command may write (bubblewrap's minimal /dev, plus the pseudo-terminals and shared memory). */
const ROOT_DEV = new Set(['null', 'zero', 'full', 'random', 'urandom', 'tty', 'ptmx', 'pts', 'shm']);

export interface LandlockRule {
  path: string;
  /** Not a directory: the file rights only. */
  file: boolean;
}

export interface LandlockRules {
  rules: LandlockRule[];
  /** Protected paths the rules grant all the same, and why (the worktree's admin dir). */
  widened: { path: string; why: string }[];
  /** Directories not descended into (too many entries): their entries stay read-only. */
  coarse: { path: string; entries: number }[];
}

function lstatQuiet(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

const join = (dir: string, name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`);

/**
 * The rules for a plan (see the file comment), or why there are none. `adminDir`: the worktree's
 * git admin dir, granted whole. `root`: the command runs as root.
 */
export function landlockRules(plan: SandboxPlan, opts: { root: boolean; adminDir?: string | null; ruleLimit?: number; perDirLimit?: number }): LandlockRules | { error: string } {
  const ruleLimit = opts.ruleLimit ?? RULE_LIMIT;
  const perDirLimit = opts.perDirLimit ?? PER_DIR_LIMIT;
  const grants = plan.grants.filter((g) => !g.pin);
  // The protected paths that do not exist and that bubblewrap cannot reserve (`unreserved`) count as
  // read-only too: no rule reaches them, so they cannot be created.
  const ro = [...grants.filter((g) => g.access === 'ro').map((g) => g.path), ...plan.unreserved.map(physical)];
  const rules: LandlockRule[] = [];
  const widened: { path: string; why: string }[] = [];
  const coarse: { path: string; entries: number }[] = [];
  // Every directory above a read-only path, and the read-only paths, as sets (looked up per entry).
  const above = new Set<string>();
  for (const r of ro) for (let d = dirname(r); !above.has(d); d = dirname(d)) {
    above.add(d);
    if (d === '/') break;
  }
  const roSet = new Set(ro);
  const holdsRo = (p: string) => above.has(p);
  const isRo = (p: string) => roSet.has(p);
  const seen = new Set<string>();
  const add = (p: string, file: boolean) => {
    if (seen.has(p)) return;
    seen.add(p);
    rules.push({ path: p, file });
  };
  const cover = (dir: string): void => {
    if (!holdsRo(dir)) {
      add(dir, false);
      return;
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // unreadable: nothing granted beneath
    }
    const limited = entries.length > perDirLimit;
    if (limited) coarse.push({ path: dir, entries: entries.length });
    for (const ent of entries) {
      const name = ent.name;
      const p = join(dir, name);
      if (isRo(p)) continue;
      if (opts.root && (p === '/proc' || p === '/sys' || (dir === '/dev' && !ROOT_DEV.has(name)))) continue;
      if (!opts.root && p === '/sys') continue;
      // The entry's type from readdir (d_type); lstat where the file system does not give it.
      const known = ent.isDirectory() || ent.isFile() || ent.isSymbolicLink() || ent.isFIFO() || ent.isSocket() || ent.isCharacterDevice() || ent.isBlockDevice();
      const st = known ? ent : lstatQuiet(p);
      if (!st || st.isSymbolicLink()) continue;
      if (st.isDirectory() && holdsRo(p)) cover(p);
      else if (!limited) add(p, !st.isDirectory());
      if (rules.length > ruleLimit) return;
    }
  };
  for (const g of grants) {
    if (g.access !== 'rw') continue;
    // Granted by an enclosing rule already, or descended into from one.
    const enclosing = grants.filter((e) => e.path !== g.path && isInside(g.path, e.path)).sort((a, b) => b.path.length - a.path.length)[0];
    if (enclosing && enclosing.access === 'rw') continue;
    if (opts.adminDir && g.path === opts.adminDir) {
      add(g.path, false);
      for (const r of ro) if (isInside(r, g.path) && r !== g.path) widened.push({ path: r, why: "inside this worktree's git admin dir, where git creates its lock files" });
      continue;
    }
    cover(g.path);
    if (rules.length > ruleLimit) return { error: `more than ${ruleLimit} Landlock rules would be needed (the directories around the protected paths hold too many entries)` };
  }
  if (opts.root) restrictDev(rules);
  // The invariant, checked rather than trusted: no rule reaches a protected path, but the ones named.
  for (const r of ro) {
    if (widened.some((w) => w.path === r)) continue;
    const by = rules.find((x) => x.path === r || isInside(r, x.path));
    if (by) return { error: `a Landlock rule for ${by.path} would make ${r} writable` };
  }
  return { rules, widened, coarse };
}

/** A path that does not exist, through the real path of its nearest existing ancestor (the rules are physical). */
function physical(p: string): string {
  for (let d = dirname(p), rest = p.slice(d === '/' ? 1 : d.length + 1); ; rest = `${d.slice(d.lastIndexOf('/') + 1)}/${rest}`, d = dirname(d)) {
    const r = realOrNull(d);
    if (r) return r === '/' ? `/${rest}` : `${r}/${rest}`;
    if (d === '/') return p;
  }
}

/** As root, a rule for all of /dev (granted where /dev holds nothing protected) becomes one per harmless node. */
function restrictDev(rules: LandlockRule[]): void {
  const i = rules.findIndex((r) => r.path === '/dev');
  if (i < 0) return;
  rules.splice(i, 1);
  for (const n of ROOT_DEV) {
    const st = lstatQuiet(`/dev/${n}`);
    if (st && !st.isSymbolicLink()) rules.push({ path: `/dev/${n}`, file: !st.isDirectory() });
  }
}

/** The helper's arguments before `--`. */
export function landlockArgs(rules: LandlockRule[]): string[] {
  return rules.flatMap((r) => [r.file ? '--rw-file' : '--rw', r.path]);
}

function realOrNull(p: string): string | null {
  try {
    return realpathSync.native(p);
  } catch {
    return null;
  }
}

function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * The helper binary: build/Release/bashguard-landlock (scripts/build-native.mjs), else the shipped
 * prebuilt one (an install with --ignore-scripts). Null where neither is there.
 */
export function landlockHelper(): string | null {
  let root: string;
  try {
    root = packageRoot();
  } catch {
    return null;
  }
  for (const p of [`${root}/build/Release/bashguard-landlock`, `${root}/prebuilds/${process.platform}-${process.arch}/bashguard-landlock`]) if (executable(p)) return p;
  return null;
}

/** What a probe found: ok, or why not. */
export interface Probe {
  ok: boolean;
  why: string;
}

/**
 * This boot's id ('' where there is none: then nothing is cached). procfs reports size 0, so not
 * through readRegularFile. Without procfs (macOS): the boot time from the uptime, to the minute.
 */
function bootId(): string {
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
export const currentBootId = bootId;

/** A real directory (not a link) owned by this user, mode 0700 or tighter. */
function privateDir(dir: string): boolean {
  const st = lstatQuiet(dir);
  return st !== null && st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o077) === 0;
}

/**
 * A probe that spawns, cached per machine boot in bashguard's cache dir (which the enforcement
 * keeps read-only: the agent cannot plant an answer) keyed by the binary's identity.
 */
export function cachedProbe<P extends Probe>(env: Env, key: string, run: () => P): P {
  const dir = cacheLocation(env);
  const boot = bootId();
  const file = probeCacheFile(env);
  let cache: { boot: string; probes: Record<string, Probe> } = { boot, probes: {} };
  // Only in a directory that is ours alone, as the code cache's (src/runtime/startup/cache-dir.ts):
  // a symlinked or foreign one is neither read nor written.
  if (file && boot && privateDir(dir!)) {
    const r = readRegularFile(file, { maxBytes: 64 * 1024, noFollow: true });
    if (r.ok) {
      try {
        const parsed = JSON.parse(r.text) as typeof cache;
        if (parsed && parsed.boot === boot && typeof parsed.probes === 'object' && parsed.probes !== null) cache = parsed;
      } catch {
        // damaged: probed again and rewritten
      }
    }
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

/** The arguments that show whether bubblewrap can create the enforcement's sandbox here (before `-- PROGRAM`). */
export const BWRAP_PROBE: readonly string[] = ['--unshare-user', '--unshare-pid', '--bind', '/', '/', '--proc', '/proc'];

/** Whether bubblewrap can create the enforcement's sandbox here (user namespaces, a new /proc). */
export function bwrapStarts(bwrap: string, env: Env): Probe {
  return cachedProbe(env, bwrapProbeKey(bwrap), () => {
    const r = spawnSync(bwrap, [...BWRAP_PROBE, '--', 'true'], { encoding: 'utf8', timeout: 10_000 });
    return r.status === 0 ? { ok: true, why: 'bubblewrap starts' } : { ok: false, why: `bubblewrap (${bwrap}) cannot create a sandbox here (user namespaces disabled or not permitted?): ${(r.stderr ?? r.error?.message ?? '').trim().split('\n')[0]}` };
  });
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

export interface LandlockEnforcement {
  kind: 'landlock';
  command: string;
  plan: SandboxPlan;
  rules: LandlockRules;
}

/**
 * The Landlock enforcement of one call: `plan` and `wrap` are ./enforce.ts's (the plan for the
 * helper and shell, the wrapper text), passed in so this file does not import it.
 */
export function landlockCall(
  ws: Workspace,
  command: string,
  env: Env,
  deps: { plan: (helper: string) => SandboxPlan; wrap: (command: string, helper: string, args: string[]) => string },
): LandlockEnforcement | { kind: 'none'; reason: string } {
  const a = landlockAvailable(env);
  if (!a.ok || !a.helper) return { kind: 'none', reason: a.why };
  try {
    const plan = deps.plan(a.helper);
    const l = ws.layout?.current;
    const adminDir = l?.kind === 'linked-worktree' ? realOrNull(l.gitDir) : null;
    const rules = landlockRules(plan, { root: process.getuid?.() === 0, adminDir });
    if ('error' in rules) return { kind: 'none', reason: rules.error };
    return { kind: 'landlock', command: deps.wrap(command, a.helper, landlockArgs(rules.rules)), plan, rules };
  } catch (err) {
    return { kind: 'none', reason: `the Landlock rules cannot be computed: ${(err as Error).message.split('\n')[0]}` };
  }
}
