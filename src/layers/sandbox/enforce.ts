/**
 * Enforcement of every Bash call the hook allows (issue #38): the analyzer predicts, the OS holds
 * the line. The hook answers an allowed call with the command wrapped in bubblewrap, computed from
 * the same write roots as the analysis (src/policy/write-roots.ts, ./grants.ts with `base: 'ro'`):
 * the worktree, this worktree's own git state, the scratch dirs, the tool caches and the configured
 * roots writable, every control file inside them read-only, and the rest of the file system
 * (HOME, the main checkout, the sibling worktrees, the shared git dir) read-only.
 *
 * The wrapper is plain shell text that calls bwrap directly with the argument vector computed at
 * hook time (no second node start inside the command). It keeps the client's semantics:
 * - exit status: bwrap returns the command's status (128+n for a signal);
 * - background processes (`cmd &`, `nohup`): bwrap's monitor returns when the command's own
 *   process exits, and without `--die-with-parent` the sandbox's init keeps the rest running
 *   (checked with bubblewrap 0.8: `bwrap --unshare-pid ... bash -c 'sleep 3 &'` returns at once
 *   and the sleep lives on);
 * - output: the command's stdout and stderr reach it on fds 7 and 8, and bwrap itself gets
 *   /dev/null and the cwd file: the sandbox's init (pid 1, which lives as long as a background
 *   process does) keeps its descriptors 0-2 and closes the rest, so it does not hold the client's
 *   pipes open;
 * - the working directory: Claude Code runs a Bash call as `<setup> && eval '<command>' && pwd -P
 *   >| <cwd file>` in its shell (2.1.330's shipped cli, the function that builds `commandString`
 *   and `cwdFilePath`; `eval ${quoted}` then `pwd -P >| ${cwdFile}` joined by ` && `), and the
 *   next call starts in that directory. The command runs in a child process here, so the inner
 *   shell writes its final `pwd -P` to fd 3, a file the outer shell opened, and the outer shell
 *   `cd`s there before returning the command's status. (A file, not a pipe: a background
 *   process keeps the descriptor open, even with `3>&-` on the `eval`, through the copy bash
 *   saves to restore it, and reading a pipe to its end would wait for that process.)
 *
 * Under `auto`, where the client's shell is bash, the wrapper first has that shell make the same
 * mounts itself (./in-shell.ts: no process started, ~1 ms instead of bwrap's ~12), and where it
 * cannot, bashguard's helper makes them for an inner shell (the bwrap form above where the
 * helper's probe failed). Where bwrap is missing or cannot start (a probe cached
 * per boot), the same wrapper runs the command under Landlock instead when the kernel has it
 * (./landlock.ts). The command appears in every wrapper once (`__bg_c`).
 * Where bwrap is missing and Landlock cannot be used, the hook does not wrap (and says so);
 * `doctor` fails. Where bwrap is installed but cannot create a sandbox (user namespaces off) and
 * Landlock cannot be used either, the wrapped command fails with bwrap's message rather than
 * running unconfined; `doctor` fails and says why.
 */
import { accessSync, constants, existsSync, lstatSync, readdirSync, type Dirent } from 'node:fs';
import { spawnSync } from 'node:child_process';
import type { Workspace } from '../../policy/workspace/index.js';
import type { Env } from '../../policy/workspace/config.js';
import type { EnforceMode } from '../../policy/config.js';
import { packageRoot, packageVersion } from '../../util/package-root.js';
import { effectiveAccess, mtimeOf, probedPlan, probesHold, sandboxPlan, type Grant, type SandboxPlan } from './grants.js';
import { isInside } from '../../engine/shell/paths.js';
import { dirname } from 'node:path';
import { commandDefinition, shellJoin, shellQuote } from '../../util/quote.js';
import { readRegularFile } from '../../util/safe-read.js';
import { physicalPath } from '../../util/physical-path.js';
import { nativeIO, STAT } from '../../runtime/index.js';
import { fnv64, hash64, randomToken } from './hash.js';
import { landlockCall, type LandlockEnforcement } from './landlock.js';
import { landlockLineSaid } from './landlock-line.js';
import { refStamp } from './git-refs.js';
import { userWriteHints } from './user-roots.js';
import { BWRAP_PROBE, bwrapStarts, helperMountsWork, inShellMountsWork, landlockAvailable, landlockHelper } from './probes.js';
import { clientTmpDir, inShellBuiltin, inShellWrapper } from './in-shell.js';
import { clientShell, executable } from './client-shell.js';
import { filterPrintf, unixSocketFilter } from './seccomp.js';
import { materializeReservations, recordedReservations, reservationRegistry, reserveText, RESERVE_LOCK_FD } from './reserve.js';
export { BWRAP_PROBE } from './probes.js';
export { clientShell };
import { SANDBOX_EXEC, seatbeltAvailable, seatbeltCall, type SeatbeltEnforcement } from './seatbelt.js';
export { SEATBELT_PROBE } from './seatbelt.js';
export { heldOrWrapped } from './held.js';
import { cwdDir, sweepCwdFiles } from './cwd-files.js';
export { cwdDir, sweepCwdFiles };

export type { EnforceMode };

/** Where bwrap is looked for, before PATH: system directories the agent's settings cannot redirect. */
const BWRAP_DIRS = ['/usr/bin', '/bin', '/usr/local/bin'];

/**
 * The bwrap binary: from the system directories first, then PATH. (Not BASHGUARD_BWRAP, which
 * `sandbox run` honours: the hook's environment can come from a project settings `env` entry,
 * and a substitute bwrap would run the command unconfined.)
 */
export function findBwrap(env: Env): string | null {
  for (const d of BWRAP_DIRS) if (executable(`${d}/bwrap`)) return `${d}/bwrap`;
  for (const d of (env.PATH ?? '').split(':')) if (d.startsWith('/') && executable(`${d}/bwrap`)) return `${d}/bwrap`;
  return null;
}

/**
 * Control paths the enforcement keeps read-only beyond the workspace's protected files (BG1005):
 * all of Claude Code's user directory (settings, hooks with bashguard's launcher, plugins, agents,
 * memory), its state file `~/.claude.json` (per-project allowed tools, MCP servers), all of
 * Codex's home (`$CODEX_HOME` or ~/.codex), the managed
 * settings, the installed bashguard package, the node it runs, bwrap and the shell the wrapper
 * runs (a replaced binary would run the next call unconfined; they are only writable by an agent
 * running as root).
 */
