/**
 * `bashguard hook`: Claude Code's PreToolUse protocol. Reads the event JSON on stdin and answers
 * with a permission decision on stdout (nothing for allow), or with `--exit-code`, exit 2 and the
 * reason on stderr.
 *
 * Fail-open vs fail-closed (as in the worktree-edit-guard seed):
 * - environmental failures allow and say why on stderr: empty stdin, malformed JSON, a cwd that
 *   is not a checkout, unreadable git files;
 * - protocol drift denies: an in-scope tool without its `command` / `file_path` / `notebook_path`;
 * - oversized or unanalyzable commands ask (or deny with `"unanalyzable": "deny"`), never allow.
 */
import type { IO } from '../cli/io.js';
import type { BashParser } from '../parse/index.js';
import { openWorkspace, type Workspace } from '../workspace/index.js';
import { ConfigError, type Decision } from '../policy/config.js';
import type { Finding } from '../policy/policy.js';
import { displayPath } from '../interpret/paths.js';
import type { SandboxWrap } from '../sandbox/decision.js';

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
  /** With decision `sandbox`: the tool input to run instead (the command wrapped in `bashguard sandbox run`). */
  updatedInput?: Record<string, unknown>;
}

/**
 * The `sandbox` decision (client-neutral): the command wrapped to run in the worktree's sandbox,
 * or, where it cannot be (no bubblewrap, a client that cannot replace the tool input), ask.
 */
async function sandboxAnswer(ws: Workspace, input: Record<string, unknown>, command: string, why: string, env: IO['env'], canRewrite: boolean): Promise<HookAnswer> {
  const { sandboxDecision } = await import('../sandbox/decision.js');
  const wrap: SandboxWrap = canRewrite ? sandboxDecision(ws, command, env) : { ok: false, reason: 'this hook protocol cannot replace the command' };
  if (!wrap.ok) return { decision: 'ask', reason: `${why}\nbashguard would run it in a sandbox, but ${wrap.reason}; confirm it yourself.` };
  return { decision: 'sandbox', reason: `${why}\nbashguard runs it in a sandbox where only the worktree ${ws.root}, scratch dirs and git's own files for this worktree are writable.`, updatedInput: { ...input, command: wrap.command } };
}

export async function runHook(io: IO, opts: HookOptions): Promise<number> {
  let raw: string;
  try {
    raw = await io.readStdin();
  } catch (err) {
    io.stderr(`bashguard: cannot read stdin (${(err as Error).message}); allowing\n`);
    return 0;
  }
  const answer = await decideHook(raw, io, { ...opts, canRewrite: !opts.exitCode });
  return emit(answer, io, opts.exitCode);
}

export async function decideHook(raw: string, io: IO, opts: Pick<HookOptions, 'getParser' | 'unfinished'> & { canRewrite?: boolean }): Promise<HookAnswer | null> {
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
    return { decision, reason: `bashguard could not analyze this call: the hook input is ${raw.length} bytes, over the ${MAX_HOOK_INPUT}-byte limit.` };
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
  if (tool === null) {
    io.stderr('bashguard: hook input has no tool_name; allowing\n');
    return null;
  }
  if (tool !== 'Bash' && !(tool in PATH_FIELD)) return null;
  const input = event.tool_input;
  const field = tool === 'Bash' ? 'command' : PATH_FIELD[tool]!;
  const value = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[field] : undefined;
  if (typeof value !== 'string') {
    return { decision: 'deny', reason: `bashguard: the ${tool} tool call has no string tool_input.${field}; the hook protocol may have changed, so the call is blocked (update bashguard).` };
  }
  const cwd = typeof event.cwd === 'string' && event.cwd.startsWith('/') ? event.cwd : io.cwd;
  let ws: Workspace;
  try {
    ws = openWorkspace(cwd, { env: io.env });
  } catch (err) {
    if (err instanceof ConfigError) return { decision: 'ask', reason: `bashguard: invalid configuration: ${err.message}` };
    throw err;
  }
  for (const n of ws.notices) io.stderr(`bashguard: ${n}\n`);
  if (ws.skipped) return null;
  if (opts.unfinished !== undefined) {
    if (tool === 'Bash' && ws.config.unanalyzable === 'sandbox') {
      return sandboxAnswer(ws, input as Record<string, unknown>, value, `bashguard could not analyze this call: its analysis did not finish within ${opts.unfinished} s.`, io.env, opts.canRewrite ?? false);
    }
    return {
      decision: ws.config.unanalyzable === 'deny' ? 'deny' : 'ask',
      reason: `bashguard could not analyze this call: its analysis did not finish within ${opts.unfinished} s and was stopped (tree-sitter can run away on some malformed input). Split the command into simpler ones, or confirm it yourself.`,
    };
  }
  if (tool === 'Bash') {
    const parser = await opts.getParser();
    const { verdict } = ws.check(parser, value, { cwd });
    if (verdict.decision === 'allow') return null;
    if (verdict.decision === 'sandbox') {
      const undecided = verdict.findings.filter((f) => f.decision !== 'allow');
      return sandboxAnswer(ws, input as Record<string, unknown>, value, `bashguard cannot decide this command statically: ${undecided.map((f) => `[${f.rule} ${f.name}] ${f.message}`).join('; ')}.`, io.env, opts.canRewrite ?? false);
    }
    return { decision: verdict.decision, reason: explainForAgent(verdict.findings.filter((f) => f.decision !== 'allow'), ws.root!) };
  }
  const { verdict, resolved } = ws.judgeWrite(value, { tool, cwd });
  if (verdict.decision === 'allow') return null;
  const protectedFile = verdict.findings.find((f) => f.rule === 'BG1005');
  return {
    decision: verdict.decision,
    reason: protectedFile
      ? `bashguard blocked ${tool} [BG1005 write-to-protected-file]: ${protectedFile.message}. Leave it to a person.`
      : `bashguard blocked ${tool}: ${value} resolves to ${resolved}, outside the worktree ${ws.root}. ` +
        `Use a path under the worktree root ${ws.root} (the main checkout has byte-identical files, so a path anchored at the repository root silently edits the wrong copy).`,
  };
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
        // Claude Code: `sandbox` is an allow that replaces the tool input with the wrapped command.
        permissionDecision: answer.decision === 'sandbox' ? 'allow' : answer.decision,
        permissionDecisionReason: answer.reason,
        ...(answer.decision === 'sandbox' && answer.updatedInput ? { updatedInput: answer.updatedInput } : {}),
      },
    }) + '\n',
  );
  return 0;
}
