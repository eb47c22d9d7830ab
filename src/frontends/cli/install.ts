/**
 * `install`, `uninstall` and `doctor`: the Claude Code settings entry for the hook.
 * The merge keeps every other key, hook and matcher; running install twice changes nothing.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { readRegularFile } from '../../util/safe-read.js';
import { errnoText, UsageError, type IO } from '../io.js';
import { discoverLayout } from '../../policy/layout/discover.js';
import { packagePath } from '../../util/package-root.js';
import { restartAtLimit } from '../../util/time-limit.js';
import { openWorkspace } from '../../policy/workspace/index.js';
import { enforcementStatus, MANAGED_CLAUDE_SETTINGS } from '../../layers/sandbox/enforce.js';
import { mergeSandbox, recordSandboxInstall, sandboxNotes, sandboxUninstall, type SandboxAdded } from './client-sandbox.js';

export const MATCHER = 'Bash|Edit|Write|MultiEdit|NotebookEdit';

interface InstallOptions {
  scope: 'user' | 'project' | 'managed';
  dryRun: boolean;
  /** Claude Code only: which form of the hook to write (default `auto`, see chooseClaudeForm). */
  hookForm?: ClaudeHookForm;
  /** `--managed`: also set `allowManagedHooksOnly` (no hook of a lower settings layer runs). */
  managedHooksOnly?: boolean;
  /** `--managed-path`: the managed settings file to write instead of the system's (tests, images). */
  managedPath?: string;
  /** `--enforce client`: Claude Code's own sandbox holds the line (./client-sandbox.ts). */
  enforce?: 'client';
}

/**
 * Claude Code's managed settings file: `<dir>/managed-settings.json`, the directory being
 * `/Library/Application Support/ClaudeCode` on macOS and `/etc/claude-code` elsewhere (Linux), as
 * the shipped client computes it (@anthropic-ai/claude-agent-sdk-linux-x64 0.3.330, `claude`:
 * `switch(x()){case"macos":return"/Library/Application Support/ClaudeCode";case"windows":return
 * "C:\\Program Files\\ClaudeCode";default:return"/etc/claude-code"}` and
 * `function Wi(){return V(_b(),"managed-settings.json")}`). Only root can write there, which is
 * the point: the agent cannot. BASHGUARD_MANAGED_SETTINGS (absolute) names another file (tests).
 */
export function managedSettingsFile(env: IO['env']): string {
  if (env.BASHGUARD_MANAGED_SETTINGS?.startsWith('/')) return env.BASHGUARD_MANAGED_SETTINGS;
  return MANAGED_CLAUDE_SETTINGS;
}

/**
 * How a client's hook shell is given the supervised hook (bin/bashguard-hook), for the clients that
 * do not get Claude Code's exec form (HookSpec, below):
 * - `source`: `set -- <script> [ARGS]; BASHGUARD_NODE=<node> . "$1"`. The client's shell reads the
 *   script itself: one execve of /bin/sh less than `exec` (~0.6 ms per tool call on this machine,
 *   docs/history/performance.md). Only for clients whose hook shell is known from their
 *   code to be a POSIX shell: Claude Code runs a command hook with `shell: true`, /bin/sh on Linux
 *   and macOS (Git Bash on Windows; npm cli.js of 2.1.85 and the 2.1.330 binary), Gemini CLI with
 *   `bash -c` (`getShellConfiguration`, 0.61.0). A missing script fails closed under dash: the
 *   failed `.` ends the shell with status 2, which Claude Code takes as a block (`exec` gave 127,
 *   a non-blocking error).
 * - `exec`: `BASHGUARD_NODE=<node> exec <script> [ARGS]`, for every other client: the script runs
 *   under its own `#!/bin/sh` whatever shell the client uses (Codex 0.169 ran it with /bin/bash
 *   in the e2e test's strace; its code does not fix the shell that we know of). `exec` makes that
 *   shell become the supervisor instead of starting it and waiting (dash forks for a command with
 *   an assignment before it): ~0.2 ms.
 * In both, BASHGUARD_NODE reaches the supervisor (POSIX: assignments before a special builtin;
 * dash, bash and zsh alike).
 */
export type HookForm = 'source' | 'exec';

/** The absolute command a client runs: this package's supervised hook with this node. */
export function hookCommand(args: readonly string[] = [], form: HookForm = 'source'): string {
  const node = `BASHGUARD_NODE=${quote(process.execPath)}`;
  const script = quote(packagePath('bin', 'bashguard-hook'));
  const rest = args.map((a) => ` ${quote(a)}`).join('');
  return form === 'source' ? `set -- ${script}${rest}; ${node} . "$1"` : `${node} exec ${script}${rest}`;
}