export function enforcementControlPaths(env: Env, bwrap: string, shell: string): { path: string; why: string; emptyOk?: boolean }[] {
  const out: { path: string; why: string; emptyOk?: boolean }[] = [];
  const home = env.HOME?.startsWith('/') ? env.HOME : null;
  const claudeDir = env.CLAUDE_CONFIG_DIR?.startsWith('/') ? env.CLAUDE_CONFIG_DIR : home ? `${home}/.claude` : null;
  if (claudeDir) out.push({ path: claudeDir, why: "Claude Code's user directory (settings, hooks, bashguard's launcher, plugins)" });
  if (home) out.push({ path: `${home}/.claude.json`, why: "Claude Code's state file (allowed tools, MCP servers per project)" });
  // All of Codex's home, `$CODEX_HOME` (the hook inherits Codex's environment) and ~/.codex (the
  // home of sessions started without it; and an environment that names another CODEX_HOME, say a
  // Claude Code settings `env` entry, must not loosen it): hooks.json and config.toml (hooks,
  // their trust state, `sandbox_mode`, `[features] hooks`), rules/*.rules, profile files
  // `<name>.config.toml`, plugins and skills (developers.openai.com/codex/hooks and
  // /codex/config-advanced; the 0.169.0 binary resolves every one of them under CODEX_HOME).
  // Codex's own writes there (sessions, logs, the sandbox helper it links at start) happen in its
  // process, outside the wrapped command.
  if (home) out.push({ path: `${home}/.codex`, why: "Codex's home (hooks.json, config.toml, rules, profiles)" });
  if (env.CODEX_HOME?.startsWith('/')) out.push({ path: env.CODEX_HOME, why: "Codex's home, $CODEX_HOME (hooks.json, config.toml, rules, profiles)" });
  // Files read by programs that run outside the sandbox: git run by the hook and by people in the
  // worktree (`core.fsmonitor` and `core.hooksPath` run commands), and the startup files of the
  // client's shell (zsh reads ~/.zshenv for every `zsh -c`; Claude Code's shell snapshot sources
  // the rc files). Where being empty means the same as being absent they are reserved when missing;
  // the login files are not (an empty ~/.bash_profile would hide ~/.profile).
  if (home) {
    const xdg = env.XDG_CONFIG_HOME?.startsWith('/') ? env.XDG_CONFIG_HOME : `${home}/.config`;
    out.push({ path: `${home}/.gitconfig`, why: 'the user git config (git runs outside the sandbox too)', emptyOk: true });
    out.push({ path: `${xdg}/git/config`, why: 'the user git config (git runs outside the sandbox too)' });
    const zdot = env.ZDOTDIR?.startsWith('/') ? env.ZDOTDIR : home;
    for (const f of ['.zshenv', '.zshrc']) out.push({ path: `${zdot}/${f}`, why: "a startup file of the client's shell", emptyOk: true });
    out.push({ path: `${home}/.bashrc`, why: "a startup file of the client's shell", emptyOk: true });
    for (const f of ['.bash_profile', '.bash_login', '.profile']) out.push({ path: `${home}/${f}`, why: "a startup file of the client's shell" });
    for (const f of ['.zprofile', '.zlogin']) out.push({ path: `${zdot}/${f}`, why: "a startup file of the client's shell" });
  }
  if (env.CLAUDE_CONFIG_DIR?.startsWith('/')) out.push({ path: `${env.CLAUDE_CONFIG_DIR}/.claude.json`, why: "Claude Code's state file" });
  out.push({ path: dirname(MANAGED_CLAUDE_SETTINGS), why: "Claude Code's managed settings" });
  try {
    out.push({ path: packageRoot(), why: 'the installed bashguard package' });
  } catch {
    // no package root (never in an installed copy)
  }
  // Binaries in the system directories are left out: only root can replace them, and an agent
  // running as root can replace the libraries they load as well (docs/limits.md).
  const system = (p: string) => /^\/(usr|bin|sbin|lib[^/]*)\//.test(p);
  for (const [p, why] of [
    [process.execPath, 'the node that runs the hook'],
    [bwrap, 'bubblewrap, which every wrapped call runs'],
    [shell, 'the shell every wrapped call runs'],
  ] as const) {
    const r = physicalPath(p) ?? p;
    if (!system(r)) out.push({ path: r, why });
  }
  return out;
}

/**
 * Devices as the user has them (/dev/shm is a scratch dir of the write roots,
 * src/policy/write-roots.ts `scratchRoots`).
 */
const DEVICES = [
  { path: '/dev', access: 'rw' as const, why: 'devices as the user has them' },
  // (bubblewrap mounts a new one; Landlock grants it to a user other than root: /dev/stdout is /proc/self/fd/1)
  { path: '/proc', access: 'rw' as const, why: "the processes' own entries (/proc/self/fd)" },
];

/**
 * The enforcement plan for a workspace: the write roots writable (the same model as the analyzer's,
 * src/policy/write-roots.ts), everything else read-only, the protected paths inside the roots too.
 */
export function enforcementPlan(ws: Workspace, bwrap: string, shell: string, store?: FactStore, heldRefs: boolean | 'volatile' = true, transient: string[] = []): SandboxPlan {
  const opts = { base: 'ro' as const, reserve: true, heldRefs, extra: enforcementControlPaths(ws.env, bwrap, shell), more: DEVICES, transient };
  if (!store) return sandboxPlan(ws, opts);
  // Kept per worktree with every input the plan is computed from (the key, compared whole) and
  // every file-system fact it read (`probes`, checked again: ~60 lstats instead of the plan's
  // work); any difference computes it again.
  const l = ws.layout;
  const key = JSON.stringify([
    PLAN_FORMAT,
    // An upgrade in place may compute plans differently without a new format.
    packageVersion(),
    l ? [l.current.root, l.current.commonDir, l.current.kind, l.current.gitDir, l.main?.root ?? null, l.siblings.map((x) => x.root)] : null,
    ws.regions.map((r) => [r.kind, r.root, r.why ?? null]),
    ws.env.HOME ?? null,
    opts.extra,
    heldRefs && l?.current.kind === 'linked-worktree' ? [heldRefs, refStamp(l.current.commonDir, l.current.gitDir)] : null,
    transient,
  ]);
  // (named by the worktree: hashing the whole key would cost more than it saves)
  const name = `enforce-plan-${hash64(`${l?.current.root ?? ws.cwd}\0${ws.env.HOME ?? ''}`)}`;
  const text = store.read(name);
  if (text !== null) {
    try {
      const kept = JSON.parse(text) as { key?: unknown; probes?: unknown; plan?: unknown; top?: unknown };
      if (kept.key === key && Array.isArray(kept.probes) && isPlan(kept.plan) && probesHold(kept.probes as [string, string][])) {
        if (Array.isArray(kept.top) && kept.top.every((d) => typeof d === 'string' && /^\/[^/\n]+$/.test(d))) TOP_DIRS.set(kept.plan, kept.top as string[]);
        return kept.plan;
      }
    } catch {
      // computed again below
    }
  }
  const { plan, probes } = probedPlan(ws, opts);
  // `/`'s listing as a fact of the kept plan (its stamp taken before it is read: a change in
  // between fails the next check), for the mounts text (`mountsText`).
  probes.push(['\u0001/', mtimeOf('/')]);
  const top = topDirs();
  if (top) TOP_DIRS.set(plan, top);
  store.write(name, JSON.stringify({ key, probes, plan, top }));
  return plan;
}

