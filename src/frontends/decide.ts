/**
 * The decision core of every hook client: a neutral ToolCall -> a decision with the findings and
 * the reason text the agent sees. No client format here (src/frontends/hook/clients/* parse and render).
 */
import { dirname } from 'node:path';
import type { BashParser } from '../engine/parse/index.js';
import { mark, smallCache } from '../runtime/index.js';
import { openWorkspace, UntrustedConfigError, type Workspace } from '../policy/workspace/index.js';
import type { Env } from '../policy/workspace/config.js';
import { ConfigError } from '../policy/config.js';
import { DECISION_RANK as RANK, type Finding, type Verdict } from '../policy/policy.js';
import { displayPath, isInside } from '../engine/shell/paths.js';
import type { HookAnswer, ToolCall } from './tool-call.js';
import type { Held } from '../layers/sandbox/held.js';
import type { Grant, SandboxPlan } from '../layers/sandbox/grants.js';
import type { SharedGitWrite } from '../policy/shared-git.js';

export interface DecideContext {
  /** Where notices (untrusted config that tried to loosen things) go, one line each. */
  stderr(text: string): void;
  env: Env;
  /** The hook process's cwd: used when the event has no absolute cwd. */
  cwd: string;
  getParser: () => Promise<BashParser>;
  /** Seconds: a supervisor stopped the analysis after this long; answer without parsing. */
  unfinished?: number;
  /**
   * The client runs a replaced command (Claude Code's `updatedInput`): an allowed Bash call is
   * answered with the command wrapped in the OS enforcement (src/layers/sandbox/enforce.ts).
   */
  enforce?: boolean;
  /** The client whose event this is (default: Claude Code). */
  client?: string;
}

/**
 * Decides one tool call, in one pass: the workspace, then the analysis and the policy's answer
 * (./decide.ts judgeBash, writeAnswer), then, for a Bash call only, the OS enforcement's wrapper
 * asked of the sandbox layer once (enforcement below). null means allow (or not enforcing here).
 */
export async function decideCall(call: ToolCall, ctx: DecideContext): Promise<HookAnswer | null> {
  const cwd = call.cwd ?? ctx.cwd;
  const opened = openSession(cwd, ctx);
  if (!('ws' in opened)) return opened.answer;
  const ws = opened.ws;
  if (call.kind !== 'bash') return writeAnswer(ws, call.tool, call.paths, cwd);
  if (ctx.unfinished !== undefined) return enforcement(ws, call, ctx, unfinishedAnswer(ws, ctx.unfinished), false);
  const parser = await ctx.getParser();
  mark('parser');
  const verdict = ws.check(parser, call.command, { cwd: call.runIn ?? cwd, commandTraces: false }).verdict;
  const a = await answerBash(ws, parser, call.command, call.runIn ?? cwd, ctx.env, verdict);
  mark('analysis');
  // (where bash rejects part of the command, what runs of it was judged again: no early deny from the whole)
  const shared = verdict.findings.some(unreadable) ? [] : (verdict.sharedGit ?? []);
  if (a?.decision === 'deny' || a?.decision === 'sandbox') return enforcement(ws, call, ctx, a, false);
  // Claude Code's Bash tool input `dangerouslyDisableSandbox: true` asks to run outside the
  // client's own sandbox (2.1.330's shipped cli: the Bash input schema's
  // `dangerouslyDisableSandbox`, honoured unless `sandbox.allowUnsandboxedCommands` is false).
  if (ws.config.enforce !== 'off' && call.input?.dangerouslyDisableSandbox === true) {
    return { decision: 'deny', reason: 'bashguard blocked this command: it asks to run outside the sandbox (dangerouslyDisableSandbox), and every command of this session runs inside it. Run it without dangerouslyDisableSandbox; a write outside the worktree is for a person.', findings: [], kind: 'sandbox-bypass' };
  }
  return enforcement(ws, call, ctx, a, ctx.enforce === true && ws.config.enforce !== 'off', shared);
}