/**
 * Claude Code's exec form (`command` + `args`): the client spawns the hook itself, with no shell
 * and no supervisor script between them (`hook --unsupervised`: the hook answers for itself at
 * its time limit, src/frontends/cli/hook-main.ts). That is one process less on every tool call: the client's
 * `sh -c` and the script, 0.1-1.9 ms against the shell form in the bench's runs (docs/history/performance.md).
 *
 * What the supervisor did that this form leaves to the client: a hook that cannot start (node or
 * the package gone), crashes, or prints no answer. Claude Code turns each of those into a block
 * under `"onFailure": "block"`, which install writes, from 2.1.295 on: the setting's description
 * ("it could not start (a missing script or plugin directory), timed out, exited with a code other
 * than 0 or 2, or printed JSON that is invalid...") is in @anthropic-ai/claude-agent-sdk 0.3.295's
 * sdk.d.ts and not in 0.3.294's. So `install` writes this form only when the Claude Code it finds
 * on PATH is 2.1.295 or later (chooseClaudeForm), and `doctor` fails when the one on PATH is older.
 *
 * The command is a launcher file, not node itself: `#!<node> --preserve-symlinks-main` and a few
 * lines that load the package's start entry (execFormText). The kernel starts node on it, so the
 * client that honours `args` still runs node and nothing else; but a client that does not (before
 * 2.1.139, CHANGELOG: "Added hook `args: string[]` field (exec form) that spawns the command
 * directly without a shell"; earlier ones strip the key, zod in npm cli.js of 2.1.85) runs the
 * command through its shell with no arguments, and node given no script would read the event as
 * one: a syntax error, exit 1, and the tool runs. Such clients do read the same settings: Agent
 * SDK 0.2.116-0.2.294 load the user's settings by default (their sdk.d.ts), whatever `claude` is
 * on PATH. With the launcher they run the hook too (without the block on a crash, which they do
 * not know). The launcher lives in ~/.claude/hooks/ (BG1005 protects it from the agent, like the
 * settings), named after the node and the entry it starts, written again by every install.
 *
 * Only `--preserve-symlinks-main` goes on node's command line (Node takes the launcher's path as
 * given instead of resolving it); the entry sets the V8 flags itself (src/runtime/startup/hook-start.ts).
 * A node that rejected a flag would exit 9 before running anything, which with no supervisor to
 * retry would block every call.
 */
export interface HookSpec {
  command: string;
  args?: string[];
}

/** The first Claude Code that honours a hook's `onFailure` (see HookSpec). */
export const CLAUDE_ON_FAILURE_SINCE = '2.1.295';
/** The first Claude Code that honours a hook's `args` (CHANGELOG 2.1.139). */
export const CLAUDE_ARGS_SINCE = '2.1.139';

/** Linux reads at most 127 bytes of a `#!` line before 5.1 (BINPRM_BUF_SIZE 128). */
const SHEBANG_MAX = 127;

/** The launcher's path for this node and this package: ~/.claude/hooks/bashguard-hook-<hash>.cjs; null without HOME. */
export function execFormFile(env: IO['env']): string | null {
  const home = env.HOME;
  if (!home?.startsWith('/')) return null;
  const hash = createHash('sha256').update(`${process.execPath}\0${packagePath('dist', 'hook-start.cjs')}`).digest('hex').slice(0, 12);
  // `.cjs`: node then runs it as CommonJS without looking for a package.json in every directory
  // above it for its module type (~0.5 ms, docs/history/performance.md).
  return join(home, '.claude', 'hooks', `bashguard-hook-${hash}.cjs`);
}

/**
 * The launcher: node's shebang, then the start entry loaded as the main module, the way node's own
 * start-up loads a script given on its command line once it has resolved it (`Module._load(path,
 * null, true)`, node's lib/internal/modules/run_main.js): under `--preserve-symlinks-main`, with
 * no realpath of its path, and `require.main` is the entry. The hook's arguments are set whatever
 * the client passed. A node without `Module._load` loads the entry and starts the hook.
 * Measured against node with the entry in `args`, medians of 120 alternated, deny: +0.0-0.1 ms on
 * Node 20, 22 and 24. Through `Module.runMain` (the first version), which resolves the main path
 * again and asks whether it is an ES module: +0.1-0.3 ms, +0.3-0.4 on Node 24. Reading and
 * compiling the entry with createRequire: +0.4 ms.
 */
export function execFormText(node: string = process.execPath, start: string = packagePath('dist', 'hook-start.cjs')): string {
  return [
    `#!${node} --preserve-symlinks-main`,
    '// Claude Code\'s exec form of the bashguard hook, written by `bashguard install` (src/frontends/cli/install.ts, HookSpec).',
    "'use strict';",
    `const start = ${JSON.stringify(start)};`,
    "process.argv = [process.argv[0], start, 'hook', '--unsupervised'];",
    'const M = module.constructor;',
    'if (typeof M._load === \'function\') M._load(start, null, true);',
    'else require(start).startHook();',
    '',
  ].join('\n');
}

/** The node and the start entry a launcher names, or null when the file is not one of ours. */
export function readExecForm(file: string): { node: string; start: string } | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const node = /^#!(\S+) --preserve-symlinks-main\n/.exec(text)?.[1];
  const start = /^const start = ("[^\n]*");$/m.exec(text)?.[1];
  if (!node || !start) return null;
  try {
    return { node, start: JSON.parse(start) as string };
  } catch {
    return null;
  }
}

