/**
 * Cursor: `beforeShellExecution` hooks in `.cursor/hooks.json` or `~/.cursor/hooks.json`
 * (`{"version": 1, "hooks": {"beforeShellExecution": [{"command": ...}]}}`).
 * Sources: cursor.com/docs/agent/hooks; field names cross-checked with cupcake.eqtylab.io and the
 * `cursor-hooks` npm type definitions (third party). Input: `{conversation_id, generation_id,
 * hook_event_name: "beforeShellExecution", workspace_roots, command, cwd}`. Output: `{"permission":
 * "allow" | "deny" | "ask", "user_message", "agent_message"}`; exit 2 also denies.
 * `ask` is reported to be ignored (the command runs) in Cursor's auto-review mode (forum topic
 * 173694), so an ask is rendered as a deny that says so. Allow answers `{"permission": "allow"}`.
 * File edits have only `afterFileEdit` (after the fact), so they are not judged here.
 */
import { absCwd, askAsDeny, type HookClient, type ParsedEvent, type Rendered } from '../types.js';

const SHELL_EVENT = 'beforeShellExecution';

function parse(event: Record<string, unknown>): ParsedEvent {
  const name = event.hook_event_name;
  if (name !== undefined && name !== SHELL_EVENT) return { kind: 'ignore' };
  if (typeof event.command !== 'string') {
    return { kind: 'drift', reason: `bashguard: the ${SHELL_EVENT} event has no string command; the hook protocol may have changed, so the call is blocked (update bashguard).` };
  }
  return { kind: 'call', call: { kind: 'bash', tool: SHELL_EVENT, command: event.command, cwd: absCwd(event.cwd) } };
}

function render(answer: Parameters<HookClient['render']>[0], opts: Parameters<HookClient['render']>[1]): Rendered {
  if (!answer || answer.decision === 'allow') return { stdout: JSON.stringify({ permission: 'allow' }) + '\n', stderr: '', code: 0 };
  const a = askAsDeny(answer, 'Cursor', 'ignores "ask" in its auto-review mode (it would run the command)');
  if (opts.exitCode) return { stdout: '', stderr: a.reason + '\n', code: 2 };
  return { stdout: JSON.stringify({ permission: a.decision, user_message: a.reason, agent_message: a.reason }) + '\n', stderr: '', code: 0 };
}

export const cursor: HookClient = { name: 'cursor', parse, render };