/** The session's workspace, or the answer where there is none to keep the call in. */
function openSession(cwd: string, ctx: DecideContext): { ws: Workspace } | { answer: HookAnswer | null } {
  let ws: Workspace;
  try {
    ws = sessionWorkspace(cwd, ctx.env);
    mark('workspace');
  } catch (err) {
    // The agent can write a worktree's .bashguard.json: broken, it blocks (fail closed). A
    // person's trusted file asks.
    if (err instanceof UntrustedConfigError) {
      return { answer: { decision: 'deny', reason: `bashguard: the worktree's configuration is invalid or unreadable, and the agent can write it, so every call is blocked until a person fixes it: ${err.message}`, findings: [], kind: 'invalid-worktree-config' } };
    }
    if (err instanceof ConfigError) return { answer: { decision: 'ask', reason: `bashguard: invalid configuration: ${err.message}`, findings: [], kind: 'invalid-config' } };
    throw err;
  }
  for (const n of ws.notices) ctx.stderr(`bashguard: ${n}\n`);
  if (ws.broken) {
    return { answer: { decision: 'deny', reason: `bashguard blocked this call: ${ws.broken}. The guard cannot tell which worktree this session may write; a person must repair it (git worktree repair).`, findings: [], kind: 'broken-worktree' } };
  }
  if (ws.skipped) {
    // Outside any checkout (or with unreadable git files) there is no worktree to keep the call in:
    // allow, and say why (README). A plain checkout (root known) stays quiet: nothing to enforce.
    if (!ws.root) ctx.stderr(`bashguard: ${ws.skipped} (cwd ${cwd}); allowing\n`);
    return { answer: null };
  }
  return { ws };
}

/**
 * The sandbox layer, asked once for the decided answer: a `sandbox` decision gets its `bashguard
 * sandbox run` wrapper; with `enforce`, an allow gets the OS enforcement's wrapper and an ask the
 * kernel can hold becomes that allow (./held-asks.ts); anything else stays as decided.
 */
async function enforcement(ws: Workspace, call: BashCall, ctx: DecideContext, a: HookAnswer | null, enforce: boolean, shared: readonly SharedGitWrite[] = []): Promise<HookAnswer | null> {
  if (a?.decision === 'sandbox') return sandboxAnswer(ws, call, a, ctx.env);
  if (!enforce || (a !== null && a.decision !== 'ask')) return a;
  const e = await enforcedAnswer(ws, call, ctx, a !== null);
  // Shared git state the kernel holds: git fails there as soon as it writes it, so deny early,
  // saying what instead (a person who turned BG3003 off keeps the run and its failure).
  if (shared.length > 0 && e?.plan && e.answer.enforced && ws.config.rules.BG3003 !== 'off') {
    const [{ heldSharedGit }, { planCovers }] = await Promise.all([import('./held-asks.js'), import('../layers/sandbox/grants.js')]);
    const plan = e.plan;
    const held = heldSharedGit(shared, (p) => planCovers(plan, p), a?.findings ?? []);
    if (held) return held;
  }
  if (a === null) return e?.answer ?? null;
  const [{ heldAsk }, { planCovers }] = await Promise.all([import('./held-asks.js'), import('../layers/sandbox/grants.js')]);
  const plan = e?.plan;
  if (!e || e.answer.decision !== 'allow' || !e.answer.enforced || !plan) return heldAsk(a, { why: e?.answer.reason ?? 'no mechanism is in effect (bashguard doctor)' });
  return heldAsk(a, { answer: e.answer, plan, covers: (p) => planCovers(plan, p) });
}

type BashCall = Extract<ToolCall, { kind: 'bash' }>;

/**
 * The workspace of the session. Opened from the event's cwd; when that is not an enforcing
 * checkout (the agent's shell moved to /tmp, or into the main checkout), the session's project
 * directory (CLAUDE_PROJECT_DIR, which Claude Code sets for hooks) decides, and commands are
 * still analyzed from the event's cwd: where the shell went must not switch the guard off.
 */
export function sessionWorkspace(cwd: string, env: Env): Workspace {
  const ws = openWorkspace(cwd, { env });
  const project = env.CLAUDE_PROJECT_DIR;
  if (!ws.skipped || ws.broken || !project || !project.startsWith('/') || project === cwd) return ws;
  const fromProject = openWorkspace(project, { env });
  return fromProject.broken || !fromProject.skipped ? fromProject : ws;
}

export function unfinishedAnswer(ws: Workspace, seconds: number): HookAnswer {
  return {
    decision: ws.config.unanalyzable === 'deny' || ws.config.unanalyzable === 'sandbox' ? ws.config.unanalyzable : 'ask',
    reason: unfinishedReason(seconds),
    findings: [],
    kind: 'analysis-stopped',
  };
}