/**
 * The top-level directories of a kept plan, read when it was computed: kept with the plan, with
 * `/`'s mtime among its facts (an entry made, removed, renamed or replaced in `/` changes it), so
 * a call whose plan holds does not list `/` again.
 */
const TOP_DIRS = new WeakMap<SandboxPlan, string[]>();

/** `/`'s directories (not links), as `/name`; null where `/` cannot be listed or a name holds a newline. */
function topDirs(): string[] | null {
  let top: Dirent[];
  try {
    top = readdirSync('/', { withFileTypes: true });
  } catch {
    return null;
  }
  const out: string[] = [];
  for (const d of top) {
    if (!d.isDirectory()) continue;
    if (d.name.includes('\n')) return null;
    out.push(`/${d.name}`);
  }
  return out;
}

/** The kept plan's format: changed whenever sandboxPlan's output for the same facts could change. */
const PLAN_FORMAT = 'enforce-plan-7';

function isPlan(x: unknown): x is SandboxPlan {
  const p = x as SandboxPlan;
  return (
    typeof p === 'object' && p !== null && typeof p.worktree === 'string' && Array.isArray(p.unreserved) && p.unreserved.every((u) => typeof u === 'string') &&
    Array.isArray(p.grants) && p.grants.every((g) => typeof g === 'object' && g !== null && typeof g.path === 'string' && g.path.startsWith('/') && (g.access === 'ro' || g.access === 'rw') && typeof g.why === 'string')
  );
}

/**
 * Where the hook may keep facts between calls (the front end passes src/runtime/startup/small-cache.ts:
 * a private directory the agent cannot write). Never throws.
 */
export interface FactStore {
  read(name: string): string | null;
  write(name: string, text: string): void;
  /** A private file holding exactly `bytes` (the seccomp filter bubblewrap opens), or null. */
  file?(name: string, bytes: Uint8Array): string | null;
}

/**
 * bwrap's options for the enforcement. Each option is there for a reason, and each mount costs
 * the call ~0.2 ms (bwrap re-reads /proc/self/mountinfo for every one), so there are as few as
 * the plan allows:
 * - `--new-session`: the command cannot push keystrokes into the client's terminal (TIOCSTI);
 * - `--unshare-user`: unprivileged bwrap needs it to create the other namespaces, and the mounts
 *   it makes are then locked (a command cannot unmount its way out); as root,
 *   `--cap-drop ALL` as well (root keeps every capability in its namespace otherwise, and could
 *   simply remount a read-only bind read-write);
 * - `--unshare-pid` and a new `--proc`: a host process's /proc/<pid>/root (the client's own,
 *   run by the same user) would reach the host's mounts, where nothing is read-only;
 * - no network, IPC or UTS namespace: servers, shared memory and the rest work as outside.
 * The whole tree is bound as it is, then each grant in order, parents first. For a user other
 * than root with `--dev-bind / /`: devices as the user has them (bwrap's `--bind` marks every
 * mount nodev, which would need /dev bound again); as root, a minimal `--dev` (a raw disk would
 * be writable), with the host's /dev/shm bound as the plan has it (shared memory, a scratch dir).
 */
export function enforcementArgs(plan: SandboxPlan, root: boolean, kept: Grant[] = needed(plan.grants, root)): string[] {
  const args = ['--new-session', '--unshare-user', '--unshare-pid'];
  if (root) args.push('--cap-drop', 'ALL');
  const base = plan.grants.find((g) => g.path === '/')?.access ?? 'rw';
  if (base === 'ro') args.push('--ro-bind', '/', '/', ...(root ? ['--dev', '/dev'] : ['--dev-bind', '/dev', '/dev']), '--proc', '/proc');
  else args.push(...(root ? ['--bind', '/', '/', '--dev', '/dev'] : ['--dev-bind', '/', '/']), '--proc', '/proc');
  const shm = root && exists('/dev/shm');
  if (shm) args.push(effectiveAccess('/dev/shm', plan.grants) === 'rw' ? '--bind' : '--ro-bind', '/dev/shm', '/dev/shm');
  for (const g of kept) {
    if (g.path === '/' || g.path === '/dev' || g.path === '/proc' || g.path.startsWith('/proc/') || (shm && g.path === '/dev/shm')) continue;
    if (g.path.startsWith('/dev/') && root && !(shm && (g.path === '/dev/shm' || g.path.startsWith('/dev/shm/')))) continue;
    // (a plan whose reservations were not made real by `materializeReservations`: bwrap creates
    // the mount point on the host)
    if (g.volatile) args.push('--tmpfs', g.path);
    // (sources from the old root: the host's entry the tmpfs hides; /dev/null without nodev, which
    // git can open: bwrap's --remount-ro would add nodev, and a write to it changes nothing)
    else if (g.back === 'empty') args.push('--dev-bind', '/dev/null', g.path);
    else if (g.back === 'empty-dir') args.push('--tmpfs', g.path, '--remount-ro', g.path);
    else if (g.back) args.push(g.access === 'rw' ? '--bind-try' : '--ro-bind-try', g.path, g.path);
    else if (g.reserve === 'file') args.push('--ro-bind', '/dev/null', g.path);
    else if (g.reserve === 'between') args.push('--bind', g.path, g.path);
    else if (g.reserve) args.push('--tmpfs', g.path, '--remount-ro', g.path);
    else args.push(g.access === 'rw' ? '--bind' : '--ro-bind', g.path, g.path);
  }
  return args;
}

/**
 * The plan's mounts as the `bashguard_mounts` builtin takes them (native/landlock-builtin.c), one
 * line each in bwrap's order: `r` read-only, `w` as the host has it, `n` /dev/null on a reserved
 * file, `t` an empty read-only tmpfs on a reserved directory. The rest of bwrap's setup has no line:
 * the tree stays as it is (no new /dev or /proc: the builtin's Landlock domain keeps the command from
 * other processes' /proc entries, and, as root, from /proc, /sys and all but /dev's harmless nodes).
 * null where a path holds a newline (one line per mount).
 */
