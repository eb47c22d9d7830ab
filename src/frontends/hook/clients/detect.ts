/**
 * Which client's hook protocol an event is in, from the fields only that client sends, so that an
 * event from another client than the one the hook was installed for (`--agent`) is answered with a
 * clear error instead of being taken for a tool bashguard does not judge (a silent allow).
 * Sources: each client's file here and /work/shared/research/agent-hooks.md (field names).
 */
import { AGENT_NAME_LIST } from './names.js';
import type { HookAnswer, HookClient, ParsedEvent, Rendered } from '../types.js';

type Name = (typeof AGENT_NAME_LIST)[number];

/** Claude Code's tools bashguard judges (src/frontends/hook/clients/claude.ts). */
const CLAUDE_TOOLS = new Set(['Bash', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
/** Gemini CLI's tool names (base-declarations.ts) and its events (docs/hooks/reference.md). */
const GEMINI_TOOLS = new Set(['run_shell_command', 'write_file', 'replace']);
const GEMINI_EVENTS = new Set(['BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent', 'BeforeModel', 'AfterModel', 'SessionStart', 'SessionEnd']);

/** The client whose protocol `event` is certainly in, or null when its fields do not say. */
export function protocolOf(event: Record<string, unknown>): Name | null {
  const hookEvent = typeof event.hook_event_name === 'string' ? event.hook_event_name : null;
  const tool = typeof event.tool_name === 'string' ? event.tool_name : null;
  // Copilot CLI: camelCase `toolName` / `toolArgs`, no hook_event_name.
  if (tool === null && typeof event.toolName === 'string') return 'copilot';
  // Cursor: lower-camel events (beforeShellExecution, beforeReadFile, afterFileEdit ...), and the
  // conversation fields every Cursor event carries.
  if ((hookEvent && /^(before|after)[A-Z]/.test(hookEvent)) || ('conversation_id' in event && 'workspace_roots' in event)) return 'cursor';
  if ((hookEvent && GEMINI_EVENTS.has(hookEvent)) || (tool && GEMINI_TOOLS.has(tool))) return 'gemini';
  // Codex: apply_patch is its own tool (its shell tools arrive as Claude's `Bash`).
  if (tool === 'apply_patch') return 'codex';
  if (hookEvent === 'PreToolUse' || (tool && CLAUDE_TOOLS.has(tool))) return 'claude';
  return null;
}

const LABEL: Record<Name, string> = { claude: 'Claude Code', codex: 'Codex', gemini: 'Gemini CLI', cursor: 'Cursor', copilot: 'Copilot CLI' };
const FOREIGN = 'bashguard: this hook event is in the ';

/** Why `event` cannot be judged by `client`'s adapter (it is another client's), or null. */
export function foreignReason(event: Record<string, unknown>, client: Name): string | null {
  const from = protocolOf(event);
  if (from === null || from === client) return null;
  // Codex's events are Claude-shaped (PreToolUse, tool_name, tool_input; its shell tools as
  // `Bash`): only Claude's own file tools, which Codex does not have, mark a Claude event there.
  if (client === 'codex' && from === 'claude' && !(typeof event.tool_name === 'string' && CLAUDE_TOOLS.has(event.tool_name) && event.tool_name !== 'Bash' && !('turn_id' in event))) return null;
  return `${FOREIGN}${LABEL[from]} hook format, but the hook was installed for ${LABEL[client]} (--agent ${client}); the call is blocked. Install bashguard for this client: bashguard install --agent ${from}`;
}

/**
 * `client` with the check in front of its parser: a foreign event is denied, and the denial is
 * rendered so that every client blocks it: exit code 2 with the reason on stderr (Claude Code,
 * Codex, Gemini CLI and Cursor block on exit 2: agent-hooks.md), and the sender's own deny on
 * stdout where its protocol reads one.
 */
export function withForeignCheck(client: HookClient, clients: Record<string, HookClient>): HookClient {
  const name = client.name as Name;
  return {
    ...client,
    parse(event): ParsedEvent {
      const why = foreignReason(event, name);
      return why ? { kind: 'drift', reason: why } : client.parse(event);
    },
    render(answer: HookAnswer | null, opts): Rendered {
      if (answer && answer.decision === 'deny' && answer.reason.startsWith(FOREIGN)) {
        const sender = clients[/--agent (\w+)$/.exec(answer.reason)?.[1] ?? ''];
        const theirs = sender ? sender.render(answer, { exitCode: false }).stdout : '';
        return { stdout: theirs, stderr: answer.reason + '\n', code: 2 };
      }
      return client.render(answer, opts);
    },
  };
}
