/**
 * The library's guard: `createGuard({ worktree, env })` binds the workspace (layout discovered
 * once, trusted config loaded once, the env given explicitly: nothing is read from process.env)
 * and answers tool calls with the hook's decision, findings and reason text.
 *
 * Time limit: tree-sitter can run away inside one native parse step on some malformed input
 * (docs/limits.md), where no JavaScript timer runs. So Bash commands are analyzed in a forked
 * analysis process (started on first use, kept for later calls, unref'd while idle) that is
 * SIGKILLed when a decision takes longer than `timeoutMs`; the call is then answered as
 * unanalyzable (ask, or deny with `"unanalyzable": "deny"`) and the next call starts a fresh
 * process. File-tool checks never parse and run in-process, synchronously. `isolation: "none"`
 * analyzes in-process (no limit beyond the analysis budget: only for input you trust not to hang).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { getParser, type BackendChoice, type BashParser } from '../../engine/parse/index.js';
import { openWorkspace, type Workspace } from '../../policy/workspace/index.js';
import type { Env } from '../../policy/workspace/config.js';
import { ConfigError, type Decision } from '../../policy/config.js';
import type { Finding } from '../../policy/policy.js';
import type { Confidence } from '../../engine/effects/confidence.js';
import type { Severity } from '../../policy/rules/catalog.js';
import { displayPath } from '../../engine/shell/paths.js';
import { judgeBash, unfinishedAnswer, writeAnswer } from '../decide.js';
import { PATH_FIELD, parseClaudeShaped } from '../claude-shaped.js';
import type { HookAnswer, ToolCall } from '../tool-call.js';
import { packagePath } from '../../util/package-root.js';
import type { FromChild, ToChild } from './protocol.js';

export interface GuardOptions {
  /** A directory in the agent's worktree (its root or below): the workspace is opened here. */
  worktree: string;
  /**
   * The agent's environment (HOME, TMPDIR, XDG_*, BASHGUARD_CONFIG, GIT_DIR ...): where `~` goes,
   * scratch dirs, which config files are trusted. Required, never read from process.env
   * silently: pass `process.env` yourself if the agent inherits yours.
   */
  env: Env;
  /** Wall-clock limit for one decision, in milliseconds (default 10000, as the installed hook). */
  timeoutMs?: number;
  /** "process" (default): analyze Bash in a child process that is killed at the limit. "none": in-process. */
  isolation?: 'process' | 'none';
  /** Parser backend: "auto" (default: native, WASM if native cannot load), "native" or "wasm". */
  parser?: BackendChoice;
}

/** The library's decisions. (The hook's `sandbox` decision, which rewrites the command, is answered as ask here.) */
export type GuardDecision = 'allow' | 'ask' | 'deny';

export interface GuardEvidence {
  note: string;
  line: number;
  column: number;
}

/** One finding, as the library reports it (paths readable: unknown parts shown as `…`). */
export interface GuardFinding {
  rule: string;
  name: string;
  severity: Severity;
  confidence: Confidence;
  decision: GuardDecision;
  message: string;
  /** The resolved path or repository the finding is about, or null. */
  path: string | null;
  evidence: GuardEvidence[];
}

export interface GuardResult {
  decision: GuardDecision;
  /** The text the hook gives the agent (empty for allow). */
  reason: string;
  findings: GuardFinding[];
}

export interface CheckOptions {
  /** Where the command runs or a relative path is resolved (absolute; default: the guard's worktree). */
  cwd?: string;
}

export interface Guard {
  /** The write root (the worktree's root), or null when not enforcing. */
  readonly root: string | null;
  /** Why nothing is enforced here (a plain checkout, not a checkout), or null. */
  readonly skipped: string | null;
  /** Decides a Bash command. */
  checkBash(command: string, opts?: CheckOptions): Promise<GuardResult>;
  /** Decides a file tool (Edit, Write, MultiEdit, NotebookEdit ...) writing `path`. Never parses: synchronous. */
  checkPath(tool: string, path: string, opts?: CheckOptions): GuardResult;
  /** Decides a Claude Code tool call (`tool_name`, `tool_input`); tools other than Bash and the file tools are allowed. */
  checkToolUse(toolName: string, toolInput: unknown, opts?: CheckOptions): Promise<GuardResult>;
  /** Decides a client-neutral tool call (a shell command, or file writes); its `cwd`, when absolute, is where it runs. */
  checkCall(call: ToolCall): Promise<GuardResult>;
  /** Stops the analysis process (a later check starts a new one). */
  close(): void;
}

const ALLOWED: GuardResult = Object.freeze({ decision: 'allow', reason: '', findings: [] }) as GuardResult;
export const DEFAULT_TIMEOUT_MS = 10_000;
const START_MS = 15_000;

/** Why a `worktree` option was refused. */
export type WorktreeProblem = 'relative' | 'missing' | 'not-a-directory' | 'not-a-git-checkout' | 'bare-repository';