export function unfinishedReason(seconds: number): string {
  return `bashguard could not analyze this call: its analysis did not finish within ${seconds} s and was stopped (tree-sitter can run away on some malformed input). Split the command into simpler ones, or confirm it yourself.`;
}

/**
 * The `sandbox` decision: the command wrapped to run in `bashguard sandbox run` for this worktree,
 * or ask (saying why) where it cannot be sandboxed here (no bubblewrap, no user namespaces).
 */
async function sandboxAnswer(ws: Workspace, call: BashCall, undecided: HookAnswer, env: Env): Promise<HookAnswer> {
  const { sandboxDecision } = await import('../layers/sandbox/decision.js');
  const why = (undecided.findings ?? []).length
    ? `bashguard cannot decide this command statically: ${undecided.findings!.map((f) => `[${f.rule} ${f.name}] ${f.message}`).join('; ')}.`
    : undecided.reason;
  const wrap = sandboxDecision(ws, call.command, env);
  const ask = (because: string) => `${why}\nbashguard would run it in a sandbox, but ${because}; confirm it yourself.`;
  if (!wrap.ok) return { decision: 'ask', reason: ask(wrap.reason), findings: undecided.findings ?? [] };
  return {
    decision: 'sandbox',
    reason: `${why}\nbashguard runs it in a sandbox where only the worktree ${ws.root}, scratch dirs and git's own files for this worktree are writable.`,
    findings: undecided.findings ?? [],
    sandbox: { command: wrap.command, ...(call.input ? { input: call.input } : {}), fallback: ask('this client cannot replace the command') },
  };
}

/**
 * An allowed Bash call under the OS enforcement: allow with the wrapped command; null (a plain
 * allow) where the client's own sandbox enforces, or where nothing can (said on stderr, and by
 * `doctor`); ask where the trusted config requires bubblewrap or Landlock (`"enforce": "bwrap"`,
 * `"landlock"`) and it is missing.
 * `held`: the allow is to stand for an ask (./held-asks.ts), so the worktree's control files must
 * be held too where the command would run inside a client's own sandbox.
 */
async function enforcedAnswer(ws: Workspace, call: BashCall, ctx: DecideContext, held = false): Promise<{ answer: HookAnswer; plan?: SandboxPlan } | null> {
  const { enforceCall, clientShell, SEATBELT_PROBE, heldOrWrapped, managedClaudeSandbox } = await import('../layers/sandbox/enforce.js');
  // Claude Code's own sandbox, held by the managed settings, runs every Bash call and a wrapper
  // cannot start inside it: under `auto` it is the mechanism (as `"enforce": "client"` says).
  if (ws.config.enforce === 'auto' && (ctx.client ?? 'claude') === 'claude' && managedClaudeSandbox().ok) return null;
  const shell = clientShell(ctx.env, ctx.client);
  const e = enforceCall(ws, call.command, ws.config.enforce, ctx.env, `${call.id ?? ''}\0${call.cwd ?? ctx.cwd}`, smallCache(ctx.env) ?? undefined, { shell });
  mark('enforce');
  if (e.kind === 'client') return null;
  if (e.kind === 'none') {
    if (ws.config.enforce === 'off') return null;
    if (ws.config.enforce === 'bwrap' || ws.config.enforce === 'landlock' || ws.config.enforce === 'seatbelt') return { answer: { decision: 'ask', reason: `bashguard cannot enforce this command: ${e.reason}, and the configuration requires ${MECHANISM[ws.config.enforce]} ("enforce": "${ws.config.enforce}"); confirm it yourself.`, findings: [], kind: 'not-enforced' } };
    ctx.stderr(`bashguard: not enforced by the OS: ${e.reason} (bashguard doctor)\n`);
    return null;
  }
  const answer: HookAnswer = {
    decision: 'allow',
    reason:
      e.kind === 'landlock'
        ? `bashguard: runs under Landlock; it may write only in the write roots (the worktree ${ws.root}, its own git state, scratch dirs, tool caches, configured roots), the control files there excepted, and no new entry beside one of them${e.plan.unheld?.length ? `; the worktree is granted whole, so its own control files (${e.plan.unheld.map((u) => u.path.slice(e.plan.worktree.length + 1)).join(', ')}) are held by the analyzer only` : ''}.`
        : `bashguard: runs in ${e.kind === 'bwrap' && e.by === 'shell' ? "bubblewrap's mounts, made in the shell itself where it can (by a process started for it where not)" : e.kind === 'bwrap' && e.by === 'helper' ? "bubblewrap's mounts, made by bashguard's helper" : MECHANISM[e.kind]}; it may write only in the write roots (the worktree ${ws.root}, its own git state, scratch dirs, tool caches, configured roots), the control files there excepted.`,
    findings: [],
    // Neither bubblewrap nor Seatbelt nests (src/layers/sandbox/held.ts): inside a client's own
    // sandbox (Codex's; Claude Code's `sandbox.enabled`, bubblewrap on Linux and Seatbelt on macOS)
    // the command looks where it runs first, whatever the client. Landlock rulesets stack.
    enforced: {
      command:
        e.kind === 'landlock'
          ? e.command
          : heldOrWrapped(call.command, e.command, heldCheck(ws, e.plan.grants, e.kind === 'seatbelt' ? [...SEATBELT_PROBE] : e.probe, held)),
      ...(call.input ? { input: call.input } : {}),
      mechanism: e.kind,
    },
  };
  return { answer, plan: e.plan };
}

