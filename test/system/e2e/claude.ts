/**
 * Install and drive the REAL Claude Code client for end-to-end tests, fully
 * offline, against the scripted API in ./fake-anthropic.ts.
 *
 * What we learned by experiment with @anthropic-ai/claude-code 2.1.330
 * (Linux x64, Node 20, running as root, no network but loopback):
 *
 * Install
 * - The npm package is a thin wrapper: `bin/claude.exe` is a placeholder that the
 *   postinstall (install.cjs) replaces (hard link / copy) with the ~380 MB native
 *   binary from the optional dependency `@anthropic-ai/claude-code-<platform>`.
 *   The binary is self-contained, so the package's `engines: node >=22` only
 *   produces an EBADENGINE warning on Node 20 and does not matter. npm 11 prints
 *   "install scripts not yet covered by allowScripts" but did run the postinstall.
 *   We do not rely on it: `resolveClaudeBinary` also looks for the platform
 *   package's binary directly, and checks `--version`.
 * - Install takes ~7 s from the registry; we install OUTSIDE the repo's
 *   dependencies, into `$BASHGUARD_E2E_CACHE` (default `os.tmpdir()/bashguard-e2e-claude`)
 *   `/<version>`, into a temp dir first and then rename, so concurrent installs
 *   cannot leave a half-installed cache.
 *
 * Running offline
 * - `claude -p "go" --output-format stream-json --verbose` with
 *   `ANTHROPIC_BASE_URL=http://127.0.0.1:PORT`, `ANTHROPIC_API_KEY=sk-test` and a
 *   brand-new empty `HOME` just works: no `~/.claude.json` onboarding flags, no
 *   login, no trust dialog (the workspace trust dialog is skipped in -p mode, as
 *   `claude --help` says). The client creates `~/.claude.json` and `~/.claude/` itself.
 * - All API calls go to `POST /v1/messages?beta=true`, streaming. With -p there
 *   were no side requests at all (no title generation, no quota check, no
 *   count_tokens): exactly one request per agent turn.
 * - With `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1` an `strace -f -e connect`
 *   of a whole run showed a single non-unix-socket connect(): to 127.0.0.1:PORT.
 *   We also set DISABLE_AUTOUPDATER/DISABLE_TELEMETRY/DISABLE_ERROR_REPORTING
 *   and pass no proxy variables, and build the child's environment from scratch
 *   (nothing from the parent's env leaks in except PATH and LANG), so a
 *   developer's real credentials or a parent Claude Code session's variables
 *   never reach the client.
 * - The model name in requests defaults to the client's default model; the fake
 *   server echoes whatever it gets.
 *
 * Permissions
 * - Default mode + `--allowedTools "Bash Edit Write Read"`: every call of those
 *   tools is accepted by "config rule", also for paths OUTSIDE the cwd (e.g. a
 *   Write to `<main>/written.txt` from the worktree). `Read` of a file outside the
 *   cwd is rejected ("Claude requested permissions to read from ..., but you
 *   haven't granted it yet") unless `Read` is allowed, and Edit requires a prior
 *   Read of the same file ("File has not been read yet"), so we allow Read too.
 *   Without any hook, all the escapes in the e2e script succeed in default mode
 *   (the client itself does not confine Bash/Write to the worktree), so any
 *   denial we observe comes from the hook.
 * - `--dangerously-skip-permissions` (= `--permission-mode bypassPermissions`)
 *   refuses to start as root ("cannot be used with root/sudo privileges for
 *   security reasons", exit 1) unless `IS_SANDBOX=1` is set. PreToolUse hook
 *   denials still apply in bypass mode.
 *
 * Hooks in -p mode
 * - PreToolUse hooks from `<cwd>/.claude/settings.json` run in -p mode (no trust
 *   prompt needed). The hook gets JSON on stdin:
 *   `{session_id, transcript_path, cwd, prompt_id, permission_mode, effort,
 *     hook_event_name:"PreToolUse", tool_name, tool_input, tool_use_id}`.
 * - A denial (stdout `{"hookSpecificOutput":{"hookEventName":"PreToolUse",
 *   "permissionDecision":"deny","permissionDecisionReason":R}}`, exit 0) shows
 *   up in stream-json as a `user` message whose `tool_result` block has
 *   `is_error: true` and content `"PreToolUse:<Tool> hook error: R"`; the same
 *   message has `tool_use_result: "Error: PreToolUse:<Tool> hook error: R"` and
 *   `tool_result_meta: [{id, non_execution_kind: "permission-rule",
 *   permission_decision: {decision: "reject", source: "hook", reason_type: "hook"}}]`.
 *   The final `result` event lists it in `permission_denials: [{tool_name,
 *   tool_use_id, tool_input}]`. Allowed calls have
 *   `permission_decision: {decision: "accept", source: "config", reason_type: "rule"|"mode"}`.
 * - Exit code 2 with a message on stderr also denies: content
 *   `"PreToolUse:<Tool> hook error: [<hook command>]: <stderr>"`.
 * - FAIL-OPEN: a hook that exits 1 (crash) or prints non-JSON with exit 0 does
 *   NOT block; the tool runs. So the e2e test also checks hook health.
 * - `--include-hook-events` adds `system` events `hook_started` /
 *   `hook_response` (`hook_name: "PreToolUse:Bash"`, `exit_code`, `stdout`,
 *   `stderr`, `outcome: "success"|"error"`), in order, before the tool's result.
 * - After a Bash command `cd`s out of the project, the tool result reads
 *   "Shell cwd was reset to <cwd>" (the command itself did run).
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promoteStaging } from '../../helpers/staged-install.js';

/** The Claude Code version this harness is tested with. Bump deliberately. */
export const CLAUDE_CODE_VERSION = '2.1.330';
const PKG = '@anthropic-ai/claude-code';