export function mountsText(plan: SandboxPlan, root: boolean, kept: Grant[] = needed(plan.grants, root), top: readonly string[] | null = TOP_DIRS.get(plan) ?? topDirs(), registry: string | null = null): string | null {
  // (`R`: where the reservations' mount points, made by the builtin or the helper, are recorded)
  if (registry?.includes('\n')) return null;
  const lines: string[] = registry && kept.some((g) => g.reserve) ? [`R${registry}`] : [];
  const grants = kept;
  // `/` read-only: every mount of the tree made read-only where it is (`r/`: one call, where a
  // bind per top-level directory cost ~0.3 ms of the call, and fewer mounts to tear down at its
  // end; a mount on `/` itself would not be seen by the shell, whose root stays beneath it), then
  // /dev, /proc and the top-level write roots bound again as the host has them (`w`, their
  // sources taken before the first mount): nothing can create a top-level entry, root included.
  const topRw = new Set<string>();
  if (grants[0]?.path === '/' && grants[0].access === 'ro') {
    for (const g of grants) if (g.access === 'rw' && !g.reserve && g.path.lastIndexOf('/') === 0) topRw.add(g.path);
    if (!top) return null;
    lines.push('r/');
    for (const p of top) if (p === '/dev' || p === '/proc' || topRw.has(p)) lines.push(`w${p}`);
  }
  for (const g of grants) {
    if (g.path === '/' || g.path === '/proc' || g.path.startsWith('/proc/') || g.path === '/dev' || topRw.has(g.path)) continue;
    if (g.path.includes('\n')) return null;
    lines.push(`${g.volatile ? 'v' : g.back === 'empty' ? 'e' : g.back === 'empty-dir' ? 'd' : g.back ? (g.access === 'rw' ? 'B' : 'b') : g.reserve === 'file' ? 'n' : g.reserve === 'between' ? 'm' : g.reserve ? 't' : g.access === 'rw' ? 'w' : 'r'}${g.path}`);
  }
  return lines.join('\n');
}

/**
 * The grants that change something, each mount costing ~0.2-0.5 ms of the call: a grant whose
 * nearest enclosing grant gives the same access is dropped (`.git/config` inside a read-only
 * `.git`), unless it is a reservation, or a pin inside something writable (a pin exists to be a
 * mount point). Not as root: a read-only grant on a path the user can neither write nor replace
 * (node in /usr/bin), and a pin whose parent the user cannot write (nothing can rename it).
 */
function needed(grants: Grant[], root: boolean): Grant[] {
  const out: Grant[] = [];
  // (index loops and no `k.path + '/'`: this runs on every allowed call, where each iterator and
  // string allocated adds to the young generation the hook otherwise leaves unscavenged)
  for (let i = 0; i < grants.length; i++) {
    const g = grants[i]!;
    // (the base, which every other grant is measured against; the shared git dir's tmpfs and what it binds back)
    if (g.path === '/' || g.volatile || g.back) {
      out.push(g);
      continue;
    }
    let enclosing: Grant | null = null;
    for (let j = 0; j < out.length; j++) {
      const k = out[j]!;
      const inside = k.path === '/' || (g.path.length > k.path.length && g.path.charCodeAt(k.path.length) === 47 && g.path.startsWith(k.path));
      if (k.path !== g.path && inside && (!enclosing || k.path.length >= enclosing.path.length)) enclosing = k;
    }
    const access = enclosing?.access ?? 'rw';
    if (!g.reserve && g.access === access && !(g.pin && access === 'rw')) continue;
    if (!root && g.access === 'ro' && !g.reserve && !writable(g.path) && !writable(dirname(g.path))) continue;
    if (!root && g.pin && !writable(dirname(g.path))) continue;
    out.push(g);
  }
  return out;
}

/** existsSync (stat, following links; any error is false), through the addon where the process has it. */
function exists(p: string): boolean {
  const io = nativeIO(false);
  if (!io) return existsSync(p);
  const k = io.statKind(p, true);
  return k !== STAT.ENOENT && k !== STAT.ENOTDIR && k !== STAT.ERROR;
}