const MECHANISM = { bwrap: 'bubblewrap', landlock: 'Landlock', seatbelt: 'Seatbelt (sandbox-exec)' } as const;

/** What tells, where the command runs, that something else already keeps the line. */
function heldCheck(ws: Workspace, grants: readonly Grant[], probe: string[], inside: boolean): Held {
  const root = ws.root!;
  // (`/` read-only stands for everything outside the write roots: HOME is what a sandbox around would leave writable)
  const home = ws.env.HOME?.startsWith('/') ? ws.env.HOME : null;
  const within = (p: string) => isInside(p, root);
  const readOnly = grants.filter((g) => g.access === 'ro' && !g.reserve && !g.pin && !within(g.path)).flatMap((g) => (g.path === '/' ? (home ? [home] : []) : [g.path]));
  // A call that runs under the kernel instead of an ask counts on the worktree's control files
  // being held too: a sandbox around that leaves one writable (or the directory a reserved one
  // would be made in) is not enough, and the wrapper runs (and fails there, never unconfined).
  if (inside) for (const g of grants) if (g.access === 'ro' && !g.pin && g.path !== root && within(g.path)) readOnly.push(g.reserve ? dirname(g.path) : g.path);
  return { readOnly: [...new Set(readOnly)], probe };
}

/**
 * The answer for a Bash command run from `cwd` (the hook, and the library's guard alike): the
 * analysis (src/engine/analyze.ts) through the policy (Workspace#check), then the answer.
 */
export async function judgeBash(ws: Workspace, parser: BashParser, command: string, cwd: string, env: Env): Promise<HookAnswer | null> {
  const verdict = ws.check(parser, command, { cwd, commandTraces: false }).verdict;
  return answerBash(ws, parser, command, cwd, env, verdict);
}

/**
 * The answer for `verdict`, the policy's verdict on `command`; for a command tree-sitter could
 * not read, what the shell that runs it reads decides (src/engine/parse/shell-syntax.ts
 * bashRuns): nothing runs (allow: it fails with a syntax error), or only a prefix, which is then
 * what is judged. Where bash cannot tell, the BG0001 answer stays. null: allow.
 */
export async function answerBash(ws: Workspace, parser: BashParser, command: string, cwd: string, env: Env, verdict: Verdict): Promise<HookAnswer | null> {
  const a = bashAnswer(verdict, ws.root!);
  if (!a || !verdict.findings.some(unreadable)) return a;
  const [{ bashRuns }, { clientShell }] = await Promise.all([import('../engine/parse/shell-syntax.js'), import('../layers/sandbox/client-shell.js')]);
  const runs = bashRuns(clientShell(env), command);
  if (runs.kind === 'nothing') return null;
  if (runs.kind !== 'prefix') return a;
  const before = ws.check(parser, runs.text, { cwd, commandTraces: false }).verdict;
  if (before.findings.some(unreadable)) return a;
  const b = bashAnswer(before, ws.root!);
  return b && { ...b, reason: `${b.reason}\n(bash rejects line ${runs.rejected} of this command, so only its first ${runs.lines} line(s) run; they are what was judged.)` };
}

