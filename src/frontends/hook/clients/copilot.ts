/**
 * GitHub Copilot CLI: `preToolUse` hooks in `.github/hooks/*.json`
 * (`{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": ..., "timeoutSec": 30}]}}`).
 * Sources: docs.github.com "Hooks configuration" / cli-hooks-reference and the Copilot SDK's
 * pre-tool-use page. Input: `{timestamp, cwd, toolName, toolArgs}`, where the CLI passes `toolArgs`
 * as a JSON string (the SDK as an object; both are accepted). Tools: `bash{command}`,
 * `edit{path}`, `create{path}`. Output: `{"permissionDecision": "deny", "permissionDecisionReason"}`.
 * `ask` prompts only in interactive sessions (and the CLI hook reference says only deny is
 * processed), so an ask is rendered as a deny that says so. Allow prints nothing.
 */
import { ALLOW, absCwd, askAsDeny, type HookClient, type ParsedEvent, type Rendered } from '../types.js';

const SHELL = ['bash'];
const WRITE: Record<string, string> = { edit: 'path', create: 'path' };

function parse(event: Record<string, unknown>): ParsedEvent {
  const tool = typeof event.toolName === 'string' ? event.toolName : null;
  if (tool === null) return { kind: 'ignore', note: 'hook input has no toolName; allowing' };
  if (!SHELL.includes(tool) && !(tool in WRITE)) return { kind: 'ignore' };
  let args: unknown = event.toolArgs;
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch {
      args = undefined;
    }
  }
  const name = SHELL.includes(tool) ? 'command' : WRITE[tool]!;
  const value = typeof args === 'object' && args !== null ? (args as Record<string, unknown>)[name] : undefined;
  if (typeof value !== 'string') {
    return { kind: 'drift', reason: `bashguard: the ${tool} tool call has no string toolArgs.${name}; the hook protocol may have changed, so the call is blocked (update bashguard).` };
  }
  const cwd = absCwd(event.cwd);
  return { kind: 'call', call: SHELL.includes(tool) ? { kind: 'bash', tool, command: value, cwd } : { kind: 'write', tool, paths: [value], cwd } };
}

function render(answer: Parameters<HookClient['render']>[0], opts: Parameters<HookClient['render']>[1]): Rendered {
  if (!answer || answer.decision === 'allow') return ALLOW;
  const a = askAsDeny(answer, 'Copilot CLI', 'asks only in interactive sessions');
  if (opts.exitCode) return { stdout: '', stderr: a.reason + '\n', code: 2 };
  return { stdout: JSON.stringify({ permissionDecision: a.decision, permissionDecisionReason: a.reason }) + '\n', stderr: '', code: 0 };
}

export const copilot: HookClient = { name: 'copilot', parse, render };