function writable(p: string): boolean {
  try {
    accessSync(p, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

export interface WrapOptions {
  bwrap: string;
  args: readonly string[];
  shell: string;
  /**
   * The file the call's final directory (and bwrap's own message, when it cannot set the sandbox
   * up) is written to: a fresh name in a directory of the user's (./cwd-files.ts `cwdDir`). Created
   * by the outer shell under `set -C`, so a file or symlink planted under that name is refused.
   */
  cwdFile: string;
  /** Whether `--` ends the sandbox program's own options (bwrap, the Landlock helper); not for sandbox-exec. */
  dashDash?: boolean;
  /**
   * A seccomp filter bubblewrap applies to the command (`--seccomp 9`, ./seccomp.ts), fed to it
   * by a process substitution: the program holds NUL bytes, and a file would be state to trust.
   */
  seccomp?: Uint8Array | null;
  /**
   * A file that holds exactly `seccomp`, in the hook's private cache directory (read-only in every
   * sandbox), opened instead of the process substitution: no fork of the client's shell.
   */
  seccompFile?: string | null;
  /** A descriptor the inner shell closes first (the reservations' lock, held until the sandbox is made). */
  closeFd?: number;
}

/**
 * The wrapper the client runs instead of `command` (see the file comment). The command reaches
 * the inner shell's `eval` byte for byte (single-quoted twice: into the inner script, and the
 * inner script into the outer line). Every step but bwrap itself is a shell builtin (the call
 * pays one fork and exec beyond the inner shell):
 * - the outer shell creates the cwd file under `set -C` in the subshell that becomes bwrap;
 * - bwrap's stderr goes to the same file (bwrap writes there only when it cannot start the
 *   command); the inner shell appends `:` and `pwd -P` as the last line;
 * - the outer shell reads the file with `read` when it is a regular file: the `:/...` line is the
 *   directory to `cd` to, any other line is bwrap's message and goes to stderr;
 * - the file stays (removing it would cost an `rm` process per call): the hook removes the cwd
 *   files of earlier calls (`sweepCwdFiles`);
 * - the status is returned through a function, without a subshell.
 */
export function enforcementWrapper(command: string, opts: WrapOptions): string {
  if (command.includes('\0')) throw new Error('the command contains a NUL byte, which cannot be passed to a shell');
  // (the command reaches the inner shell as its first argument, taken off before it runs: `$@` is empty as unwrapped)
  const inner = `__bg_c=$1; shift; exec 1>&7 2>&8 7>&- 8>&-${opts.closeFd !== undefined ? ` ${opts.closeFd}>&-` : ''}; eval "$__bg_c" 3>&-; __bg_s=$?; builtin printf : >&3; builtin pwd -P >&3; exit $__bg_s`;
  return (
    commandDefinition(command) +
    [
      // (`.$$`, the client shell's pid: the same wrapper run twice gets two files, since the file
      // stays and `set -C` refuses an existing one)
      `__bg_f=${shellQuote(opts.cwdFile)}.$$`,
      `(set -C; exec ${shellJoin([opts.bwrap, ...opts.args, ...(opts.seccomp ? ['--seccomp', '9'] : []), ...(opts.dashDash === false ? [] : ['--']), opts.shell, '-c', inner, opts.shell])} "$__bg_c" 3>"$__bg_f" 7>&1 8>&2 1>/dev/null 2>&3${opts.seccomp ? (opts.seccompFile ? ` 9<${shellQuote(opts.seccompFile)}` : ` 9< <(${filterPrintf(opts.seccomp)})`) : ''})`,
      '__bg_s=$?',
      '__bg_d=',
      `if [ -f "$__bg_f" ] && [ ! -L "$__bg_f" ]; then while IFS= read -r __bg_l || [ -n "$__bg_l" ]; do case $__bg_l in :/*) __bg_d=\${__bg_l#:} ;; *) builtin printf '%s\\n' "$__bg_l" >&2 ;; esac; done <"$__bg_f"; fi`,
      'if [ -n "$__bg_d" ] && [ -d "$__bg_d" ]; then builtin cd -- "$__bg_d"; fi',
      '__bg_r() { return "$1"; }',
      '__bg_r "$__bg_s"',
    ].join('; ')
  );
}

/** bubblewrap's arguments where the helper cannot make the reservations (a path with a newline): the hook makes them. */
function materializedArgs(plan: SandboxPlan, root: boolean, registry: string): string[] {
  return enforcementArgs(materializeReservations(plan, registry), root);
}

export type Enforcement =
  /**
   * The plan's mounts; `by`: who makes them where not bubblewrap: the client's own shell (bash,
   * ./in-shell.ts; the helper, or bwrap where the helper's probe failed, where it declines), or bashguard's
   * helper for a fresh inner shell. `probe`: a command that succeeds where that sandbox can start
   * (./held.ts: inside another sandbox, none can).
   */
  | { kind: 'bwrap'; command: string; plan: SandboxPlan; by?: 'shell' | 'helper'; probe: string[] }
  | LandlockEnforcement
  | SeatbeltEnforcement
  | { kind: 'client' }
  | { kind: 'none'; reason: string };

/**
 * How an allowed Bash call is enforced here: the wrapped command, the client's own sandbox
 * (`enforce: "client"`), or none and why (`enforce: "off"`, no bwrap). Never throws. `callId`:
 * the client's id of the call, which names the cwd file. `store`: where the plan may be kept
 * between calls (see `enforcementPlan`). `reserve: false`: make no reservation (doctor). `shell`:
 * the client's shell where not Claude Code's choice (`clientShell`).
 */
export function enforceCall(ws: Workspace, command: string, mode: EnforceMode, env: Env, callId?: string, store?: FactStore, opts: { reserve?: boolean; shell?: string } = {}): Enforcement {
  if (mode === 'off') return { kind: 'none', reason: 'enforcement is off in the trusted configuration ("enforce": "off")' };
  if (mode === 'client') return { kind: 'client' };
  if (command.includes('\0')) return { kind: 'none', reason: 'the command contains a NUL byte' };
  if (process.platform === 'darwin' && (mode === 'auto' || mode === 'seatbelt')) {
    const shell = opts.shell ?? clientShell(env);
    return seatbeltCall(command, seatbeltAvailable(env), SANDBOX_EXEC, {
      plan: () => enforcementPlan(ws, SANDBOX_EXEC, physicalPath(shell) ?? shell, store),
      wrap: (c, argv) => enforcementWrapper(c, { bwrap: argv[0]!, args: argv.slice(1), shell, cwdFile: cwdFileFor(env, command, callId), dashDash: false }),
    });
  }
  if (mode === 'seatbelt') return { kind: 'none', reason: `sandbox-exec needs macOS (this is ${process.platform})` };
  if (process.platform !== 'linux') return { kind: 'none', reason: `bubblewrap needs Linux (this is ${process.platform})` };
  const bwrap = mode === 'landlock' ? null : findBwrap(env);
  const bwrapOk = bwrap !== null && (mode !== 'auto' || bwrapStarts(bwrap, env).ok);
  // Under auto, bashguard's helper makes bubblewrap's mounts where bubblewrap is missing or cannot
  // start but the helper's probe passed; Landlock (./landlock.ts) where neither, or where the
  // config asks for it.
  const helper = mode === 'auto' ? landlockHelper() : null;
  const mountsHelper = !bwrapOk && helper && helperMountsWork(helper, env).ok ? helper : null;
  // (probed once per call: landlockCall takes the answer)
  const ll = mode === 'landlock' || (mode === 'auto' && !bwrapOk && !mountsHelper) ? landlockAvailable(env) : null;
  const useLandlock = mode === 'landlock' || ll?.ok === true;
  if (!bwrap && !useLandlock && !mountsHelper) return { kind: 'none', reason: `bubblewrap (bwrap) is not installed (Debian/Ubuntu: apt-get install bubblewrap)${mode === 'auto' ? `, bashguard's helper cannot make its mounts here, and Landlock cannot be used: ${ll?.why}` : ''}` };
  const shell = opts.shell ?? clientShell(env);
  // The Unix-socket filter (./seccomp.ts): bubblewrap reads it from a descriptor, the builtins and
  // the helper take it as hex (native/seccomp-core.h).
  const filter = ws.config.unixSockets === 'allow' ? null : unixSocketFilter();
  const hex = filter ? ['--seccomp', Buffer.from(filter).toString('hex')] : [];
  try {
    const cwdFile = cwdFileFor(env, command, callId);
    if (useLandlock) {
      // Missing control paths need no reservation here: Landlock refuses to create them (./landlock.ts).
      return landlockCall(ws, command, env, {
        // (not the held refs: Landlock refuses the lock file beside a protected ref, so no commit would run)
        plan: (helper) => {
          const p = enforcementPlan(ws, helper, physicalPath(shell) ?? shell, store, false);
          const l = ws.layout?.current;
          return l?.kind === 'linked-worktree' ? { ...p, openRefs: `Landlock leaves the shared refs in ${l.commonDir} writable` } : p;
        },
        wrap: (c, helper, args) => enforcementWrapper(c, { bwrap: helper, args, shell, cwdFile }),
        shell,
        store,
        available: ll ?? undefined,
        name: `landlock-rules-${hash64(`${ws.layout?.current.root ?? ws.cwd}\0${ws.env.HOME ?? ''}`)}`,
        seccomp: hex,
      });
    }
    // (the program that starts the sandbox is a control path of the plan)
    const bw = mountsHelper ?? physicalPath(bwrap!) ?? bwrap!;
    const reserver = opts.reserve !== false && process.platform === 'linux' ? (helper ?? landlockHelper()) : null;
    const registry = reserver ? reservationRegistry(env) : null;
    const planned = enforcementPlan(ws, bw, physicalPath(shell) ?? shell, store, 'volatile', registry ? recordedReservations(registry) : []);
    // (`reserve: false`, doctor's trial run: nothing is created, the reservations are left out)
    // The reservations' mount points are made in the call, by the builtin or the helper, and
    // removed after it (native/reserve-core.h); by the hook only where neither can run.
    const plan = opts.reserve === false ? { ...planned, grants: planned.grants.filter((g) => !g.reserve) } : registry ? planned : materializeReservations(planned, reservationRegistry(env));
    const root = process.getuid?.() === 0;
    // (`needed` once for both bubblewrap's arguments and the mounts text)
    let kept: Grant[] | undefined;
    const keptGrants = (): Grant[] => (kept ??= needed(plan.grants, root));
    const bwrapProbe = (): string[] => [bw, ...BWRAP_PROBE, '--', shell, '-c', ':'];
    // (bubblewrap's own wrapper, made only where it is used: the helper's path does without it;
    // its reservations made by the helper's `--reserve` before bwrap starts)
    const wrapped = (): string => {
      const args = enforcementArgs(plan, root, keptGrants());
      const reserve = registry ? reserveText(plan, registry) : null;
      const seccompOpts = { seccomp: mountsHelper ? null : filter, seccompFile: filter && !mountsHelper ? (store?.file?.(`seccomp-unix-${process.arch}.bpf`, filter) ?? null) : null };
      if (reserve) return enforcementWrapper(command, { bwrap: reserver!, args: ['--reserve', reserve, '--', bw, ...args], shell, cwdFile, ...seccompOpts, closeFd: RESERVE_LOCK_FD });
      return enforcementWrapper(command, { bwrap: bw, args: registry ? materializedArgs(plan, root, registry) : args, shell, cwdFile, ...seccompOpts });
    };
    if (mode !== 'auto') return { kind: 'bwrap', command: wrapped(), plan, probe: bwrapProbe() };
    // Behind the builtin, where it declines: the helper with the same mounts text where its probe
    // passed (the same mounts and Landlock domain for a fresh inner shell; it forks where the
    // builtin declines for the session), else bwrap's wrapper. (bwrap's is ~0.35 ms of the hook's
    // call to build, quoting ~80 arguments and checking the seccomp file, and ~2,900 characters
    // more for the client's shell to read on every call.)
    const built = inShellBuiltin(shell, helper);
    const fallback = built && !mountsHelper && !helperMountsWork(helper!, env).ok ? wrapped() : null;
    // Under auto, bubblewrap's mounts made without bubblewrap (a fraction of its cost): in the
    // client's own shell where it is bash (./in-shell.ts; where the builtin declines, the fallback
    // above), else by the helper for a fresh inner shell, where their probes passed.
    const text = helper ? mountsText(plan, root, keptGrants(), TOP_DIRS.get(planned) ?? topDirs(), registry) : null;
    if (text === null) return !mountsHelper ? { kind: 'bwrap', command: wrapped(), plan, probe: bwrapProbe() } : { kind: 'none', reason: 'a path of the plan holds a newline, which the helper cannot take (bubblewrap is not installed)' };
    const byHelper = (): string => enforcementWrapper(command, { bwrap: helper!, args: ['--mounts', text, ...hex], shell, cwdFile });
    const helperProbe = [helper!, '--mounts', '', '--', shell, '-c', ':'];
    const tmp = built ? clientTmpDir(env) : null;
    if (built && tmp && effectiveAccess(tmp, plan.grants) === 'rw' && !plan.grants.some((g) => g.reserve && isInside(tmp, g.path)) && inShellMountsWork(built, shell, env).ok) {
      return { kind: 'bwrap', command: inShellWrapper(command, built, 'bashguard_mounts', text, fallback ?? byHelper(), hex), plan, by: 'shell', probe: mountsHelper ? helperProbe : bwrapProbe() };
    }
    if (mountsHelper || helperMountsWork(helper!, env).ok) return { kind: 'bwrap', command: byHelper(), plan, by: 'helper', probe: helperProbe };
    return { kind: 'bwrap', command: wrapped(), plan, probe: bwrapProbe() };
  } catch (err) {
    return { kind: 'none', reason: `the sandbox cannot be computed: ${(err as Error).message.split('\n')[0]}` };
  }
}

/**
 * The wrapper's cwd file for one call: named from the client's id of the call when given (the
 * same answer for the same event; not guessable before the call, so nothing can be planted under
 * it), else random; in the user's private cwd dir, where earlier calls' files are swept.
 */
function cwdFileFor(env: Env, command: string, callId: string | undefined): string {
  const dir = cwdDir(env);
  // (one call in 16 sweeps: a few files wait a little longer, and most calls read no directory)
  if (dir && Math.random() < 1 / 16) sweepCwdFiles(dir);
  const token = callId === undefined ? randomToken() : fnv64(`${callId}\0${command}`) + fnv64(`${command}\0${callId}`);
  return dir ? `${dir}/${token}` : `${env.TMPDIR?.startsWith('/') ? env.TMPDIR : '/tmp'}/.bashguard-cwd-${token}`;
}

export interface EnforcementStatus {
  ok: boolean;
  /** The mechanism in effect: bwrap, landlock, client, off, none. */
  mechanism: 'bwrap' | 'landlock' | 'seatbelt' | 'client' | 'off' | 'none';
  detail: string;
}

/**
 * Which mechanism enforces the allowed Bash calls of a Claude Code session in `ws` (doctor,
 * install): bubblewrap when a wrapped `true` really runs here, Claude Code's own sandbox when the
 * trusted config says `client` and the settings a session reads turn it on with no way out,
 * `off` when the trusted config says so. Not ok when none is in effect although one is wanted.
 */
export function enforcementStatus(ws: Workspace, env: Env, claudeSettings: { file: string; settings: unknown; scope?: 'user' | 'managed' }[]): EnforcementStatus {
  const mode = ws.config.enforce;
  const from = ws.config.source ? ` (set in ${ws.config.source})` : '';
  if (mode === 'off') return { ok: true, mechanism: 'off', detail: `off${from}: the analyzer alone decides; nothing holds the line for what it misses` };
  if (mode === 'client') {
    const s = clientSandboxSettings(claudeSettings);
    return s.ok
      ? { ok: true, mechanism: 'client', detail: `Claude Code's own sandbox${from}: ${s.detail}` }
      : { ok: false, mechanism: 'none', detail: `"enforce": "client"${from}, but ${s.detail}` };
  }
  // Claude Code's own sandbox runs every Bash call where a settings layer turns it on, and neither
  // bubblewrap nor Seatbelt can start inside it (held.ts): under `auto` the managed settings'
  // sandbox is the mechanism (the hook steps aside); a sandbox turned on anywhere else would make
  // every wrapped call fail.
  const managed = clientSandboxSettings(claudeSettings.filter((l) => l.scope === 'managed'));
  if (mode === 'auto' && managed.ok && managed.heldByManaged) return { ok: true, mechanism: 'client', detail: `Claude Code's own sandbox (held by its managed settings; "auto" steps aside for it): ${managed.detail}` };
  const on = claudeSettings.find((l) => (l.settings as { sandbox?: { enabled?: unknown } } | null)?.sandbox?.enabled === true);
  if (on) {
    return { ok: false, mechanism: 'none', detail: `Claude Code's own sandbox is on (sandbox.enabled in ${on.file}) and bashguard's wrapper cannot start inside it, so every Bash call of a Claude Code session would fail: let it be the mechanism (\`bashguard install --user --enforce client\`, or --managed) or turn it off` };
  }
  if (process.platform === 'darwin' && (mode === 'auto' || mode === 'seatbelt')) return seatbeltStatus(ws, env);
  if (!ws.root || ws.skipped) {
    const bwrap = process.platform === 'linux' && mode !== 'landlock' ? findBwrap(env) : null;
    const ll = mode === 'bwrap' ? null : landlockAvailable(env);
    const b = bwrap ? bwrapStarts(bwrap, env) : null;
    if (b?.ok) return { ok: true, mechanism: 'bwrap', detail: `bubblewrap (${bwrap}) for sessions in linked worktrees (not one here: ${ws.skipped ?? 'no worktree'})` };
    const helper = mode === 'auto' && process.platform === 'linux' ? landlockHelper() : null;
    if (helper && helperMountsWork(helper, env).ok) return { ok: true, mechanism: 'bwrap', detail: `bubblewrap's mounts, made by bashguard's helper (${helper}; bubblewrap ${b ? 'cannot start here' : 'is not installed'}), for sessions in linked worktrees (not one here: ${ws.skipped ?? 'no worktree'})` };
    if (ll?.ok) return { ok: true, mechanism: 'landlock', detail: `Landlock (${ll.why}, ${ll.helper})${b ? ` where ${b.why}` : ''} for sessions in linked worktrees (not one here: ${ws.skipped ?? 'no worktree'})` };
    if (!bwrap && mode !== 'landlock') return { ok: false, mechanism: 'none', detail: `no mechanism: ${process.platform === 'linux' ? 'bubblewrap (bwrap) is not installed (Debian/Ubuntu: apt-get install bubblewrap)' : `bubblewrap needs Linux (this is ${process.platform})`}${ll ? `; Landlock: ${ll.why}` : ''}` };
    return { ok: false, mechanism: 'none', detail: `no mechanism: ${[b?.why, ll ? `Landlock cannot be used: ${ll.why}` : null].filter((x) => x).join('; ')}` };
  }
  const e = enforceCall(ws, 'true', mode, env, undefined, undefined, { reserve: false });
  if (e.kind === 'landlock') {
    const failed = trialRun(ws, env, e.command, 'Landlock');
    if (failed) return failed;
    const { widened, coarse } = e.rules;
    return {
      ok: true,
      mechanism: 'landlock',
      detail: `Landlock (${landlockAvailable(env).why}): every allowed Bash call may write beneath ${e.rules.rules.length} paths only (the write roots: ${writeRootsSaid(e.plan)}; ${landlockLineSaid(e.plan)}); ${unixSocketsNote(ws)}${widened.length ? `; writable although protected (git's lock files): ${widened.map((w) => w.path).join(', ')}` : ''}${coarse.length ? `; read-only because they hold too many entries to list: ${coarse.map((c) => `${c.path} (${c.entries})`).join(', ')}` : ''}`,
    };
  }
  if (e.kind !== 'bwrap') return { ok: false, mechanism: 'none', detail: `no mechanism: ${e.kind === 'none' ? e.reason : 'unexpected'}` };
  const failed = trialRun(ws, env, e.command, e.by ? "bashguard's mounts" : 'bubblewrap');
  if (failed) return failed;
  const ro = e.plan.grants.filter((g) => g.access === 'ro').length;
  // Who makes the mounts (the probes enforceCall asked passed), or why bubblewrap does.
  const why = (): string => {
    const helper = landlockHelper();
    const built = helper ? inShellBuiltin(clientShell(env), helper) : null;
    const own = built ? inShellMountsWork(built, clientShell(env), env) : null;
    const h = helper ? helperMountsWork(helper, env) : null;
    return [own && !own.ok ? own.why : null, h && !h.ok ? h.why : null].filter((x) => x).join('; ');
  };
  const bwrap = findBwrap(env);
  const fallback = bwrap ? 'bubblewrap' : "bashguard's helper";
  const where =
    e.by === 'shell'
      ? `; the mounts are made in the client's own shell (bash: a user and mount namespace and a Landlock domain), ${fallback} where that shell cannot`
      : e.by === 'helper'
        ? `; the mounts are made by bashguard's helper (a user and mount namespace and a Landlock domain) for the client's shell (${clientShell(env)})`
        : mode === 'auto' && why()
          ? `; ${why()}, so bubblewrap starts for each call`
          : '';
  const hints = userWriteHints(env, ws.regions.filter((r) => r.kind === 'allowed' || r.kind === 'scratch').map((r) => r.root));
  return { ok: true, mechanism: 'bwrap', detail: `${bwrap ? `bubblewrap (${bwrap})` : "bubblewrap's mounts without bubblewrap (not installed)"}: every allowed Bash call runs with ${ro} read-only paths (main checkout, siblings, shared git state, control files) inside the write roots it may write (${writeRootsSaid(e.plan)}); everything else is read-only${hints.map((h) => `; ${h}`).join('')}${where}; ${unixSocketsNote(ws)}${e.plan.unreserved.length ? `; ${e.plan.unreserved.length} control path(s) that do not exist cannot be reserved (the analyzer keeps them): ${e.plan.unreserved.slice(0, 3).join(', ')}${e.plan.unreserved.length > 3 ? ' ...' : ''}` : ''}` };
}

/** The plan's write roots, as doctor names them (the line in force: a tool writing elsewhere adds a root to `writeRoots`). */
function writeRootsSaid(plan: SandboxPlan): string {
  const rw = plan.grants.filter((g) => g.access === 'rw' && !g.pin && g.path !== '/dev' && g.path !== '/proc').map((g) => g.path);
  return rw.length > 6 ? `${rw.slice(0, 6).join(', ')} and ${rw.length - 6} more` : rw.join(', ');
}


/** What the wrapped calls may do with Unix sockets (./seccomp.ts), for doctor. */
function unixSocketsNote(ws: Workspace): string {
  if (ws.config.unixSockets === 'allow') return `Unix sockets allowed ("unixSockets": "allow"${ws.config.source ? ` in ${ws.config.source}` : ''}): a daemon outside the sandbox (tmux, docker, systemd) can be asked to run code`;
  return unixSocketFilter() ? 'new Unix sockets refused (seccomp): no daemon outside the sandbox can be asked to run code' : `Unix sockets not held: no seccomp filter for ${process.arch}`;
}

/** The wrapped `true` run in the worktree as the client runs a call: null when it ran, else why not. */
function trialRun(ws: Workspace, env: Env, wrapped: string, what: string): EnforcementStatus | null {
  const r = spawnSync(clientShell(env), ['-c', wrapped], { cwd: ws.cwd, env: env as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 10_000 });
  if (r.status === 0) return null;
  return { ok: false, mechanism: 'none', detail: `${what} cannot run the wrapped commands here (exit ${r.status}): ${(r.stderr ?? '').trim().split('\n')[0] || r.error?.message || 'no message'}` };
}

/** enforcementStatus on macOS: the Seatbelt probe, then the wrapped `true` really run in this worktree. */
function seatbeltStatus(ws: Workspace, env: Env): EnforcementStatus {
  const a = seatbeltAvailable(env);
  if (!a.ok) return { ok: false, mechanism: 'none', detail: `no mechanism: ${a.why}` };
  const links = a.links === 'escapes' ? '; a hard link made during a call to a read-only file can be written through (Seatbelt matches paths; the analyzer keeps hard links to protected files)' : '';
  if (!ws.root || ws.skipped) return { ok: true, mechanism: 'seatbelt', detail: `Seatbelt (${SANDBOX_EXEC}) for sessions in linked worktrees (not one here: ${ws.skipped ?? 'no worktree'})${links}` };
  const e = enforceCall(ws, 'true', ws.config.enforce, env, undefined, undefined, { reserve: false });
  if (e.kind !== 'seatbelt') return { ok: false, mechanism: 'none', detail: `no mechanism: ${e.kind === 'none' ? e.reason : 'unexpected'}` };
  const failed = trialRun(ws, env, e.command, 'sandbox-exec');
  if (failed) return failed;
  const ro = e.plan.grants.filter((g) => g.access === 'ro').length + e.plan.unreserved.length;
  return { ok: true, mechanism: 'seatbelt', detail: `Seatbelt (${SANDBOX_EXEC}): every allowed Bash call runs with ${ro} read-only paths (main checkout, siblings, shared git state, control files)${links}` };
}

/**
 * Whether Claude Code's settings turn its own sandbox on with no way out: `sandbox.enabled` true
 * and `sandbox.allowUnsandboxedCommands` false in the user or managed settings (2.1.330's shipped
 * cli: the settings schema's `allowUnsandboxedCommands` "When false, the dangerouslyDisableSandbox
 * parameter is completely ignored ... A false in managed, --settings or user settings holds
 * whatever <project settings> say"), and `failIfUnavailable` true (else a machine where its
 * sandbox cannot start runs commands unsandboxed). Project settings do not count: the agent's
 * checkout holds them. The detail also says:
 * - whether project settings can still turn it off or widen it: they can unless the managed
 *   settings (or `--settings`, which bashguard cannot see) hold `allowUnsandboxedCommands: false`
 *   (the schema: "When managed settings or a --settings file set allowUnsandboxedCommands: false
 *   ..., values from project settings are ignored"; checked with the real client: a worktree's
 *   `.claude/settings.local.json` with `"sandbox": {"enabled": false}` turned it off under user
 *   settings alone, and did not under `--settings`);
 * - the network rule: commands reach the network only through the client's proxy, for the
 *   `allowedDomains` of the layers (only the managed ones under managed
 *   `network.allowManagedDomainsOnly`); `"*"` lets every host through; with none, a `-p` session
 *   refuses every host ("Connection blocked by network allowlist"), so `npm install` from a
 *   registry fails (src/frontends/cli/client-sandbox.ts).
 */
/** Claude Code's managed settings file (not from the environment: the hook's can come from a settings layer's `env`). */
export const MANAGED_CLAUDE_SETTINGS = process.platform === 'darwin' ? '/Library/Application Support/ClaudeCode/managed-settings.json' : '/etc/claude-code/managed-settings.json';

/**
 * Whether Claude Code's managed settings alone make its own sandbox hold (enabled, no way out,
 * no unsandboxed fallback): then no project layer can turn it off (see clientSandboxSettings).
 * Read safely (a regular file, bounded); anything else is not ok.
 */
export function managedClaudeSandbox(file = MANAGED_CLAUDE_SETTINGS): { ok: boolean; detail: string } {
  const r = readRegularFile(file, { maxBytes: 1024 * 1024 });
  if (!r.ok) return { ok: false, detail: `${file}: not readable` };
  let settings: unknown;
  try {
    settings = JSON.parse(r.text);
  } catch {
    return { ok: false, detail: `${file}: not JSON` };
  }
  const s = clientSandboxSettings([{ file, settings, scope: 'managed' }]);
  return { ok: s.ok && s.heldByManaged === true, detail: s.detail };
}

export function clientSandboxSettings(layers: { file: string; settings: unknown; scope?: 'user' | 'managed' }[]): { ok: boolean; detail: string; heldByManaged?: boolean } {
  const get = (o: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((v, k) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined), o);
  let enabled: string | null = null;
  let closed: string | null = null;
  let failIf: string | null = null;
  let heldByManaged = false;
  for (const l of layers) {
    if (get(l.settings, 'sandbox', 'enabled') === true) enabled = l.file;
    if (get(l.settings, 'sandbox', 'allowUnsandboxedCommands') === false) {
      closed = l.file;
      if (l.scope === 'managed') heldByManaged = true;
    }
    if (get(l.settings, 'sandbox', 'failIfUnavailable') === true) failIf = l.file;
  }
  const missing = [enabled ? null : '"sandbox": {"enabled": true}', closed ? null : '"allowUnsandboxedCommands": false', failIf ? null : '"failIfUnavailable": true'].filter((x) => x !== null);
  if (missing.length) return { ok: false, detail: `the user or managed Claude Code settings do not set ${missing.join(', ')} (${layers.map((l) => l.file).join(', ') || 'none read'}; \`bashguard install --user --enforce client\` writes them)` };
  const managedOnly = layers.some((l) => l.scope === 'managed' && get(l.settings, 'sandbox', 'network', 'allowManagedDomainsOnly') === true);
  const domains = [...new Set(layers.filter((l) => !managedOnly || l.scope === 'managed').flatMap((l) => {
    const d = get(l.settings, 'sandbox', 'network', 'allowedDomains');
    return Array.isArray(d) ? d.filter((x): x is string => typeof x === 'string') : [];
  }))];
  const network = domains.includes('*')
    ? 'network: every host, through its proxy ("allowedDomains": ["*"]; programs that ignore HTTP(S)_PROXY have none)'
    : domains.length
      ? `network: only ${domains.length} domain pattern(s) through its proxy (${domains.slice(0, 3).join(', ')}${domains.length > 3 ? ' ...' : ''})${managedOnly ? ', the managed ones only (allowManagedDomainsOnly)' : ''}; every other host is refused in -p sessions`
      : 'network: none (no "allowedDomains": every host is refused in -p sessions, so `npm install` from a registry fails; "allowedDomains": ["*"] lets every host through its proxy)';
  const hold = heldByManaged
    ? 'held by the managed settings (project settings cannot turn it off or widen it)'
    : "from user settings only: a project's .claude/settings.json or settings.local.json can still turn it off or widen it (Claude Code ignores their sandbox values only when managed settings or --settings hold it)";
  return { ok: true, heldByManaged, detail: `sandbox.enabled in ${enabled}, allowUnsandboxedCommands false in ${closed}, failIfUnavailable in ${failIf}; ${hold}; ${network}` };
}
