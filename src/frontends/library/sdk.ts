/**
 * A ready PreToolUse callback for the Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`):
 *
 *   import { query } from '@anthropic-ai/claude-agent-sdk';
 *   import { bashguardHook, BASHGUARD_MATCHER } from 'bashguard';
 *   query({ prompt, options: { cwd: worktree, hooks: { PreToolUse: [
 *     { matcher: BASHGUARD_MATCHER, hooks: [bashguardHook({ worktree, env: process.env })] },
 *   ] } } });
 *
 * The types below are structural, written against the SDK's `sdk.d.ts` (`HookCallback`,
 * `PreToolUseHookInput`, `SyncHookJSONOutput`, `PreToolUseHookSpecificOutput`) without importing
 * it: bashguard does not depend on the SDK. test/system/library/sdk-hook.test.ts type-checks the callback against
 * the real SDK types. Decisions are the hook's: deny and ask carry `permissionDecisionReason`
 * (the hook's text); allow answers `{}` (no opinion: the SDK's own permission rules apply).
 */
import { createGuard, type Guard, type GuardOptions, type GuardResult } from './guard.js';

/** The tools bashguard judges (Claude Code's names). */
export const BASHGUARD_MATCHER = 'Bash|Edit|Write|MultiEdit|NotebookEdit';

/** What the callback reads of the SDK's hook input (any HookInput is accepted). */
export interface AgentHookInput {
  hook_event_name: string;
  cwd?: string;
  tool_name?: unknown;
  tool_input?: unknown;
}

/** The callback's answer: a SyncHookJSONOutput (empty for allow). */
export interface AgentHookOutput {
  hookSpecificOutput?: {
    hookEventName: 'PreToolUse';
    permissionDecision: 'deny' | 'ask';
    permissionDecisionReason: string;
  };
}

export type BashguardHookOptions = (GuardOptions | { guard: Guard }) & {
  /** Called with each decision that is not an allow (logging, metrics). */
  onDecision?: (result: GuardResult, input: AgentHookInput) => void;
};

export type AgentHookCallback = (input: AgentHookInput, toolUseID: string | undefined, options: { signal: AbortSignal }) => Promise<AgentHookOutput>;

/** A PreToolUse hook callback bound to one worktree (the guard is created once, here). */
export function bashguardHook(opts: BashguardHookOptions): AgentHookCallback {
  const guard = 'guard' in opts ? opts.guard : createGuard(opts);
  return async (input) => {
    if (input.hook_event_name !== 'PreToolUse' || typeof input.tool_name !== 'string') return {};
    const cwd = typeof input.cwd === 'string' && input.cwd.startsWith('/') ? input.cwd : undefined;
    const result = await guard.checkToolUse(input.tool_name, input.tool_input, { cwd });
    if (result.decision === 'allow') return {};
    opts.onDecision?.(result, input);
    return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: result.decision, permissionDecisionReason: result.reason } };
  };
}
