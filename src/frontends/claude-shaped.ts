/**
 * Claude's tool vocabulary (`tool_name`, `tool_input`, `cwd`), which Claude Code, Codex and the
 * Claude Agent SDK share: the hook's claude and codex clients and the library's checkToolUse turn
 * it into a neutral ToolCall here. Sources: src/frontends/hook/clients/claude.ts.
 */
import { absCwd, field, type ParsedEvent } from './tool-call.js';

export const PATH_FIELD: Record<string, string> = {
  Edit: 'file_path',
  Write: 'file_path',
  MultiEdit: 'file_path',
  NotebookEdit: 'notebook_path',
};

/** Claude-shaped events (Claude Code, Codex): tool_name / tool_input / cwd. */
export function parseClaudeShaped(event: Record<string, unknown>, pathField: Record<string, string>, shellTools: string[]): ParsedEvent {
  const tool = typeof event.tool_name === 'string' ? event.tool_name : null;
  if (tool === null) return { kind: 'ignore', note: 'hook input has no tool_name; allowing' };
  const isShell = shellTools.includes(tool);
  if (!isShell && !(tool in pathField)) return { kind: 'ignore' };
  const name = isShell ? 'command' : pathField[tool]!;
  const value = field(event.tool_input, name);
  if (typeof value !== 'string') {
    return { kind: 'drift', reason: `bashguard: the ${tool} tool call has no string tool_input.${name}; the hook protocol may have changed, so the call is blocked (update bashguard).` };
  }
  const cwd = absCwd(event.cwd);
  const input = event.tool_input as Record<string, unknown>;
  const id = typeof event.tool_use_id === 'string' ? { id: event.tool_use_id } : {};
  return { kind: 'call', call: isShell ? { kind: 'bash', tool, command: value, cwd, input, ...id } : { kind: 'write', tool, paths: [value], cwd } };
}