/** Writes the launcher (atomically, 0755); null when written, else why not. */
export function writeExecForm(file: string): string | null {
  const text = execFormText();
  if (text.indexOf('\n') > SHEBANG_MAX) return `the path of node is too long for a #! line (${process.execPath})`;
  try {
    writeAtomically(file, text, 0o755);
    return null;
  } catch (err) {
    return `cannot write ${file} (${errnoText(err)})`;
  }
}

/** Claude Code's exec form of the hook: the launcher, with no arguments of its own. */
export function directHookSpec(env: IO['env']): HookSpec | null {
  const file = execFormFile(env);
  return file ? { command: file, args: [] } : null;
}

/** `auto`: the exec form when chooseClaudeForm finds it safe; `direct`: always; `shell`: never. */
export type ClaudeHookForm = 'auto' | 'direct' | 'shell';

/** Compares dotted version numbers (`2.1.85` < `2.1.295`). */
export function versionAtLeast(version: string, least: string): boolean {
  const a = version.split('.').map(Number);
  const b = least.split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}

/** The first executable `name` on PATH, or null. */
export function onPath(name: string, path: string | undefined): string | null {
  for (const dir of (path ?? '').split(':')) {
    const f = join(dir || '.', name);
    try {
      if (statSync(f).isFile()) {
        accessSync(f, constants.X_OK);
        return f;
      }
    } catch {
      // not here
    }
  }
  return null;
}

/** The Claude Code on PATH and the version its `claude --version` reports (version null when it reports none). */
export function claudeOnPath(env: IO['env']): { path: string; version: string | null } | null {
  const path = onPath('claude', env.PATH);
  if (!path) return null;
  const r = spawnSync(path, ['--version'], { env: { ...env, DISABLE_AUTOUPDATER: '1' }, encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'ignore'] });
  const m = /^\s*(\d+\.\d+\.\d+)/.exec(typeof r.stdout === 'string' ? r.stdout : '');
  return { path, version: m ? m[1]! : null };
}

/** The hook for Claude Code in the form asked for, and why that form (one line). */
export function chooseClaudeForm(io: Pick<IO, 'env'>, asked: ClaudeHookForm = 'auto'): { spec: HookSpec; why: string } {
  const shell = { command: hookCommand() };
  if (asked === 'shell') return { spec: shell, why: 'shell form, as asked' };
  const direct = directHookSpec(io.env);
  if (!direct) return { spec: shell, why: 'shell form: HOME is not set, so there is no ~/.claude/hooks for the exec form' };
  if (asked === 'direct') return { spec: direct, why: `exec form, as asked (Claude Code ${CLAUDE_ON_FAILURE_SINCE} or later needed)` };
  if (process.platform === 'win32' || typeof restartAtLimit() === 'string') return { spec: shell, why: "shell form: bashguard's addon cannot restart the hook at its time limit here" };
  const found = claudeOnPath(io.env);
  if (!found) return { spec: shell, why: 'shell form: no `claude` on PATH to check for the exec form (--hook-form direct writes it)' };
  if (!found.version) return { spec: shell, why: `shell form: ${found.path} --version reported no version` };
  if (!versionAtLeast(found.version, CLAUDE_ON_FAILURE_SINCE)) return { spec: shell, why: `shell form: Claude Code ${found.version} predates "onFailure" (${CLAUDE_ON_FAILURE_SINCE})` };
  return { spec: direct, why: `exec form: Claude Code ${found.version} runs the hook's node itself, no shell` };
}

function quote(p: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}

export function settingsPath(io: IO, scope: 'user' | 'project' | 'managed', managedPath?: string): string {
  if (scope === 'managed') return managedPath ?? managedSettingsFile(io.env);
  if (scope === 'user') {
    // Claude Code reads its user settings from CLAUDE_CONFIG_DIR when that is set.
    if (io.env.CLAUDE_CONFIG_DIR?.startsWith('/')) return join(io.env.CLAUDE_CONFIG_DIR, 'settings.json');
    const home = io.env.HOME;
    if (!home) throw new UsageError('HOME is not set; cannot find ~/.claude/settings.json');
    return join(home, '.claude', 'settings.json');
  }
  const found = discoverLayout(io.cwd);
  const root = found.ok && found.layout.current.root ? found.layout.current.root : io.cwd;
  return join(root, '.claude', 'settings.json');
}

type Json = Record<string, unknown>;