/**
 * `createGuard` (and `bashguardHook`) refused the `worktree` option: a guard over a path that is
 * not the agent's checkout would allow every call. `path` is the option as given, `reason` says
 * why; the message names both.
 */
export class BashguardWorktreeError extends Error {
  override readonly name = 'BashguardWorktreeError';
  constructor(
    readonly path: string,
    readonly reason: WorktreeProblem,
    detail: string,
  ) {
    super(`bashguard: worktree ${JSON.stringify(path)} ${detail}`);
  }
}

/**
 * The guard for one worktree. Throws a BashguardWorktreeError for a `worktree` that is relative,
 * missing, not a directory or not in a git checkout, a ConfigError for an invalid trusted config
 * file, a TypeError for bad options.
 */
export function createGuard(opts: GuardOptions): Guard {
  if (typeof opts !== 'object' || opts === null) throw new TypeError('createGuard: pass an options object { worktree, env }');
  if (typeof opts.worktree !== 'string' || opts.worktree === '') throw new TypeError('createGuard: `worktree` must be a directory path');
  if (typeof opts.env !== 'object' || opts.env === null) throw new TypeError('createGuard: `env` is required (pass process.env if the agent inherits it); it is never read implicitly');
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new TypeError('createGuard: `timeoutMs` must be a positive number');
  const given = opts.worktree;
  // Relative to what? The orchestrator's cwd is not the agent's: the caller must say.
  if (!isAbsolute(given)) throw new BashguardWorktreeError(given, 'relative', 'is a relative path (pass an absolute one: the worktree the agent runs in)');
  const stat = statSync(given, { throwIfNoEntry: false });
  if (!stat) throw new BashguardWorktreeError(given, 'missing', 'does not exist');
  if (!stat.isDirectory()) throw new BashguardWorktreeError(given, 'not-a-directory', 'is not a directory');
  const dir = resolve(given);
  const env = { ...opts.env };
  const ws = openWorkspace(dir, { env });
  if (ws.skipped === 'not inside a git checkout') throw new BashguardWorktreeError(given, 'not-a-git-checkout', 'is not inside a git checkout (no .git found above it, and no trusted config names a write root)');
  if (ws.skipped === 'inside a bare repository') throw new BashguardWorktreeError(given, 'bare-repository', 'is inside a bare repository (no working tree to keep the agent in)');
  const backend = opts.parser ?? 'auto';
  const runner = opts.isolation === 'none' ? new InProcess(ws, backend) : new AnalysisProcess(dir, env, backend);

  const cwdOf = (o?: CheckOptions) => (o?.cwd ? resolve(dir, o.cwd) : dir);
  const checkPath = (tool: string, path: string, o?: CheckOptions): GuardResult => {
    if (ws.skipped) return ALLOWED;
    return publicResult(writeAnswer(ws, tool, [path], cwdOf(o)));
  };
  const checkBash = async (command: string, o?: CheckOptions): Promise<GuardResult> => {
    if (typeof command !== 'string') throw new TypeError('checkBash: `command` must be a string');
    if (ws.skipped) return ALLOWED;
    const answer = await runner.check(command, cwdOf(o), timeoutMs).catch((err: Error) => ({
      decision: ws.config.unanalyzable === 'deny' ? ('deny' as const) : ('ask' as const),
      reason: `bashguard could not analyze this call (${err.message})`,
      findings: [],
    }));
    return publicResult(answer === 'timeout' ? unfinishedAnswer(ws, timeoutMs / 1000) : answer);
  };
  const checkCall = async (call: ToolCall): Promise<GuardResult> => {
    const o = call.cwd ? { cwd: call.cwd } : undefined;
    if (call.kind === 'bash') return checkBash(call.command, call.runIn ? { cwd: call.runIn } : o);
    if (ws.skipped) return ALLOWED;
    return publicResult(writeAnswer(ws, call.tool, call.paths, cwdOf(o)));
  };
  return {
    root: ws.skipped ? null : ws.root,
    skipped: ws.skipped,
    checkBash,
    checkPath,
    checkToolUse(toolName, toolInput, o) {
      const parsed = parseClaudeShaped({ tool_name: toolName, tool_input: toolInput, cwd: cwdOf(o) }, PATH_FIELD, ['Bash']);
      if (parsed.kind === 'ignore') return Promise.resolve(ALLOWED);
      if (parsed.kind === 'drift') return Promise.resolve({ decision: 'deny', reason: parsed.reason, findings: [] });
      return checkCall(parsed.call);
    },
    checkCall,
    close: () => runner.close(),
  };
}

const SANDBOX_NOTE = "\n(bashguard's configuration would run this command in its sandbox; the library does not rewrite commands, so it asks: run it through `bashguard sandbox run`, or confirm it.)";

function publicDecision(d: Decision): GuardDecision {
  return d === 'sandbox' ? 'ask' : d;
}

