/** The `--agent` names, without loading any client (the hook checks `--agent` before anything loads). */
export const AGENT_NAME_LIST = ['claude', 'codex', 'gemini', 'cursor', 'copilot'] as const;