/** tree-sitter could not read the command itself (not code nested in it: that runs when the command does). */
function unreadable(f: Finding): boolean {
  return f.rule === 'BG0001' && f.via.length === 0 && f.origin === undefined;
}

/** The answer for a Bash verdict: null when allowed, else the findings and the agent's reason. */
export function bashAnswer(verdict: Verdict, root: string): HookAnswer | null {
  if (verdict.decision === 'allow') return null;
  const findings = verdict.findings.filter((f) => f.decision !== 'allow');
  return { decision: verdict.decision, reason: explainForAgent(findings, root, verdict.decision), findings };
}

/** The answer for a file tool writing `paths` (several for a patch): the strictest of them. */
export function writeAnswer(ws: Workspace, tool: string, paths: string[], cwd: string): HookAnswer | null {
  let worst: HookAnswer | null = null;
  const reasons: string[] = [];
  const findings: Finding[] = [];
  for (const path of paths) {
    const a = oneWrite(ws, tool, path, cwd);
    if (!a) continue;
    reasons.push(a.reason);
    findings.push(...(a.findings ?? []));
    if (!worst || RANK[a.decision] > RANK[worst.decision]) worst = a;
  }
  if (!worst) return null;
  return { decision: worst.decision, reason: reasons.join('\n'), findings };
}

function oneWrite(ws: Workspace, tool: string, path: string, cwd: string): HookAnswer | null {
  const { verdict, resolved } = ws.judgeWrite(path, { tool, cwd });
  if (verdict.decision === 'allow') return null;
  const findings = verdict.findings.filter((f) => f.decision !== 'allow');
  const protectedFile = verdict.findings.find((f) => f.rule === 'BG1005');
  return {
    decision: verdict.decision,
    findings,
    reason: protectedFile
      ? `bashguard blocked ${tool} [BG1005 write-to-protected-file]: ${protectedFile.message}. Leave it to a person.`
      : `bashguard blocked ${tool}: ${path} resolves to ${resolved}, outside the worktree ${ws.root}. ` +
        `Use a path under the worktree root ${ws.root} (the main checkout has byte-identical files, so a path anchored at the repository root silently edits the wrong copy).`,
  };
}

/** The reason shown to the agent: what, where the cwd came from, how to fix. */
export function explainForAgent(findings: Finding[], root: string, decision = 'deny'): string {
  const lines: string[] = [];
  const shown = findings.slice(0, 5);
  // An ask is a question to a person, not a block: the text must not say the call was stopped.
  const what = decision === 'deny' ? 'blocked this command' : 'asks before this command runs';
  lines.push(`bashguard ${what} (${findings.length} finding${findings.length === 1 ? '' : 's'}):`);
  for (const f of shown) {
    lines.push(`- [${f.rule} ${f.name}, ${f.confidence}] ${f.message}`);
    const ev = f.evidence.filter((e) => /cwd|set at|resolves|git dir|work tree|unknown|not set/.test(e.note)).slice(-3);
    for (const e of ev) lines.push(`    because: ${e.note}`);
  }
  if (findings.length > shown.length) lines.push(`- ... and ${findings.length - shown.length} more`);
  const rules = new Set(findings.map((f) => f.rule));
  if ([...rules].some((r) => r.startsWith('BG1') || r === 'BG4001')) {
    lines.push(`Fix: write inside the worktree ${root} using paths relative to it (or /tmp for scratch files); do not anchor paths at the repository root or cd into the main checkout.`);
  }
  if (rules.has('BG2001') || rules.has('BG2002')) {
    lines.push(`Fix: run git from the worktree ${root} without -C/--git-dir pointing at another checkout; commit on this worktree's branch.`);
  }
  if (rules.has('BG3001') || rules.has('BG3002') || rules.has('BG3003') || rules.has('BG3004')) {
    lines.push('Fix: leave shared git state (config, hooks, other branches, worktrees) to a person; use `git config --worktree` or `git -c` for local settings.');
  }
  if (rules.has('BG0001') || rules.has('BG0002') || rules.has('BG4002')) {
    lines.push('Fix: write the command so it can be read statically (literal paths, no eval of variables), or split it into smaller commands.');
  }
  return lines.map((l) => displayPath(l)).join('\n');
}