function publicResult(answer: HookAnswer | null): GuardResult {
  if (!answer) return ALLOWED;
  const reason = displayPath(answer.reason) + (answer.decision === 'sandbox' ? SANDBOX_NOTE : '');
  return { decision: publicDecision(answer.decision), reason, findings: (answer.findings ?? []).map(publicFinding) };
}

/** A finding without internals: no hole markers, no source ranges beyond line/column. */
export function publicFinding(f: Finding): GuardFinding {
  return {
    rule: f.rule,
    name: f.name,
    severity: f.severity,
    confidence: f.confidence,
    decision: publicDecision(f.decision),
    message: displayPath(f.message),
    path: f.path === null ? null : displayPath(f.path),
    evidence: f.evidence.map((e) => ({ note: displayPath(e.note), line: e.range.line, column: e.range.column })),
  };
}

interface Runner {
  check(command: string, cwd: string, timeoutMs: number): Promise<HookAnswer | null | 'timeout'>;
  close(): void;
}

class InProcess implements Runner {
  private parser: Promise<BashParser> | null = null;
  constructor(
    private readonly ws: Workspace,
    private readonly backend: BackendChoice,
  ) {}
  async check(command: string, cwd: string): Promise<HookAnswer | null> {
    const parser = await (this.parser ??= getParser(this.backend));
    return judgeBash(this.ws, parser, command, cwd, this.ws.env);
  }
  close(): void {}
}

/** The analysis child: one at a time, killed at the time limit, restarted on the next call. */
class AnalysisProcess implements Runner {
  private child: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private pending: { id: number; resolve: (v: HookAnswer | null) => void; reject: (e: Error) => void } | null = null;

  constructor(
    private readonly dir: string,
    private readonly env: Env,
    private readonly backend: BackendChoice,
  ) {}

  check(command: string, cwd: string, timeoutMs: number): Promise<HookAnswer | null | 'timeout'> {
    const run = this.queue.then(() => this.runOne(command, cwd, timeoutMs));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private start(): Promise<void> {
    const entry = packagePath('dist', 'guard-child.js');
    if (!existsSync(entry)) return Promise.reject(new Error(`the analysis process ${entry} is missing (run the build)`));
    const child = fork(entry, [], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'advanced', env: {}, execArgv: [] });
    this.child = child;
    const ready = new Promise<void>((res, rej) => {
      child.on('message', (m: FromChild) => {
        if (m.type === 'ready') return res();
        if (m.type === 'init-error') return rej(new Error(m.message));
        const p = this.pending;
        if (!p || m.id !== p.id) return;
        this.pending = null;
        if (m.type === 'result') p.resolve(m.answer);
        else p.reject(new Error(`internal error: ${m.message}`));
      });
      child.on('exit', (code, signal) => {
        if (this.child === child) {
          this.child = null;
          this.ready = null;
        }
        const why = new Error(`the analysis process ended (${signal ?? `exit ${code}`})`);
        rej(why);
        const p = this.pending;
        this.pending = null;
        p?.reject(why);
      });
      child.on('error', (err) => rej(err));
    });
    child.send({ type: 'init', dir: this.dir, env: this.env, backend: this.backend } satisfies ToChild);
    return ready;
  }

  private async runOne(command: string, cwd: string, timeoutMs: number): Promise<HookAnswer | null | 'timeout'> {
    this.ready ??= this.start();
    const child = this.child!;
    this.hold(child, true);
    try {
      // Start-up (Node + the parser) is not part of the decision's limit, but is bounded too.
      let startTimer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.ready,
        new Promise<never>((_, rej) => {
          startTimer = setTimeout(() => {
            this.kill(child);
            rej(new Error(`the analysis process did not start within ${Math.max(timeoutMs, START_MS) / 1000} s`));
          }, Math.max(timeoutMs, START_MS));
        }),
      ]).finally(() => clearTimeout(startTimer));
      const id = this.nextId++;
      return await new Promise<HookAnswer | null | 'timeout'>((res, rej) => {
        const timer = setTimeout(() => {
          this.pending = null;
          this.kill(child);
          res('timeout');
        }, timeoutMs);
        this.pending = {
          id,
          resolve: (v) => (clearTimeout(timer), res(v)),
          reject: (e) => (clearTimeout(timer), rej(e)),
        };
        child.send({ type: 'check', id, command, cwd } satisfies ToChild);
      });
    } finally {
      this.hold(child, false);
    }
  }

  /** Keeps the caller's event loop alive only while a decision is pending. */
  private hold(child: ChildProcess, on: boolean): void {
    if (on) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
    }
  }

  private kill(child: ChildProcess): void {
    if (this.child === child) {
      this.child = null;
      this.ready = null;
    }
    child.kill('SIGKILL');
  }

  close(): void {
    if (this.child) this.kill(this.child);
  }
}

export { ConfigError };
