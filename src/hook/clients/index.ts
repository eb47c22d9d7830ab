/**
 * The hook clients by `--agent` name. A new client: one file here (its `parse` and `render`), one
 * entry below, and its hook config for `install` (AGENT_CONFIGS in src/cli/install-agents.ts):
 * docs/architecture.md, "Adding an agent client".
 */
import type { HookClient } from '../types.js';
import { claude } from './claude.js';
import { codex } from './codex.js';
import { gemini } from './gemini.js';
import { cursor } from './cursor.js';
import { copilot } from './copilot.js';

export const CLIENTS = { claude, codex, gemini, cursor, copilot } satisfies Record<string, HookClient>;
export type AgentName = keyof typeof CLIENTS;
export const AGENT_NAMES = Object.keys(CLIENTS) as AgentName[];

export function clientByName(name: string): HookClient | null {
  return Object.hasOwn(CLIENTS, name) ? CLIENTS[name as AgentName] : null;
}
