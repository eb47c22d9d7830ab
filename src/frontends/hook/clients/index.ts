/**
 * The hook clients by `--agent` name. A new client: one file here (its `parse` and `render`), its
 * name in ./names.ts (checked before anything loads), one entry below, and its hook config for
 * `install` (AGENT_CONFIGS in src/frontends/cli/install-agents.ts): docs/architecture.md, "Adding an agent client".
 */
import type { HookClient } from '../types.js';
import { claude } from './claude.js';
import { codex } from './codex.js';
import { gemini } from './gemini.js';
import { cursor } from './cursor.js';
import { copilot } from './copilot.js';
import { withForeignCheck } from './detect.js';
import { AGENT_NAME_LIST } from './names.js';

const PLAIN: Record<string, HookClient> = { claude, codex, gemini, cursor, copilot };
/** Each client with the check that answers another client's event with an error (./detect.ts). */
export const CLIENTS: Record<string, HookClient> = Object.fromEntries(Object.entries(PLAIN).map(([k, c]) => [k, withForeignCheck(c, PLAIN)]));
export type AgentName = (typeof AGENT_NAME_LIST)[number];
export const AGENT_NAMES = [...AGENT_NAME_LIST] as AgentName[];

export function clientByName(name: string): HookClient | null {
  return Object.hasOwn(CLIENTS, name) ? CLIENTS[name]! : null;
}
