/** The hook clients by `--agent` name. A new client: one file here and one line below. */
import type { HookClient } from '../types.js';
import { claude } from './claude.js';
import { codex } from './codex.js';
import { gemini } from './gemini.js';
import { cursor } from './cursor.js';
import { copilot } from './copilot.js';

export const CLIENTS: Record<string, HookClient> = { claude, codex, gemini, cursor, copilot };
export type AgentName = 'claude' | 'codex' | 'gemini' | 'cursor' | 'copilot';
export const AGENT_NAMES = Object.keys(CLIENTS) as AgentName[];

export function clientByName(name: string): HookClient | null {
  return Object.hasOwn(CLIENTS, name) ? CLIENTS[name]! : null;
}