export function claudeCacheRoot(): string {
  return process.env.BASHGUARD_E2E_CACHE || join(tmpdir(), 'bashguard-e2e-claude');
}

function platformPackage(): string {
  let key = `${process.platform}-${process.arch}`;
  if (process.platform === 'linux') {
    const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
    if (report && report.header?.glibcVersionRuntime === undefined) key += '-musl';
  }
  return `${PKG}-${key}`;
}

function versionOf(bin: string): string | undefined {
  try {
    return execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** Finds a working `claude` binary of `version` in an install prefix, or undefined. */
export function resolveClaudeBinary(prefix: string, version = CLAUDE_CODE_VERSION): string | undefined {
  const nm = join(prefix, 'node_modules');
  const candidates = [
    // Replaced by the native binary by the postinstall (name is claude.exe on every OS).
    join(nm, PKG, 'bin', 'claude.exe'),
    // The native binary itself, in case the postinstall did not run.
    join(nm, platformPackage(), process.platform === 'win32' ? 'claude.exe' : 'claude'),
  ];
  for (const c of candidates) {
    if (existsSync(c) && versionOf(c)?.startsWith(version)) return c;
  }
  return undefined;
}

function run(cmd: string, args: string[], opts: { cwd?: string; timeoutMs: number }): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => killTree(child.pid), opts.timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

function killTree(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/**
 * Ensures Claude Code `version` is installed in the cache and returns the path
 * of its native binary. Installs with
 * `npm install --prefix <tmp> @anthropic-ai/claude-code@<version>` when missing.
 */
export async function ensureClaude(version = CLAUDE_CODE_VERSION, timeoutMs = 240_000): Promise<string> {
  const root = claudeCacheRoot();
  const prefix = join(root, version);
  const cached = resolveClaudeBinary(prefix, version);
  if (cached) return cached;

  mkdirSync(root, { recursive: true });
  const staging = mkdtempSync(join(root, `.staging-${version}-`));
  try {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const { code, output } = await run(
      npm,
      [
        'install',
        '--prefix',
        staging,
        '--no-audit',
        '--no-fund',
        '--no-save',
        '--include=optional',
        '--engine-strict=false',
        `${PKG}@${version}`,
      ],
      { timeoutMs },
    );
    if (code !== 0) throw new Error(`npm install ${PKG}@${version} failed (exit ${code}):\n${output}`);
    if (!resolveClaudeBinary(staging, version)) {
      throw new Error(`installed ${PKG}@${version} but found no working binary under ${staging}:\n${output}`);
    }
    // Another process may have finished the same install meanwhile: keep a working one.
    promoteStaging(staging, prefix, (dir) => resolveClaudeBinary(dir, version) !== undefined);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const bin = resolveClaudeBinary(prefix, version);
  if (!bin) throw new Error(`no working claude ${version} in ${prefix}`);
  return bin;
}

/**
 * A fresh, empty HOME for one client run. Holds only a `.gitconfig` with an
 * identity, so that `git commit` run BY THE AGENT works (the client passes HOME
 * through to its Bash tool), and `tmp/`, used as the client's TMPDIR so that
 * its scratch files (shell snapshots, sockets) go away with the HOME. `base`: where it goes
 * (default the temp dir).
 */
export function makeHome(prefix = 'bashguard-e2e-home-', base = tmpdir()): string {
  const home = mkdtempSync(join(base, prefix));
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = agent\n\temail = agent@example.invalid\n');
  mkdirSync(join(home, 'tmp'));
  return home;
}

export type PermissionMode = 'default' | 'acceptEdits' | 'bypassPermissions' | 'dontAsk' | 'plan';

export interface RunClaudeOptions {
  bin: string;
  /** Working directory of the agent (the worktree). */
  cwd: string;
  /** http://127.0.0.1:PORT of the fake API. */
  baseUrl: string;
  /** Temporary HOME (see makeHome). */
  home: string;
  prompt?: string;
  allowedTools?: string[];
  permissionMode?: PermissionMode;
  extraArgs?: string[];
  /** Extra environment for the client (and so for hooks and the agent's shell). */
  env?: Record<string, string>;
  timeoutMs?: number;
}

export type StreamEvent = Record<string, unknown> & { type?: string; subtype?: string };

export interface ToolCallOutcome {
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** Present once the client reported a tool_result for it. */
  result?: {
    isError: boolean;
    /** tool_result content flattened to text. */
    text: string;
    /** `tool_result_meta[].permission_decision` if the client sent one. */
    decision?: { decision?: string; source?: string; reason_type?: string };
    /** True when the client says a hook rejected the call. */
    deniedByHook: boolean;
  };
}

export interface HookEvent {
  subtype: 'hook_started' | 'hook_response';
  hookName: string;
  hookEvent?: string;
  exitCode?: number;
  outcome?: string;
  stdout?: string;
  stderr?: string;
}

export interface ClaudeRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  /** Every JSON line of stdout (non-JSON lines are kept as {type:'unparsed', line}). */
  events: StreamEvent[];
  /** Tool calls in the order the model made them, with their outcome. */
  toolCalls: ToolCallOutcome[];
  /** hook_started/hook_response system events (we always pass --include-hook-events). */
  hookEvents: HookEvent[];
  /** The final `result` event, if any. */
  result?: StreamEvent;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function flatten(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b) => (isObj(b) && typeof b.text === 'string' ? b.text : JSON.stringify(b))).join('\n');
  return content === undefined ? '' : JSON.stringify(content);
}

/** Parses `--output-format stream-json --verbose` output. Exported for unit use. */
export function parseStreamJson(stdout: string): Pick<ClaudeRun, 'events' | 'toolCalls' | 'hookEvents' | 'result'> {
  const events: StreamEvent[] = [];
  const calls = new Map<string, ToolCallOutcome>();
  const hookEvents: HookEvent[] = [];
  let result: StreamEvent | undefined;
  for (const line of stdout.split('\n')) {
    if (!line.trim()) continue;
    let ev: StreamEvent;
    try {
      const parsed: unknown = JSON.parse(line);
      ev = isObj(parsed) ? (parsed as StreamEvent) : { type: 'unparsed', line };
    } catch {
      ev = { type: 'unparsed', line };
    }
    events.push(ev);
    const message = isObj(ev.message) ? ev.message : undefined;
    const blocks = message && Array.isArray(message.content) ? message.content.filter(isObj) : [];
    if (ev.type === 'assistant') {
      for (const b of blocks) {
        if (b.type === 'tool_use' && typeof b.id === 'string') {
          calls.set(b.id, { id: b.id, name: String(b.name), input: isObj(b.input) ? b.input : {} });
        }
      }
    } else if (ev.type === 'user') {
      const metas = Array.isArray(ev.tool_result_meta) ? ev.tool_result_meta.filter(isObj) : [];
      for (const b of blocks) {
        if (b.type !== 'tool_result' || typeof b.tool_use_id !== 'string') continue;
        const meta = metas.find((m) => m.id === b.tool_use_id);
        const d =
          meta && isObj(meta.permission_decision)
            ? (meta.permission_decision as { decision?: string; source?: string; reason_type?: string })
            : undefined;
        const text = flatten(b.content);
        const call = calls.get(b.tool_use_id) ?? { id: b.tool_use_id, name: '?', input: {} };
        call.result = {
          isError: b.is_error === true,
          text,
          ...(d ? { decision: d } : {}),
          deniedByHook:
            (d?.decision === 'reject' && d.source === 'hook') || (b.is_error === true && /^PreToolUse:\S+ hook error:/.test(text)),
        };
        calls.set(b.tool_use_id, call);
      }
    } else if (ev.type === 'system' && (ev.subtype === 'hook_started' || ev.subtype === 'hook_response')) {
      hookEvents.push({
        subtype: ev.subtype,
        hookName: String(ev.hook_name ?? ''),
        ...(typeof ev.hook_event === 'string' ? { hookEvent: ev.hook_event } : {}),
        ...(typeof ev.exit_code === 'number' ? { exitCode: ev.exit_code } : {}),
        ...(typeof ev.outcome === 'string' ? { outcome: ev.outcome } : {}),
        ...(typeof ev.stdout === 'string' ? { stdout: ev.stdout } : {}),
        ...(typeof ev.stderr === 'string' ? { stderr: ev.stderr } : {}),
      });
    } else if (ev.type === 'result') {
      result = ev;
    }
  }
  return { events, toolCalls: [...calls.values()], hookEvents, ...(result ? { result } : {}) };
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/**
 * The client's whole environment. Built from scratch on purpose: only PATH and
 * the locale come from the parent; TMPDIR is <home>/tmp.
 */
export function claudeEnv(opts: Pick<RunClaudeOptions, 'baseUrl' | 'home' | 'permissionMode' | 'env'>): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: opts.home,
    LANG: process.env.LANG ?? 'C.UTF-8',
    ANTHROPIC_BASE_URL: opts.baseUrl,
    ANTHROPIC_API_KEY: 'sk-test',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    NO_PROXY: '127.0.0.1,localhost',
    // Keep the machine's /etc/gitconfig out of the agent's git.
    GIT_CONFIG_NOSYSTEM: '1',
  };
  env.TMPDIR = join(opts.home, 'tmp');
  // bypassPermissions refuses to run as root unless the client is told it is sandboxed.
  if (opts.permissionMode === 'bypassPermissions' && isRoot()) env.IS_SANDBOX = '1';
  return { ...env, ...(opts.env ?? {}) };
}

export function claudeArgs(opts: Pick<RunClaudeOptions, 'prompt' | 'allowedTools' | 'permissionMode' | 'extraArgs'>): string[] {
  const args = ['-p', opts.prompt ?? 'go', '--output-format', 'stream-json', '--verbose', '--include-hook-events'];
  if (opts.allowedTools?.length) args.push('--allowedTools', opts.allowedTools.join(' '));
  if (opts.permissionMode && opts.permissionMode !== 'default') args.push('--permission-mode', opts.permissionMode);
  args.push(...(opts.extraArgs ?? []));
  return args;
}

/** Runs `claude -p` once, to completion (or timeout), and parses its stream-json. */
export function runClaude(opts: RunClaudeOptions): Promise<ClaudeRun> {
  const timeoutMs = opts.timeoutMs ?? 90_000;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(opts.bin, claudeArgs(opts), {
      cwd: opts.cwd,
      env: claudeEnv(opts),
      stdio: ['ignore', 'pipe', 'pipe'],
      // Own process group, so a timeout kills the agent's shells too.
      detached: process.platform !== 'win32',
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      timedOut = true;
      killTree(child.pid);
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      resolve({
        exitCode,
        signal,
        timedOut,
        durationMs: Date.now() - started,
        stdout,
        stderr,
        ...parseStreamJson(stdout),
      });
    });
  });
}

/** Human-readable digest of a run, for assertion messages. */
export function describeRun(run: ClaudeRun): string {
  const lines = [`exit=${run.exitCode} signal=${run.signal} timedOut=${run.timedOut} ${run.durationMs}ms`];
  for (const c of run.toolCalls) {
    const r = c.result;
    const what = c.name === 'Bash' ? String(c.input.command) : String(c.input.file_path ?? JSON.stringify(c.input));
    lines.push(
      `  ${c.id} ${c.name} ${what}\n     -> ${r ? `${r.deniedByHook ? 'DENIED(hook)' : r.isError ? 'ERROR' : 'ok'}: ${r.text.slice(0, 200).replace(/\n/g, ' | ')}` : '(no result)'}`,
    );
  }
  for (const h of run.hookEvents.filter((h) => h.subtype === 'hook_response' && h.exitCode !== 0)) {
    lines.push(`  hook ${h.hookName} exit=${h.exitCode} outcome=${h.outcome} stderr=${(h.stderr ?? '').slice(0, 200)}`);
  }
  if (run.stderr.trim()) lines.push(`  stderr: ${run.stderr.slice(0, 1000)}`);
  return lines.join('\n');
}

/** Reads a JSON file or returns undefined. */
export function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}
