/**
 * OpenAI Codex CLI: PreToolUse hooks in `~/.codex/hooks.json` or `<repo>/.codex/hooks.json`
 * (trusted projects only; unmanaged hooks need review).
 * Sources: developers.openai.com/codex/hooks; openai/codex PR #18391 (apply_patch emits
 * PreToolUse); openai/codex issue #18491; the shipped `@openai/codex` schemas (hook input
 * `session_id, turn_id, transcript_path, cwd, model, permission_mode, tool_name, tool_input,
 * tool_use_id`). Codex normalizes its shell tools to `tool_name: "Bash"` with
 * `tool_input.command`; `apply_patch` arrives with `tool_input.command` holding the raw patch,
 * whose `*** Add File:`, `*** Update File:`, `*** Delete File:` and `*** Move to:` lines name
 * every path it touches (each is checked).
 * Output: Claude's `hookSpecificOutput` with `permissionDecision: "deny"` (a reason is required),
 * or exit 2 with the reason on stderr. `ask` (and a bare `allow`) are "unsupported" and FAIL OPEN,
 * so every ask is rendered as a deny that says so; allow prints nothing. Checked against the
 * 0.169.0 binary (its messages "PreToolUse hook returned unsupported permissionDecision:ask",
 * "... permissionDecision:deny without a non-empty permissionDecisionReason") and in
 * test/system/e2e/codex-hook.e2e.test.ts (exec_command arrives as Bash; a deny blocks it on disk).
 */
import { absCwd, askAsDeny, field, type HookClient, type ParsedEvent } from '../types.js';
import { parseClaudeShaped, renderClaudeShaped } from './claude.js';

const PATCH_TOOLS = ['apply_patch'];
const PATCH_LINE = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.*)$/;

/** Every path an apply_patch envelope touches, in order (added, updated, deleted, moved to). */
export function patchPaths(patch: string): string[] {
  const out: string[] = [];
  for (const line of patch.split(/\r?\n/)) {
    const m = PATCH_LINE.exec(line);
    if (m && m[1]!.trim() !== '') out.push(m[1]!.trim());
  }
  return out;
}

function parse(event: Record<string, unknown>): ParsedEvent {
  const tool = event.tool_name;
  if (typeof tool === 'string' && PATCH_TOOLS.includes(tool)) {
    const patch = field(event.tool_input, 'command');
    if (typeof patch !== 'string') {
      return { kind: 'drift', reason: `bashguard: the ${tool} tool call has no string tool_input.command; the hook protocol may have changed, so the call is blocked (update bashguard).` };
    }
    const paths = patchPaths(patch);
    if (paths.length === 0) {
      return { kind: 'drift', reason: `bashguard: the ${tool} patch names no file (no "*** Add File:", "*** Update File:", "*** Delete File:" or "*** Move to:" line), so bashguard cannot tell what it writes; the call is blocked.` };
    }
    return { kind: 'call', call: { kind: 'write', tool, paths, cwd: absCwd(event.cwd) } };
  }
  return parseClaudeShaped(event, {}, ['Bash']);
}

export const codex: HookClient = {
  name: 'codex',
  parse,
  render: (answer, opts) => renderClaudeShaped(answer && askAsDeny(answer, 'Codex', 'does not support "ask" in hooks (it would run the call)'), opts),
};
