/**
 * Claude Code (and the Claude Agent SDK's shell hooks): PreToolUse.
 * Sources: @anthropic-ai/claude-agent-sdk sdk.d.ts (PreToolUseHookInput, SyncHookJSONOutput,
 * hookSpecificOutput.permissionDecision allow|deny|ask|defer), code.claude.com/docs hooks reference;
 * runs of the real client in test/system/e2e. Input: `{session_id, cwd, hook_event_name, tool_name,
 * tool_input, ...}`; Bash has `tool_input.command`, Edit/Write/MultiEdit `file_path`, NotebookEdit
 * `notebook_path`. Output: nothing for allow; `{hookSpecificOutput: {hookEventName: "PreToolUse",
 * permissionDecision, permissionDecisionReason}}` for deny and ask; with `--exit-code`, exit 2 and
 * the reason on stderr. `sandbox` renders as `permissionDecision: "allow"` with `updatedInput`: the
 * tool input with `command` replaced by the wrapped one (Claude Code runs that instead; checked
 * with the real client in test/system/e2e/sandbox-decision.e2e.test.ts). An allow with `enforced` (the
 * OS enforcement of every allowed call, src/layers/sandbox/enforce.ts) renders the same way: allow with
 * the command replaced by the wrapped one.
 */
import { ALLOW, type HookAnswer, type HookClient, type RenderOptions, type Rendered } from '../types.js';
import { PATH_FIELD, parseClaudeShaped } from '../../claude-shaped.js';

export { PATH_FIELD, parseClaudeShaped };


/** The PreToolUse answer object (also what the Agent SDK callback returns). */
export function preToolUseOutput(answer: HookAnswer): { hookSpecificOutput: { hookEventName: 'PreToolUse'; permissionDecision: 'deny' | 'ask' | 'allow'; permissionDecisionReason: string; updatedInput?: Record<string, unknown> } } {
  if (answer.decision === 'sandbox' && answer.sandbox) {
    const updatedInput = { ...answer.sandbox.input, command: answer.sandbox.command };
    return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: answer.reason, updatedInput } };
  }
  if (answer.decision === 'allow' && answer.enforced) {
    const updatedInput = { ...answer.enforced.input, command: answer.enforced.command };
    return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: answer.reason, updatedInput } };
  }
  // Only Claude Code renders sandbox (hook.ts turns it into ask for the others).
  const decision = answer.decision === 'sandbox' ? 'ask' : answer.decision;
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: answer.reason } };
}

export function renderClaudeShaped(answer: HookAnswer | null, opts: RenderOptions): Rendered {
  if (!answer || (answer.decision === 'allow' && !answer.enforced)) return ALLOW;
  if (opts.exitCode) return { stdout: '', stderr: answer.reason + '\n', code: 2 };
  return { stdout: JSON.stringify(preToolUseOutput(answer)) + '\n', stderr: '', code: 0 };
}

export const claude: HookClient = {
  name: 'claude',
  parse: (event) => parseClaudeShaped(event, PATH_FIELD, ['Bash']),
  render: renderClaudeShaped,
  canReplaceCommand: true,
};