/** Reads a client's JSON settings file ({} when absent); anything but a JSON object is a usage error. */
export function readSettings(file: string): Json {
  if (!existsSync(file)) return {};
  let parsed: unknown;
  // (never blocks on a FIFO put where a settings file goes: src/util/safe-read.ts)
  const read = readRegularFile(file);
  if (!read.ok) throw new UsageError(`${read.message}; not changing it`);
  try {
    parsed = JSON.parse(read.text);
  } catch (err) {
    throw new UsageError(`${file}: not valid JSON (${(err as Error).message}); not changing it`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`${file}: the top level is not a JSON object; not changing it`);
  return parsed as Json;
}

/** The script a hook entry runs, in either form: bin/bashguard-hook, bin/bashguard(.js), dist/hook-start.cjs. */
const OUR_SCRIPT = /(^|\/)(bin\/bashguard-hook|bin\/bashguard(\.js)?|dist\/hook-start\.cjs)$/;

/** A client's hook command that runs bashguard's hook, in any form install writes (or wrote). */
export const OUR_COMMAND = /bashguard(\.js)?['"]? hook\b|bashguard-hook\b/;

function isOurs(h: unknown): boolean {
  if (typeof h !== 'object' || h === null || typeof (h as Json).command !== 'string') return false;
  const { command, args } = h as Json;
  if (OUR_COMMAND.test(command as string)) return true;
  // An exec form written by hand: node with our entry and `hook` in its arguments.
  return Array.isArray(args) && args.includes('hook') && args.some((a) => typeof a === 'string' && OUR_SCRIPT.test(a));
}

/** Returns settings with exactly one bashguard hook entry (added or updated). */
export function mergeHook(settings: Json, spec: HookSpec | string): Json {
  const { command, args } = typeof spec === 'string' ? { command: spec, args: undefined } : spec;
  const hooks = (typeof settings.hooks === 'object' && settings.hooks !== null ? { ...(settings.hooks as Json) } : {}) as Json;
  const pre = Array.isArray(hooks.PreToolUse) ? (hooks.PreToolUse as unknown[]) : [];
  const cleaned = removeOurs(pre);
  // onFailure "block": Claude Code blocks the call when the hook crashes or times out, instead of
  // running the tool (its default for a failing hook).
  cleaned.push({ matcher: MATCHER, hooks: [{ type: 'command', command, ...(args ? { args } : {}), timeout: 30, onFailure: 'block' }] });
  hooks.PreToolUse = cleaned;
  return { ...settings, hooks };
}

function removeOurs(pre: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const entry of pre) {
    if (typeof entry !== 'object' || entry === null || !Array.isArray((entry as Json).hooks)) {
      out.push(entry);
      continue;
    }
    const rest = ((entry as Json).hooks as unknown[]).filter((h) => !isOurs(h));
    if (rest.length > 0) out.push({ ...(entry as Json), hooks: rest });
  }
  return out;
}

export function removeHook(settings: Json): Json {
  if (typeof settings.hooks !== 'object' || settings.hooks === null) return settings;
  const hooks = { ...(settings.hooks as Json) };
  if (Array.isArray(hooks.PreToolUse)) {
    const left = removeOurs(hooks.PreToolUse as unknown[]);
    if (left.length > 0) hooks.PreToolUse = left;
    else delete hooks.PreToolUse;
  }
  const out = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete (out as Json).hooks;
  return out;
}

/**
 * Writes settings atomically. A symlinked settings file (dotfiles managers) stays a symlink: the
 * write goes to its target. The file keeps its mode.
 */
export function writeSettings(file: string, settings: Json): void {
  let target = file;
  try {
    if (lstatSync(file).isSymbolicLink()) target = realpathSync(file);
  } catch {
    // no file yet, or a dangling link: write where it points (or create the file)
  }
  let mode: number | null = null;
  try {
    mode = statSync(target).mode & 0o7777;
  } catch {
    // new file
  }
  writeAtomically(target, JSON.stringify(settings, null, 2) + '\n', mode);
}

/** Writes `text` to `file` through a temporary file and a rename, with `mode` (null: the default). */
function writeAtomically(file: string, text: string, mode: number | null): void {
  const tmp = `${file}.bashguard-${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(tmp, text, mode === null ? {} : { mode });
    if (mode !== null) chmodSync(tmp, mode); // (writeFileSync's mode passes through the umask.)
    renameSync(tmp, file);
  } catch (err) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // never written: the directory is not ours
    }
    const denied = ['EACCES', 'EPERM', 'EROFS'].includes((err as NodeJS.ErrnoException).code ?? '');
    // (The errno code stays on it for callers that word it themselves: writeExecForm.)
    throw Object.assign(new UsageError(`cannot write ${file}: ${errnoText(err)}${denied ? ' (run as a user who may write it: root for --managed)' : ''}`), { code: (err as NodeJS.ErrnoException).code });
  }
}

/**
 * The linked worktrees a project-level install in `dir` does not reach: Claude Code reads the
 * project settings of the checkout a session runs in, and every linked worktree is a checkout of
 * its own (`.claude/worktrees/<name>`, `.builders/<id>` ...).
 */
export function worktreesNotReached(dir: string): string[] {
  const found = discoverLayout(dir);
  if (!found.ok) return [];
  const l = found.layout;
  const all = [l.current, l.main, ...l.siblings].filter((c) => c && c.kind === 'linked-worktree' && c.root) as { root: string }[];
  const here = l.current.root;
  return [...new Set(all.map((c) => c.root))].filter((r) => r !== here).sort();
}

export function runInstall(io: IO, opts: InstallOptions): number {
  if (opts.enforce === 'client' && opts.scope === 'project')
    throw new UsageError("--enforce client goes with --user or --managed: the project settings are the agent's checkout's, and Claude Code lets them turn its sandbox off");
  const file = settingsPath(io, opts.scope, opts.managedPath);
  const before = readSettings(file);
  let { spec, why } = chooseClaudeForm(io, opts.hookForm);
  // Managed: the launcher beside the managed settings, not in ~/.claude/hooks, which the agent's
  // user can write (a launcher there could be replaced, and the managed entry would run it).
  if (opts.scope === 'managed' && spec.args) spec = { ...spec, command: join(dirname(file), basename(spec.command)) };
  if (spec.args && !opts.dryRun) {
    // The launcher the exec form runs, written (again) before the settings name it.
    const failed = writeExecForm(spec.command);
    if (failed !== null) {
      if (opts.hookForm === 'direct') throw new UsageError(`--hook-form direct: ${failed}`);
      spec = { command: hookCommand() };
      why = `shell form: ${failed}`;
    }
  }
  let after = mergeHook(before, spec);
  if (opts.scope === 'managed' && opts.managedHooksOnly) after.allowManagedHooksOnly = true;
  let sandboxAdded: SandboxAdded | null = null;
  if (opts.enforce === 'client') ({ settings: after, added: sandboxAdded } = mergeSandbox(after, io.env, opts.scope === 'managed' ? 'managed' : 'user'));
  if (opts.dryRun) {
    io.stdout(JSON.stringify(after, null, 2) + '\n');
    return 0;
  }
  const hookChanged = JSON.stringify(removeSandboxKey(before)) !== JSON.stringify(removeSandboxKey(after));
  if (JSON.stringify(before) === JSON.stringify(after)) io.stdout(`bashguard hook already installed in ${file} (${why})\n`);
  else {
    writeSettings(file, after);
    if (hookChanged) io.stdout(`${describeInstall(before, spec)} in ${file} (matcher ${MATCHER}; ${why})\n`);
    else io.stdout(`bashguard hook already installed in ${file} (${why})\n`);
  }
  if (sandboxAdded) {
    const n = Object.keys(sandboxAdded.scalars).length + sandboxAdded.denyWrite.length + sandboxAdded.allowWrite.length + sandboxAdded.allowedDomains.length;
    io.stdout(`${n ? `added ${n} sandbox setting(s) to ${file}` : `the sandbox settings were already in ${file}`}\n`);
    for (const l of [...recordSandboxInstall(io.env, file, sandboxAdded), ...sandboxNotes(opts.scope === 'managed' ? 'managed' : 'user')]) io.stdout(`${l}\n`);
  }
  if (JSON.stringify(before) === JSON.stringify(after)) {
    if (opts.scope === 'project') reportNotReached(io);
    reportEnforcement(io);
    return 0;
  }
  if (opts.scope === 'project') reportNotReached(io);
  reportEnforcement(io);
  return 0;
}

function removeSandboxKey(settings: Json): Json {
  const { sandbox: _s, ...rest } = settings;
  return rest;
}

/** Our hook commands in PreToolUse, in order, with the matcher of their entry. */
function ourHooks(settings: Json): { matcher: unknown; command: string; hook: Json }[] {
  const hooks = settings.hooks as Json | undefined;
  const pre = hooks && Array.isArray(hooks.PreToolUse) ? (hooks.PreToolUse as unknown[]) : [];
  const out: { matcher: unknown; command: string; hook: Json }[] = [];
  for (const entry of pre) {
    if (typeof entry !== 'object' || entry === null || !Array.isArray((entry as Json).hooks)) continue;
    for (const h of (entry as Json).hooks as unknown[]) if (isOurs(h)) out.push({ matcher: (entry as Json).matcher, command: (h as Json).command as string, hook: h as Json });
  }
  return out;
}

/** What install did to settings that it changed: added, updated, merged or only moved the entry. */
function describeInstall(before: Json, spec: HookSpec): string {
  const old = ourHooks(before);
  if (old.length === 0) return 'bashguard hook installed';
  if (old.length > 1) return `replaced ${old.length} bashguard hook entries with one`;
  const o = old[0]!;
  const changed: string[] = [];
  if (o.command !== spec.command) changed.push(`command ${JSON.stringify(o.command)} -> ${JSON.stringify(spec.command)}`);
  if (o.matcher !== MATCHER) changed.push(`matcher ${JSON.stringify(o.matcher ?? null)} -> ${JSON.stringify(MATCHER)}`);
  const wanted = (mergeHook({}, spec) as { hooks: { PreToolUse: [{ hooks: [Json] }] } }).hooks.PreToolUse[0].hooks[0];
  // An entry that had `args` and now has none (or the other way round) says so too.
  if ((o.hook as Json).args !== undefined && wanted.args === undefined) changed.push(`args ${JSON.stringify((o.hook as Json).args)} -> none`);
  for (const [k, v] of Object.entries(wanted)) {
    if (k === 'command' || k === 'type') continue;
    const had = (o.hook as Json)[k];
    if (JSON.stringify(had) !== JSON.stringify(v)) changed.push(`${k} ${JSON.stringify(had ?? null)} -> ${JSON.stringify(v)}`);
  }
  if (changed.length > 0) return `updated the bashguard hook (${changed.join('; ')})`;
  return 'bashguard hook was already installed; moved its entry to its own PreToolUse entry at the end';
}

/**
 * Enforcement is on by default (`"enforce": "auto"` in the trusted config): install says which
 * mechanism will hold the line, or warns that none can here.
 */
function reportEnforcement(io: IO): void {
  try {
    const c = enforcementCheck(io, openWorkspace(io.cwd, { env: io.env }));
    io.stdout(c.ok ? `enforcement: ${c.detail}\n` : `warning: allowed Bash calls are not enforced by the OS: ${c.detail} (bashguard doctor)\n`);
  } catch {
    // an invalid config: doctor says so
  }
}

function reportNotReached(io: IO): void {
  const missed = worktreesNotReached(io.cwd);
  if (missed.length === 0) return;
  io.stdout(
    `note: Claude Code sessions in ${missed.length} linked worktree(s) read their own project settings and are NOT covered by this install:\n` +
      missed.map((m) => `  ${m}\n`).join('') +
      'For orchestrated worktrees install at user level instead: bashguard install --user\n',
  );
}

export function runUninstall(io: IO, opts: InstallOptions): number {
  const file = settingsPath(io, opts.scope, opts.managedPath);
  if (!existsSync(file)) {
    io.stdout(`no settings at ${file}; nothing to remove\n`);
    return 0;
  }
  const before = readSettings(file);
  let after = removeHook(before);
  // What `install --enforce client` added to this file, and only that (./client-sandbox.ts).
  const sandbox = sandboxUninstall(io.env, file, after);
  if (sandbox) after = sandbox.settings;
  if (opts.dryRun) {
    io.stdout(JSON.stringify(after, null, 2) + '\n');
    return 0;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) {
    io.stdout(`bashguard hook was not installed in ${file}\n`);
    for (const l of sandbox?.done() ?? []) io.stdout(`${l}\n`);
    return 0;
  }
  const launcher = ourHooks(before).map((h) => h.command).find((c) => readExecForm(c) !== null);
  if (Object.keys(after).length === 0 && !lstatSync(file).isSymbolicLink()) {
    // Nothing left but what install added: no empty settings file, no empty .claude/ behind.
    rmSync(file, { force: true });
    removeIfEmpty(dirname(file));
    io.stdout(`bashguard hook removed; ${file} held nothing else and was deleted\n`);
  } else {
    writeSettings(file, after);
    io.stdout(`bashguard hook removed from ${file}\n`);
  }
  for (const l of sandbox?.done() ?? []) io.stdout(`${l}\n`);
  if (launcher) removeLauncherIfUnused(io, launcher);
  return 0;
}

function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty (or already gone)
  }
}

/**
 * The exec form's launcher, once no settings file Claude Code reads here (user, this checkout's
 * project and local) names it. A project elsewhere that still names it gets its hook back with
 * `bashguard install` there; until then Claude Code blocks its calls (`onFailure`), it never
 * runs them unchecked.
 */
function removeLauncherIfUnused(io: IO, launcher: string): void {
  const found = discoverLayout(io.cwd);
  const root = found.ok && found.layout.current.root ? found.layout.current.root : io.cwd;
  const files = [join(root, '.claude', 'settings.json'), join(root, '.claude', 'settings.local.json')];
  try {
    files.push(settingsPath(io, 'user'));
  } catch {
    // no HOME
  }
  for (const f of files) {
    try {
      if (readFileSync(f, 'utf8').includes(launcher)) return;
    } catch {
      // absent
    }
  }
  rmSync(launcher, { force: true });
  removeIfEmpty(dirname(launcher));
  removeIfEmpty(dirname(dirname(launcher)));
  io.stdout(`removed the hook's launcher ${launcher} (no settings here names it any more)\n`);
}

export interface Check {
  ok: boolean;
  label: string;
  detail: string;
}

/** One settings layer Claude Code reads for a session in some directory. */
export interface ClaudeLayer {
  scope: 'managed' | 'user' | 'project' | 'local';
  file: string;
}

/** The settings layers Claude Code reads for a session started in `dir`, lowest precedence first. */
export function claudeSettingsLayers(io: Pick<IO, 'env'>, dir: string): ClaudeLayer[] {
  const layers: ClaudeLayer[] = [];
  const user = io.env.CLAUDE_CONFIG_DIR?.startsWith('/') ? join(io.env.CLAUDE_CONFIG_DIR, 'settings.json') : io.env.HOME ? join(io.env.HOME, '.claude', 'settings.json') : null;
  if (user) layers.push({ scope: 'user', file: user });
  const found = discoverLayout(dir);
  const root = found.ok && found.layout.current.root ? found.layout.current.root : dir;
  layers.push({ scope: 'project', file: join(root, '.claude', 'settings.json') });
  layers.push({ scope: 'local', file: join(root, '.claude', 'settings.local.json') });
  layers.push({ scope: 'managed', file: managedSettingsFile(io.env) });
  return layers;
}

/**
 * Environment variables the hook reads or that change what its node runs: set by a settings
 * layer's `env`, they reach the hook as they reach every command (Claude Code applies `env` to its
 * own process), so a layer the agent could write could move the guard's config, log, scratch
 * dirs, the repository git acts on, or load code into the hook.
 */
const HOOK_ENV = /^(BASHGUARD_\w*|XDG_(CONFIG|STATE|CACHE|DATA)_HOME|HOME|TMPDIR|CLAUDE_CONFIG_DIR|GIT_\w+|NODE_OPTIONS|NODE_PATH|LD_PRELOAD|LD_LIBRARY_PATH|DYLD_\w+)$/;

/**
 * What a lower settings layer (user, project, local) does to the guard: disables hooks, sets
 * environment the hook reads, or turns the sandbox off. One line per layer, or null.
 */
export function layerLoosens(s: Record<string, unknown>, scope: 'user' | 'project' | 'local' = 'user'): string | null {
  const what: string[] = [];
  if (s.disableAllHooks === true) what.push('disableAllHooks');
  const env = s.env;
  if (env && typeof env === 'object' && !Array.isArray(env)) {
    const keys = Object.keys(env).filter((k) => HOOK_ENV.test(k));
    if (keys.length) what.push(`env ${keys.join(', ')} (read by the hook)`);
  }
  const sandbox = s.sandbox;
  if (sandbox && typeof sandbox === 'object' && !Array.isArray(sandbox)) {
    const sb = sandbox as Record<string, unknown>;
    if (sb.enabled === false) what.push('sandbox.enabled: false');
    if (sb.allowUnsandboxedCommands === true) what.push('sandbox.allowUnsandboxedCommands: true');
    // From a project layer these widen Claude Code's sandbox unless managed settings hold it
    // (./client-sandbox.ts): more writable paths, commands run outside it, no file system rules.
    const fsx = sb.filesystem as Record<string, unknown> | undefined;
    if (scope !== 'user') {
      if (Array.isArray(fsx?.allowWrite) && fsx.allowWrite.length) what.push('sandbox.filesystem.allowWrite');
      if (fsx?.disabled === true) what.push('sandbox.filesystem.disabled: true');
      if (Array.isArray(sb.excludedCommands) && sb.excludedCommands.length) what.push('sandbox.excludedCommands');
    }
  }
  return what.length ? what.join('; ') : null;
}

/**
 * doctor's view of the Claude Code settings a session in io.cwd reads: each layer's bashguard
 * entry (and its problems), and one verdict that fails when no bashguard hook is effective there
 * (none installed in any layer, `disableAllHooks` in a layer, or managed `allowManagedHooksOnly`
 * without ours in the managed file).
 */
export function claudeSettingsChecks(io: IO): Check[] {
  const checks: Check[] = [];
  let effective = 0;
  const disabledBy: string[] = [];
  let managedOnly = false;
  let managedHasOurs = false;
  for (const { scope, file } of claudeSettingsLayers(io, io.cwd)) {
    if (!existsSync(file)) {
      checks.push({ ok: true, label: `${scope} settings`, detail: `${file}: not present` });
      continue;
    }
    let s: Json;
    try {
      s = readSettings(file);
    } catch (err) {
      checks.push({ ok: false, label: `${scope} settings`, detail: (err as Error).message });
      continue;
    }
    if (s.disableAllHooks === true) disabledBy.push(file);
    if (scope === 'managed' && s.allowManagedHooksOnly === true) managedOnly = true;
    if (scope !== 'managed') {
      const loosens = layerLoosens(s, scope);
      if (loosens) checks.push({ ok: false, label: `${scope} settings`, detail: `${file} loosens the guard: ${loosens} (set these only in the managed settings or the orchestrator's environment)` });
    }
    const pre = ((s.hooks as Json | undefined)?.PreToolUse ?? []) as Json[];
    const ours = (Array.isArray(pre) ? pre : []).flatMap((e) => (Array.isArray(e?.hooks) ? (e.hooks as Json[]) : []).filter(isOurs).map((h) => ({ matcher: e.matcher, command: h.command as string, args: h.args, onFailure: h.onFailure })));
    if (ours.length === 0) {
      checks.push({ ok: true, label: `${scope} settings`, detail: `${file}: bashguard not installed${s.disableAllHooks === true ? '; disableAllHooks is set' : ''}` });
      continue;
    }
    const problems: string[] = [];
    if (ours.length > 1) problems.push(`${ours.length} entries (expected 1)`);
    for (const o of ours) {
      if (typeof o.matcher !== 'string' || !['Bash', 'Edit', 'Write'].every((t) => (o.matcher as string).includes(t))) problems.push(`matcher ${String(o.matcher)} misses Bash, Edit or Write`);
      if (Array.isArray(o.args)) {
        problems.push(...execFormProblems(o.command, o.args as unknown[], o.onFailure, io));
        continue;
      }
      // The words of either form hookCommand writes (`set -- <script>; ...` ends a word with `;`).
      const parts = (o.command.match(/(?:[^\s';]+|'[^']*')+/g) ?? []).map((p) => p.replace(/'\\''/g, "'").replace(/'/g, ''));
      const script = parts.find((p) => /bashguard(-hook|\.js)$/.test(p));
      if (script && !existsSync(script)) problems.push(`command points at ${script}, which does not exist`);
      const node = parts.find((p) => p.startsWith('BASHGUARD_NODE='))?.slice('BASHGUARD_NODE='.length);
      if (node && !existsSync(node)) problems.push(`BASHGUARD_NODE=${node} does not exist`);
    }
    if (problems.length === 0) {
      effective++;
      if (scope === 'managed') managedHasOurs = true;
    }
    const noBlock = ours.some((o) => o.onFailure !== 'block') ? ' (without "onFailure": "block": a crash or time-out runs the tool; run `bashguard install` again)' : '';
    checks.push({ ok: problems.length === 0, label: `${scope} settings`, detail: `${file}: ${problems.length ? problems.join('; ') : 'installed'}${noBlock}` });
  }
  let verdict: Check;
  if (disabledBy.length > 0) verdict = { ok: false, label: 'hook effective', detail: `no: disableAllHooks is set in ${disabledBy.join(', ')}` };
  else if (managedOnly && !managedHasOurs) verdict = { ok: false, label: 'hook effective', detail: 'no: the managed settings allow only managed hooks, and bashguard is not among them' };
  else if (effective === 0) verdict = { ok: false, label: 'hook effective', detail: `no: no Claude Code settings layer read in ${io.cwd} has a working bashguard hook (run \`bashguard install --user\`)` };
  else verdict = { ok: true, label: 'hook effective', detail: `yes, for Claude Code sessions in ${io.cwd}` };
  checks.push(verdict);
  return checks;
}

/**
 * What is wrong with an exec-form entry (HookSpec): its node or entry gone, no `"onFailure":
 * "block"` while it runs unsupervised, or a Claude Code on PATH too old for the form.
 */
function execFormProblems(command: string, args: unknown[], onFailure: unknown, io: Pick<IO, 'env'>): string[] {
  const problems: string[] = [];
  try {
    accessSync(command, constants.X_OK);
  } catch {
    problems.push(`command ${command} is not an executable that exists`);
  }
  // The launcher (or node with the entry in its args, an exec form written by hand).
  const launcher = problems.length === 0 ? readExecForm(command) : null;
  if (launcher) {
    try {
      accessSync(launcher.node, constants.X_OK);
    } catch {
      problems.push(`${command} runs ${launcher.node}, which is not an executable that exists`);
    }
    if (!existsSync(launcher.start)) problems.push(`${command} starts ${launcher.start}, which does not exist`);
  }
  const script = args.find((a): a is string => typeof a === 'string' && OUR_SCRIPT.test(a));
  if (script && !existsSync(script)) problems.push(`args name ${script}, which does not exist`);
  if (problems.length === 0) {
    // Run it as the client does, on a call it has nothing to say about (a tool it does not guard).
    const event = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: '/dev/null' }, cwd: '/' });
    const r = spawnSync(command, args.filter((a): a is string => typeof a === 'string'), { input: event, env: io.env, encoding: 'utf8', timeout: 30_000 });
    if (r.status !== 0 || r.stdout !== '') problems.push(`${command} did not run the hook (${r.error ? r.error.message : `exit ${r.status ?? r.signal}`}${r.stderr ? `: ${r.stderr.split('\n')[0]}` : ''})`);
  }
  if (onFailure !== 'block') problems.push('runs without its supervisor and without "onFailure": "block" (a crash would run the tool)');
  const claude = claudeOnPath(io.env);
  if (claude?.version && !versionAtLeast(claude.version, CLAUDE_ON_FAILURE_SINCE)) {
    problems.push(`the exec form needs Claude Code ${CLAUDE_ON_FAILURE_SINCE} or later, and ${claude.path} is ${claude.version}, which ignores "onFailure" (a crash of the hook would run the tool): run \`bashguard install\` again for the shell form`);
  }
  return problems;
}

/** Which OS mechanism enforces the allowed Bash calls of a session here (src/layers/sandbox/enforce.ts); FAIL when none does. */
export function enforcementCheck(io: IO, ws: ReturnType<typeof openWorkspace>): Check {
  const layers = [...claudeSettingsLayers(io, io.cwd).filter((l) => l.scope === 'user' || l.scope === 'managed'), { scope: 'managed' as const, file: managedSettingsFile(io.env) }];
  const settings = layers.filter((l, i) => existsSync(l.file) && layers.findIndex((k) => k.file === l.file) === i).map(({ file, scope: s }) => {
    const scope = s === 'managed' ? ('managed' as const) : ('user' as const);
    try {
      return { file, scope, settings: readSettings(file) as unknown };
    } catch {
      return { file, scope, settings: null };
    }
  });
  const s = enforcementStatus(ws, io.env, settings);
  return { ok: s.ok, label: 'enforcement', detail: s.detail };
}
