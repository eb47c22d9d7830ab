/**
 * `bashguard hook`: Claude Code's PreToolUse protocol. Reads the event JSON on stdin and answers
 * with a permission decision on stdout (nothing for allow), or with `--exit-code`, exit 2 and the
 * reason on stderr.
 *
 * Fail closed where the agent could have caused the failure, open only where it could not (issue
 * #12; every path is listed in docs/limits.md with its reason):
 * - open (allow, reason on stderr): empty stdin, malformed JSON, no tool_name, a session outside
 *   any git checkout, a plain checkout (the client or a person made those, not the agent);
 * - deny: protocol drift (an in-scope tool without its `command` / `file_path` / `notebook_path`),
 *   broken git files around the worktree (a `.git` file the agent could have rewritten or
 *   deleted), an invalid or unreadable worktree `.bashguard.json` (the agent can write it);
 * - ask (deny with `"unanalyzable": "deny"`): oversized or unanalyzable commands, a run-away
 *   analysis, an internal error; ask for an invalid trusted config (a person's file).
 * Every non-allow answer is appended to the decision log (src/log/decisions.ts).
 */
import type { IO } from '../cli/io.js';
import type { BashParser } from '../parse/index.js';
import { openWorkspace, UntrustedConfigError, type Workspace } from '../workspace/index.js';
import { appendDecision } from '../log/decisions.js';
import { ConfigError, type Decision } from '../policy/config.js';
import type { Finding } from '../policy/policy.js';
import { displayPath } from '../interpret/paths.js';

export interface HookOptions {
  exitCode: boolean;
  getParser: () => Promise<BashParser>;
  /**
   * Set by bin/bashguard-hook when it stopped an analysis that ran past its limit (seconds):
   * answer as for any unanalyzable call, from the event and the config alone, without parsing.
   */
  unfinished?: number;
}

const PATH_FIELD: Record<string, string> = {
  Edit: 'file_path',
  Write: 'file_path',
  MultiEdit: 'file_path',
  NotebookEdit: 'notebook_path',
};

/** The largest stdin accepted; beyond it the command is unanalyzable (ask), not parsed. */
export const MAX_HOOK_INPUT = 16 * 1024 * 1024;

export interface HookAnswer {
  decision: Decision;
  reason: string;
  /** The rule ids behind the decision (for the decision log). */
  rules?: string[];
}

/** What the decision log records of the event. */
interface EventInfo {
  session: string | null;
  cwd: string | null;
  tool: string | null;
  value: string | null;
}

export async function runHook(io: IO, opts: HookOptions): Promise<number> {
  let raw: string;
  try {
    raw = await io.readStdin();
  } catch (err) {
    io.stderr(`bashguard: cannot read stdin (${(err as Error).message}); allowing\n`);
    return 0;
  }
  const info: EventInfo = { session: null, cwd: null, tool: null, value: null };
  let answer: HookAnswer | null;
  try {
    answer = await decideHook(raw, io, opts, info);
  } catch (err) {
    // Never a silent allow: an internal failure is answered as an unanalyzable call.
    answer = { decision: 'ask', reason: `bashguard could not analyze this call (internal error: ${(err as Error).message.split('\n')[0]})`, rules: ['internal-error'] };
  }
  if (answer && answer.decision !== 'allow') logDecision(io, answer, info);
  return emit(answer, io, opts.exitCode);
}

function logDecision(io: IO, answer: HookAnswer, info: EventInfo): void {
  const isPath = info.tool !== null && info.tool !== 'Bash';
  const err = appendDecision(io.env, {
    time: new Date().toISOString(),
    session: info.session ?? io.env.CLAUDE_CODE_SESSION_ID ?? null,
    cwd: info.cwd,
    tool: info.tool,
    ...(info.value === null ? {} : isPath ? { path: info.value } : { command: info.value.length > 4096 ? info.value.slice(0, 4096) + '...' : info.value }),
    decision: answer.decision as 'ask' | 'deny',
    rules: answer.rules ?? [],
    reason: answer.reason.split('\n')[0]!,
    entrypoint: io.env.CLAUDE_CODE_ENTRYPOINT ?? null,
    attended: io.env.CLAUDE_CODE_SESSION_ATTENDED ?? null,
  });
  if (err) io.stderr(`bashguard: ${err}\n`);
}

