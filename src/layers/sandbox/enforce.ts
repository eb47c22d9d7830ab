/**
 * Enforcement of every Bash call the hook allows (issue #38): the analyzer predicts, the OS holds
 * the line. The hook answers an allowed call with the command wrapped in bubblewrap, computed from
 * the same workspace model as the analysis (./grants.ts with `base: 'rw'`): the file system as the
 * user has it (installs, caches, /tmp, servers, HOME), with the main checkout, the sibling
 * worktrees, the shared git dir except this worktree's own git state, and every control file
 * read-only.
 *
 * The wrapper is plain shell text that calls bwrap directly with the argument vector computed at
 * hook time (no second node start inside the command). It keeps the client's semantics:
 * - exit status: bwrap returns the command's status (128+n for a signal);
 * - background processes (`cmd &`, `nohup`): bwrap's monitor returns when the command's own
 *   process exits, and without `--die-with-parent` the sandbox's init keeps the rest running
 *   (checked with bubblewrap 0.8: `bwrap --unshare-pid ... bash -c 'sleep 3 &'` returns at once
 *   and the sleep lives on);
 * - output: the command's stdout and stderr reach it on fds 7 and 8, and bwrap itself gets
 *   /dev/null and a file: the sandbox's init (pid 1, which lives as long as a background process
 *   does) closes every descriptor above 2, so it does not hold the client's pipes open;
 * - the working directory: Claude Code runs a Bash call as `<setup> && eval '<command>' && pwd -P
 *   >| <cwd file>` in its shell (2.1.330's shipped cli, the function that builds `commandString`
 *   and `cwdFilePath`; `eval ${quoted}` then `pwd -P >| ${cwdFile}` joined by ` && `), and the
 *   next call starts in that directory. The command runs in a child process here, so the inner
 *   shell writes its final `pwd -P` to fd 3, a file the outer shell opened, and the outer shell
 *   `cd`s there before returning the command's status. (A file, not a pipe: a background
 *   subshell keeps the descriptor open, and reading a pipe to its end would wait for it.)
 *
 * Under `auto`, where bwrap is missing or cannot start (a probe cached per boot), the same wrapper
 * runs the command under Landlock instead when the kernel has it (./landlock.ts).
 * Where bwrap is missing and Landlock cannot be used, the hook does not wrap (and says so);
 * `doctor` fails. Where bwrap is installed but cannot create a sandbox (user namespaces off) and
 * Landlock cannot be used either, the wrapped command fails with bwrap's message rather than
 * running unconfined; `doctor` fails and says why.
 */
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import type { Workspace } from '../../policy/workspace/index.js';
import type { Env } from '../../policy/workspace/config.js';
import type { EnforceMode } from '../../policy/config.js';
import { packageRoot } from '../../util/package-root.js';
import { sandboxPlan, type Grant, type SandboxPlan } from './grants.js';
import { dirname } from 'node:path';
import { shellJoin, shellQuote } from '../../util/quote.js';
import { bwrapStarts, landlockAvailable, landlockCall, type LandlockRules } from './landlock.js';

export type { EnforceMode };

/** Where bwrap is looked for, before PATH: system directories the agent's settings cannot redirect. */
const BWRAP_DIRS = ['/usr/bin', '/bin', '/usr/local/bin'];

function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

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

function real(p: string): string | null {
  try {
    return realpathSync.native(p);
  } catch {
    return null;
  }
}

/**
 * The shell Claude Code runs commands with: CLAUDE_CODE_SHELL or SHELL when it names bash or zsh,
 * else bash (2.1.330's shipped cli: the shell-candidates function filters `[CLAUDE_CODE_SHELL,
 * SHELL]` on `includes("bash") || includes("zsh")`, then tries bash and zsh in /bin, /usr/bin,
 * /usr/local/bin, /opt/homebrew/bin). The inner shell is the same one, so the command means the
 * same thing inside.
 */
