/**
 * Google Gemini CLI: `BeforeTool` hooks in `.gemini/settings.json` (also `~/.gemini/` and
 * `/etc/gemini-cli/settings.json`).
 * Sources: google-gemini/gemini-cli `docs/hooks/reference.md`; the shipped `@google/gemini-cli`
 * tool declarations (`base-declarations.ts`): `run_shell_command{command, description, dir_path,
 * is_background}`, `write_file{file_path, content}`, `replace{file_path, old_string, new_string,
 * ...}`. Input: `{session_id, transcript_path, cwd, hook_event_name: "BeforeTool", timestamp,
 * tool_name, tool_input}`; `dir_path` is resolved against `cwd` when relative.
 * Output: `{"decision": "deny", "reason": ...}` (allow / deny / block / ask); exit 2 blocks with
 * stderr as the reason; invalid JSON or no output means allow.
 * `ask` (shipped 0.61.0: BeforeTool `isAskDecision()` forces the scheduler's ASK_USER) waits for a
 * confirmation that a headless `gemini -p --yolo` never gets: measured, the run hung until killed.
 * So an ask is rendered as a deny that says so (unattended runs are the main use).
 */

import { resolvePath } from '../../../util/under.js';
import { ALLOW, absCwd, askAsDeny, field, type HookClient, type ParsedEvent, type Rendered } from '../types.js';

const SHELL = 'run_shell_command';
const WRITE: Record<string, string> = { write_file: 'file_path', replace: 'file_path' };

function parse(event: Record<string, unknown>): ParsedEvent {
  const tool = typeof event.tool_name === 'string' ? event.tool_name : null;
  if (tool === null) return { kind: 'ignore', note: 'hook input has no tool_name; allowing' };
  if (tool !== SHELL && !(tool in WRITE)) return { kind: 'ignore' };
  const name = tool === SHELL ? 'command' : WRITE[tool]!;
  const value = field(event.tool_input, name);
  if (typeof value !== 'string') {
    return { kind: 'drift', reason: `bashguard: the ${tool} tool call has no string tool_input.${name}; the hook protocol may have changed, so the call is blocked (update bashguard).` };
  }
  const base = absCwd(event.cwd);
  if (tool !== SHELL) return { kind: 'call', call: { kind: 'write', tool, paths: [value], cwd: base } };
  const dir = field(event.tool_input, 'dir_path');
  const runIn = typeof dir === 'string' && dir !== '' ? (dir.startsWith('/') ? dir : base ? resolvePath(base, dir) : undefined) : undefined;
  return { kind: 'call', call: { kind: 'bash', tool, command: value, cwd: base, ...(runIn ? { runIn } : {}) } };
}

function render(answer: Parameters<HookClient['render']>[0], opts: Parameters<HookClient['render']>[1]): Rendered {
  if (!answer || answer.decision === 'allow') return ALLOW;
  const a = askAsDeny(answer, 'Gemini CLI', 'waits forever for a confirmation in headless runs');
  if (opts.exitCode) return { stdout: '', stderr: a.reason + '\n', code: 2 };
  return { stdout: JSON.stringify({ decision: a.decision, reason: a.reason }) + '\n', stderr: '', code: 0 };
}

export const gemini: HookClient = { name: 'gemini', parse, render };