export async function decideHook(raw: string, io: IO, opts: Pick<HookOptions, 'getParser' | 'unfinished'>, info: EventInfo = { session: null, cwd: null, tool: null, value: null }): Promise<HookAnswer | null> {
  if (raw.trim() === '') {
    io.stderr('bashguard: empty hook input on stdin; allowing\n');
    return null;
  }
  if (raw.length > MAX_HOOK_INPUT) {
    // Not parsed (so the event's cwd is unknown): the config is looked up from the hook's own cwd,
    // so `"unanalyzable": "deny"` holds here too. Anything unexpected keeps the default, ask.
    let decision: Decision = 'ask';
    try {
      const ws = openWorkspace(io.cwd, { env: io.env });
      if (!ws.skipped && ws.config.unanalyzable === 'deny') decision = 'deny';
    } catch {
      // invalid config or unreadable git files: ask
    }
    return { decision, reason: `bashguard could not analyze this call: the hook input is ${raw.length} bytes, over the ${MAX_HOOK_INPUT}-byte limit.`, rules: ['BG0002'] };
  }
  let event: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
    event = parsed as Record<string, unknown>;
  } catch (err) {
    io.stderr(`bashguard: hook input is not valid JSON (${(err as Error).message}); allowing\n`);
    return null;
  }
  const tool = typeof event.tool_name === 'string' ? event.tool_name : null;
  info.tool = tool;
  info.session = typeof event.session_id === 'string' ? event.session_id : null;
  info.cwd = typeof event.cwd === 'string' ? event.cwd : null;
  if (tool === null) {
    io.stderr('bashguard: hook input has no tool_name; allowing\n');
    return null;
  }
  if (tool !== 'Bash' && !(tool in PATH_FIELD)) return null;
  const input = event.tool_input;
  const field = tool === 'Bash' ? 'command' : PATH_FIELD[tool]!;
  const value = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[field] : undefined;
  if (typeof value !== 'string') {
    return { decision: 'deny', reason: `bashguard: the ${tool} tool call has no string tool_input.${field}; the hook protocol may have changed, so the call is blocked (update bashguard).`, rules: ['protocol-drift'] };
  }
  info.value = value;
  const cwd = typeof event.cwd === 'string' && event.cwd.startsWith('/') ? event.cwd : io.cwd;
  let ws: Workspace;
  try {
    ws = sessionWorkspace(cwd, io.env);
  } catch (err) {
    if (err instanceof UntrustedConfigError) {
      return { decision: 'deny', reason: `bashguard: the worktree's configuration is invalid or unreadable, and the agent can write it, so every call is blocked until a person fixes it: ${err.message}`, rules: ['invalid-worktree-config'] };
    }
    if (err instanceof ConfigError) return { decision: 'ask', reason: `bashguard: invalid configuration: ${err.message}`, rules: ['invalid-config'] };
    throw err;
  }
  for (const n of ws.notices) io.stderr(`bashguard: ${n}\n`);
  if (ws.broken) {
    return { decision: 'deny', reason: `bashguard blocked this call: ${ws.broken}. The guard cannot tell which worktree this session may write; a person must repair it (git worktree repair).`, rules: ['broken-worktree'] };
  }
  if (ws.skipped) return null;
  if (opts.unfinished !== undefined) {
    return {
      decision: ws.config.unanalyzable === 'deny' ? 'deny' : 'ask',
      reason: `bashguard could not analyze this call: its analysis did not finish within ${opts.unfinished} s and was stopped (tree-sitter can run away on some malformed input). Split the command into simpler ones, or confirm it yourself.`,
      rules: ['BG0002'],
    };
  }
  if (tool === 'Bash') {
    const parser = await opts.getParser();
    const { verdict } = ws.check(parser, value, { cwd });
    if (verdict.decision === 'allow') return null;
    const shown = verdict.findings.filter((f) => f.decision !== 'allow');
    return { decision: verdict.decision, reason: explainForAgent(shown, ws.root!), rules: [...new Set(shown.map((f) => f.rule))] };
  }
  const { verdict, resolved } = ws.judgeWrite(value, { tool, cwd });
  if (verdict.decision === 'allow') return null;
  const protectedFile = verdict.findings.find((f) => f.rule === 'BG1005');
  return {
    decision: verdict.decision,
    rules: [...new Set(verdict.findings.filter((f) => f.decision !== 'allow').map((f) => f.rule))],
    reason: protectedFile
      ? `bashguard blocked ${tool} [BG1005 write-to-protected-file]: ${protectedFile.message}. Leave it to a person.`
      : `bashguard blocked ${tool}: ${value} resolves to ${resolved}, outside the worktree ${ws.root}. ` +
        `Use a path under the worktree root ${ws.root} (the main checkout has byte-identical files, so a path anchored at the repository root silently edits the wrong copy).`,
  };
}

/**
 * The workspace of the session. Opened from the event's cwd; when that is not an enforcing
 * checkout (the agent's shell moved to /tmp, or into the main checkout), the session's project
 * directory (CLAUDE_PROJECT_DIR, set by Claude Code for hooks) decides, with the event's cwd as the
 * directory commands start in: where the shell went must not switch the guard off.
 */
function sessionWorkspace(cwd: string, env: Record<string, string | undefined>): Workspace {
  const ws = openWorkspace(cwd, { env });
  const project = env.CLAUDE_PROJECT_DIR;
  if (!ws.skipped || ws.broken || !project || !project.startsWith('/') || project === cwd) return ws;
  // Commands are still analyzed from the event's cwd (check/judgeWrite take it explicitly).
  const fromProject = openWorkspace(project, { env });
  return fromProject.broken || !fromProject.skipped ? fromProject : ws;
}

/** The reason shown to the agent: what, where the cwd came from, how to fix. */
export function explainForAgent(findings: Finding[], root: string): string {
  const lines: string[] = [];
  const shown = findings.slice(0, 5);
  lines.push(`bashguard blocked this command (${findings.length} finding${findings.length === 1 ? '' : 's'}):`);
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

function emit(answer: HookAnswer | null, io: IO, exitCode: boolean): number {
  if (!answer || answer.decision === 'allow') return 0;
  if (exitCode) {
    io.stderr(answer.reason + '\n');
    return 2;
  }
  io.stdout(
    JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: answer.decision,
        permissionDecisionReason: answer.reason,
      },
    }) + '\n',
  );
  return 0;
}