export function clientShell(env: Env): string {
  for (const s of [env.CLAUDE_CODE_SHELL, env.SHELL]) if (s && s.startsWith('/') && (s.includes('bash') || s.includes('zsh')) && executable(s)) return s;
  for (const s of ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash']) if (executable(s)) return s;
  return '/bin/bash';
}

/**
 * Control paths the enforcement keeps read-only beyond the workspace's protected files (BG1005):
 * all of Claude Code's user directory (settings, hooks with bashguard's launcher, plugins, agents,
 * memory), its state file `~/.claude.json` (per-project allowed tools, MCP servers), the managed
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
  out.push({ path: process.platform === 'darwin' ? '/Library/Application Support/ClaudeCode' : '/etc/claude-code', why: "Claude Code's managed settings" });
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
    const r = real(p) ?? p;
    if (!system(r)) out.push({ path: r, why });
  }
  return out;
}

/** The enforcement plan for a workspace: the file system as it is, the protected regions read-only. */
export function enforcementPlan(ws: Workspace, bwrap: string, shell: string): SandboxPlan {
  return sandboxPlan(ws, { base: 'rw', extra: enforcementControlPaths(ws.env, bwrap, shell) });
}

/**
 * bwrap's options for the enforcement: a user namespace (the mounts cannot be undone: as root,
 * capabilities are dropped too), a pid namespace with its own /proc (a host process's
 * /proc/<pid>/root would reach the host's mounts), a new session (no TIOCSTI into a terminal), a
 * minimal /dev (raw disks stay out of reach of a root agent); no network, IPC or UTS namespace, so
 * servers and the rest work as outside. The whole tree is bound as it is, then each grant in
 * order, parents first.
 */
export function enforcementArgs(plan: SandboxPlan, root: boolean): string[] {
  const args = ['--new-session', '--unshare-user', '--unshare-pid'];
  if (root) args.push('--cap-drop', 'ALL');
  // As root, a minimal /dev (a raw disk would be writable); otherwise /dev as the user has it (one
  // bind instead of bwrap's ~10 mounts for a minimal one: it only offers what the user can open).
  args.push('--bind', '/', '/', ...(root ? ['--dev', '/dev'] : ['--dev-bind', '/dev', '/dev']), '--proc', '/proc');
  // /dev/shm as the user has it (shared memory, and checkouts that live there).
  const shm = root && existsSync('/dev/shm');
  if (shm) args.push('--bind', '/dev/shm', '/dev/shm');
  for (const g of needed(plan.grants, root)) {
    if (g.path === '/' || g.path === '/dev' || g.path === '/proc' || g.path.startsWith('/proc/') || (shm && g.path === '/dev/shm')) continue;
    if (g.path.startsWith('/dev/') && root && !(shm && (g.path === '/dev/shm' || g.path.startsWith('/dev/shm/')))) continue;
    if (g.reserve === 'file') args.push('--ro-bind', '/dev/null', g.path);
    else if (g.reserve) args.push('--tmpfs', g.path, '--remount-ro', g.path);
    else args.push(g.access === 'rw' ? '--bind' : '--ro-bind', g.path, g.path);
  }
  return args;
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
  for (const g of grants) {
    let enclosing: Grant | null = null;
    for (const k of out) if (k.path !== g.path && (k.path === '/' || g.path.startsWith(k.path + '/')) && (!enclosing || k.path.length >= enclosing.path.length)) enclosing = k;
    const access = enclosing?.access ?? 'rw';
    if (!g.reserve && g.access === access && !(g.pin && access === 'rw')) continue;
    if (!root && g.access === 'ro' && !g.reserve && !writable(g.path) && !writable(dirname(g.path))) continue;
    if (!root && g.pin && !writable(dirname(g.path))) continue;
    out.push(g);
  }
  return out;
}

function writable(p: string): boolean {
  try {
    accessSync(p, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * 64-bit FNV-1a of a string, as 16 hex digits: the cwd file's name from the call's id (node:crypto
 * is not loaded for it: its first load costs the hook's process several ms).
 */
function fnv64(s: string): string {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < s.length; i++) h = BigInt.asUintN(64, (h ^ BigInt(s.charCodeAt(i))) * 0x100000001b3n);
  return h.toString(16).padStart(16, '0');
}

function randomToken(): string {
  return fnv64(`${process.pid}\0${process.hrtime.bigint()}\0${Math.random()}\0${Math.random()}`);
}

export interface WrapOptions {
  bwrap: string;
  args: readonly string[];
  shell: string;
  /** A fresh random token naming the cwd file (tests pass a fixed one). */
  token?: string;
  /**
   * Reserved control paths that did not exist (bwrap creates their mount points on the host):
   * removed after the call while still empty, so the reservation leaves nothing behind.
   */
  reserved?: { path: string; dir: boolean }[];
}

/**
 * The wrapper the client runs instead of `command` (see the file comment). The command reaches
 * the inner shell's `eval` byte for byte (single-quoted twice: into the inner script, and the
 * inner script into the outer line). In the outer shell:
 * - the cwd file is created under `set -C` in a subshell that then becomes bwrap, so an existing
 *   file or symlink of that name is refused, not followed;
 * - it is read only when it is a regular file, then removed;
 * - the status is returned through a function, without a subshell.
 */
export function enforcementWrapper(command: string, opts: WrapOptions): string {
  if (command.includes('\0')) throw new Error('the command contains a NUL byte, which cannot be passed to a shell');
  const token = opts.token ?? randomToken();
  const inner = `exec 1>&7 2>&8 7>&- 8>&-; eval ${shellQuote(command)} 3>&-; __bg_s=$?; builtin pwd -P >&3; exit $__bg_s`;
  const f = `\${TMPDIR:-/tmp}/.bashguard-cwd-${token}`;
  return [
    `__bg_f="${f}"`,
    `(set -C; exec ${shellJoin([opts.bwrap, ...opts.args, '--', opts.shell, '-c', inner])} 3>"$__bg_f" 7>&1 8>&2 1>/dev/null 2>"$__bg_f.e")`,
    '__bg_s=$?',
    '__bg_d=',
    `if [ -f "$__bg_f" ] && [ ! -L "$__bg_f" ]; then IFS= read -r __bg_d <"$__bg_f"; fi`,
    // bwrap's own message, when it could not set the sandbox up.
    `if [ -s "$__bg_f.e" ] && [ ! -L "$__bg_f.e" ]; then command cat -- "$__bg_f.e" >&2; fi`,
    // (in the background: the call need not wait for rm; the names are the call's own)
    '{ command rm -f -- "$__bg_f" "$__bg_f.e" </dev/null >/dev/null 2>&1 & }',
    ...(opts.reserved ?? []).map((r) =>
      r.dir
        ? `command rmdir -- ${shellQuote(r.path)} 2>/dev/null`
        : `if [ -f ${shellQuote(r.path)} ] && [ ! -L ${shellQuote(r.path)} ] && [ ! -s ${shellQuote(r.path)} ]; then command rm -f -- ${shellQuote(r.path)}; fi`,
    ),
    'if [ -n "$__bg_d" ] && [ -d "$__bg_d" ]; then builtin cd -- "$__bg_d"; fi',
    '__bg_r() { return "$1"; }',
    '__bg_r "$__bg_s"',
  ].join('; ');
}

export type Enforcement =
  | { kind: 'bwrap'; command: string; plan: SandboxPlan }
  | { kind: 'landlock'; command: string; plan: SandboxPlan; rules: LandlockRules }
  | { kind: 'client' }
  | { kind: 'none'; reason: string };

/**
 * How an allowed Bash call is enforced here: the wrapped command, the client's own sandbox
 * (`enforce: "client"`), or none and why (`enforce: "off"`, no bwrap). Never throws.
 */
export function enforceCall(ws: Workspace, command: string, mode: EnforceMode, env: Env, callId?: string): Enforcement {
  if (mode === 'off') return { kind: 'none', reason: 'enforcement is off in the trusted configuration ("enforce": "off")' };
  if (mode === 'client') return { kind: 'client' };
  if (process.platform !== 'linux') return { kind: 'none', reason: `bubblewrap needs Linux (this is ${process.platform})` };
  if (command.includes('\0')) return { kind: 'none', reason: 'the command contains a NUL byte' };
  const bwrap = mode === 'landlock' ? null : findBwrap(env);
  // Landlock (./landlock.ts) when the config asks for it, or under `auto` where bwrap cannot start.
  const bwrapProbe = mode === 'auto' && bwrap ? bwrapStarts(bwrap, env) : null;
  if (mode === 'landlock' || (mode === 'auto' && (!bwrap || !bwrapProbe!.ok) && landlockAvailable(env).ok)) {
    const shell = clientShell(env);
    const token = callId === undefined ? undefined : fnv64(`${callId}\0${command}`) + fnv64(`${command}\0${callId}`);
    return landlockCall(ws, command, env, {
      plan: (helper) => enforcementPlan(ws, helper, real(shell) ?? shell),
      wrap: (c, helper, args) => enforcementWrapper(c, { bwrap: helper, args, shell, ...(token ? { token } : {}) }),
    });
  }
  if (!bwrap) return { kind: 'none', reason: `bubblewrap (bwrap) is not installed (Debian/Ubuntu: apt-get install bubblewrap)${mode === 'auto' ? `, and Landlock cannot be used: ${landlockAvailable(env).why}` : ''}` };
  const bw = real(bwrap) ?? bwrap;
  const shell = clientShell(env);
  try {
    const plan = enforcementPlan(ws, bw, real(shell) ?? shell);
    const args = enforcementArgs(plan, process.getuid?.() === 0);
    // The cwd file's name: from the client's id of the call when given (one file per call, and the
    // same answer for the same event), else random.
    const token = callId === undefined ? undefined : fnv64(`${callId}\0${command}`) + fnv64(`${command}\0${callId}`);
    const reserved = plan.grants.filter((g) => g.reserve).map((g) => ({ path: g.path, dir: g.reserve !== 'file' }));
    return { kind: 'bwrap', command: enforcementWrapper(command, { bwrap: bw, args, shell, reserved, ...(token ? { token } : {}) }), plan };
  } catch (err) {
    return { kind: 'none', reason: `the sandbox cannot be computed: ${(err as Error).message.split('\n')[0]}` };
  }
}

export interface EnforcementStatus {
  ok: boolean;
  /** The mechanism in effect: bwrap, landlock, client, off, none. */
  mechanism: 'bwrap' | 'landlock' | 'client' | 'off' | 'none';
  detail: string;
}

/**
 * Which mechanism enforces the allowed Bash calls of a Claude Code session in `ws` (doctor,
 * install): bubblewrap when a wrapped `true` really runs here, Claude Code's own sandbox when the
 * trusted config says `client` and the settings a session reads turn it on with no way out,
 * `off` when the trusted config says so. Not ok when none is in effect although one is wanted.
 */
export function enforcementStatus(ws: Workspace, env: Env, claudeSettings: { file: string; settings: unknown }[]): EnforcementStatus {
  const mode = ws.config.enforce;
  const from = ws.config.source ? ` (set in ${ws.config.source})` : '';
  if (mode === 'off') return { ok: true, mechanism: 'off', detail: `off${from}: the analyzer alone decides; nothing holds the line for what it misses` };
  if (mode === 'client') {
    const s = clientSandboxSettings(claudeSettings);
    return s.ok
      ? { ok: true, mechanism: 'client', detail: `Claude Code's own sandbox${from}: ${s.detail}` }
      : { ok: false, mechanism: 'none', detail: `"enforce": "client"${from}, but ${s.detail}` };
  }
  if (!ws.root || ws.skipped) {
    const bwrap = process.platform === 'linux' && mode !== 'landlock' ? findBwrap(env) : null;
    const ll = mode === 'bwrap' ? null : landlockAvailable(env);
    const b = bwrap ? bwrapStarts(bwrap, env) : null;
    if (b?.ok) return { ok: true, mechanism: 'bwrap', detail: `bubblewrap (${bwrap}) for sessions in linked worktrees (not one here: ${ws.skipped ?? 'no worktree'})` };
    if (ll?.ok) return { ok: true, mechanism: 'landlock', detail: `Landlock (${ll.why}, ${ll.helper})${b ? ` where ${b.why}` : ''} for sessions in linked worktrees (not one here: ${ws.skipped ?? 'no worktree'})` };
    if (!bwrap && mode !== 'landlock') return { ok: false, mechanism: 'none', detail: `no mechanism: ${process.platform === 'linux' ? 'bubblewrap (bwrap) is not installed (Debian/Ubuntu: apt-get install bubblewrap)' : `bubblewrap needs Linux (this is ${process.platform})`}${ll ? `; Landlock: ${ll.why}` : ''}` };
    return { ok: false, mechanism: 'none', detail: `no mechanism: ${[b?.why, ll ? `Landlock cannot be used: ${ll.why}` : null].filter((x) => x).join('; ')}` };
  }
  const e = enforceCall(ws, 'true', mode, env);
  if (e.kind === 'landlock') {
    const r = spawnSync(clientShell(env), ['-c', e.command], { cwd: ws.cwd, env: env as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 10_000 });
    if (r.status !== 0) return { ok: false, mechanism: 'none', detail: `Landlock cannot run the wrapped commands here (exit ${r.status}): ${(r.stderr ?? '').trim().split('\n')[0] || r.error?.message || 'no message'}` };
    const { widened, coarse } = e.rules;
    return {
      ok: true,
      mechanism: 'landlock',
      detail: `Landlock (${landlockAvailable(env).why}): every allowed Bash call may write beneath ${e.rules.rules.length} paths only (the complement of the main checkout, siblings, shared git state and control files; new entries beside a protected path are refused)${widened.length ? `; writable although protected (git's lock files): ${widened.map((w) => w.path).join(', ')}` : ''}${coarse.length ? `; read-only because they hold too many entries to list: ${coarse.map((c) => `${c.path} (${c.entries})`).join(', ')}` : ''}`,
    };
  }
  if (e.kind !== 'bwrap') return { ok: false, mechanism: 'none', detail: `no mechanism: ${e.kind === 'none' ? e.reason : 'unexpected'}` };
  const r = spawnSync(clientShell(env), ['-c', e.command], { cwd: ws.cwd, env: env as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 10_000 });
  if (r.status !== 0) return { ok: false, mechanism: 'none', detail: `bubblewrap cannot run the wrapped commands here (exit ${r.status}): ${(r.stderr ?? '').trim().split('\n')[0] || r.error?.message || 'no message'}` };
  const ro = e.plan.grants.filter((g) => g.access === 'ro').length;
  return { ok: true, mechanism: 'bwrap', detail: `bubblewrap (${findBwrap(env)}): every allowed Bash call runs with ${ro} read-only paths (main checkout, siblings, shared git state, control files)${e.plan.unreserved.length ? `; ${e.plan.unreserved.length} control path(s) that do not exist cannot be reserved (the analyzer keeps them): ${e.plan.unreserved.slice(0, 3).join(', ')}${e.plan.unreserved.length > 3 ? ' ...' : ''}` : ''}` };
}

/**
 * Whether Claude Code's settings turn its own sandbox on with no way out: `sandbox.enabled` true
 * and `sandbox.allowUnsandboxedCommands` false in the user or managed settings (2.1.330's shipped
 * cli: the settings schema's `allowUnsandboxedCommands` "When false, the dangerouslyDisableSandbox
 * parameter is completely ignored ... A false in managed, --settings or user settings holds
 * whatever <project settings> say"), and `failIfUnavailable` true (else a machine where its
 * sandbox cannot start runs commands unsandboxed). Project settings do not count: the agent's
 * checkout holds them.
 */
export function clientSandboxSettings(layers: { file: string; settings: unknown }[]): { ok: boolean; detail: string } {
  const get = (o: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((v, k) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined), o);
  let enabled: string | null = null;
  let closed: string | null = null;
  let failIf: string | null = null;
  for (const l of layers) {
    if (get(l.settings, 'sandbox', 'enabled') === true) enabled = l.file;
    if (get(l.settings, 'sandbox', 'allowUnsandboxedCommands') === false) closed = l.file;
    if (get(l.settings, 'sandbox', 'failIfUnavailable') === true) failIf = l.file;
  }
  const missing = [enabled ? null : '"sandbox": {"enabled": true}', closed ? null : '"allowUnsandboxedCommands": false', failIf ? null : '"failIfUnavailable": true'].filter((x) => x !== null);
  if (missing.length) return { ok: false, detail: `the user or managed Claude Code settings do not set ${missing.join(', ')} (${layers.map((l) => l.file).join(', ') || 'none read'})` };
  return { ok: true, detail: `sandbox.enabled in ${enabled}, allowUnsandboxedCommands false in ${closed}, failIfUnavailable in ${failIf}` };
}
