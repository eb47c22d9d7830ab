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
import { checkCommand, checkPath, scopeFor, type Scope } from '../guard.js';
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
}

export async function runHook(io: IO, opts: HookOptions): Promise<number> {
  let raw: string;
  try {
    raw = await io.readStdin();
  } catch (err) {
    io.stderr(`bashguard: cannot read stdin (${(err as Error).message}); allowing\n`);
    return 0;
  }
  const answer = await decideHook(raw, io, opts);
  return emit(answer, io, opts.exitCode);
}

export async function decideHook(raw: string, io: IO, opts: Pick<HookOptions, 'getParser' | 'unfinished'>): Promise<HookAnswer | null> {
  if (raw.trim() === '') {
    io.stderr('bashguard: empty hook input on stdin; allowing\n');
    return null;
  }
  if (raw.length > MAX_HOOK_INPUT) {
    // Not parsed (so the event's cwd is unknown): the config is looked up from the hook's own cwd,
    // so `"unanalyzable": "deny"` holds here too. Anything unexpected keeps the default, ask.
    let decision: Decision = 'ask';
    try {
      const scope = scopeFor(io.cwd, io.env);
      if (!scope.skipped && scope.config.unanalyzable === 'deny') decision = 'deny';
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
  let scope: Scope;
  try {
    scope = scopeFor(cwd, io.env);
  } catch (err) {
    if (err instanceof ConfigError) return { decision: 'ask', reason: `bashguard: invalid configuration: ${err.message}` };
    throw err;
  }
  if (scope.skipped) {
    // Outside any checkout (or its git files unreadable) there is no worktree to keep the call in:
    // allow, and say why. A plain checkout (root known) stays quiet: nothing there to enforce.
    if (!scope.root) io.stderr(`bashguard: ${scope.skipped} (cwd ${cwd}); allowing\n`);
    return null;
  }
  if (opts.unfinished !== undefined) {
    return {
      decision: scope.config.unanalyzable === 'deny' ? 'deny' : 'ask',
      reason: `bashguard could not analyze this call: its analysis did not finish within ${opts.unfinished} s and was stopped (tree-sitter can run away on some malformed input). Split the command into simpler ones, or confirm it yourself.`,
    };
  }
  const genv = { env: io.env };
  if (tool === 'Bash') {
    const parser = await opts.getParser();
    const { verdict } = checkCommand(parser, value, cwd, genv, scope);
    if (verdict.decision === 'allow') return null;
    return { decision: verdict.decision, reason: explainForAgent(verdict.findings.filter((f) => f.decision !== 'allow'), scope.root!) };
  }
  const { verdict, resolved } = checkPath(value, cwd, tool, genv, scope);
  if (verdict.decision === 'allow') return null;
  return {
    decision: verdict.decision,
    reason: `bashguard blocked ${tool}: ${value} resolves to ${resolved}, outside the worktree ${scope.root}. ` +
      `Use a path under the worktree root ${scope.root} (the main checkout has byte-identical files, so a path anchored at the repository root silently edits the wrong copy).`,
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
        permissionDecision: answer.decision,
        permissionDecisionReason: answer.reason,
      },
    }) + '\n',
  );
  return 0;
}
