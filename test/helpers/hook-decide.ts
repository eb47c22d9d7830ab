/**
 * The hook's decision for one Bash command, through `decideHook` (the same path as
 * `bashguard hook`): no answer means allow.
 */
import { decideHook } from '../../src/frontends/hook/hook.js';
import { memoryIO } from './memory-io.js';
import type { BashParser } from '../../src/engine/parse/index.js';
import type { Decision } from '../../src/policy/config.js';

export interface HookRun {
  decision: Decision;
  reason: string;
  ms: number;
}

export async function hookDecision(
  parser: BashParser,
  command: string,
  cwd: string,
  env: Record<string, string | undefined> = {},
  raw?: string,
): Promise<HookRun> {
  const m = memoryIO({ env: { HOME: process.env.HOME, ...env }, cwd });
  const input = raw ?? JSON.stringify({ tool_name: 'Bash', tool_input: { command }, cwd, hook_event_name: 'PreToolUse' });
  const t0 = performance.now();
  const answer = await decideHook(input, m.io, { getParser: async () => parser });
  const ms = performance.now() - t0;
  return { decision: answer?.decision ?? 'allow', reason: answer?.reason ?? m.err(), ms };
}
