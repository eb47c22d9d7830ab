/**
 * The front ends' neutral vocabulary: a ToolCall (what an agent's tool call does: a shell command,
 * or writes to files) and the answer the decision core (./decide.ts) gives it. Every hook client
 * turns its event into a ToolCall (src/frontends/hook/clients/*), the library builds one from its arguments,
 * and both render the answer in their own format.
 */
import type { Decision } from '../policy/config.js';
import type { Finding } from '../policy/policy.js';

/** One tool call, in terms of what it does: a shell command, or writes to files. */
export type ToolCall =
  | {
      kind: 'bash';
      /** The client's tool name, for messages (Bash, run_shell_command, beforeShellExecution ...). */
      tool: string;
      command: string;
      /** The session's directory (absolute; the workspace is opened here), or null for the hook process's cwd. */
      cwd: string | null;
      /** Where the command runs when the tool says so (Gemini's dir_path), absolute; default cwd. */
      runIn?: string;
      /** The client's whole tool input, opaque to the core: kept for a client that rewrites the command (`sandbox`). */
      input?: Record<string, unknown>;
      /** The client's id of this tool call (Claude Code's `tool_use_id`), when it sends one. */
      id?: string;
    }
  | {
      kind: 'write';
      tool: string;
      /** Every path the call writes, creates, deletes or moves to, as the agent wrote it. */
      paths: string[];
      cwd: string | null;
    };

/** What a client's `parse` made of one event. */
export type ParsedEvent =
  /** Analyze this call. */
  | { kind: 'call'; call: ToolCall }
  /** Not ours to judge (a read, an unknown tool): allow; `note` goes to stderr when set (fail-open reasons). */
  | { kind: 'ignore'; note?: string }
  /** An in-scope tool whose input lacks the field we need: the protocol drifted, deny with this reason. */
  | { kind: 'drift'; reason: string };

/**
 * The decision core's answer; null means allow with nothing to say. Decision `sandbox` comes with
 * `sandbox`: a client that can replace the command (`canReplaceCommand`: Claude Code's
 * `updatedInput`) allows the wrapped one; for every other client, and with `--exit-code`,
 * hook.ts turns it into ask with `sandbox.fallback` as the reason before rendering.
 */
export interface HookAnswer {
  decision: Decision;
  reason: string;
  /** The findings behind the decision (empty for config errors, drift, unfinished analyses). */
  findings?: Finding[];
  /** Without findings: which failure path answered (protocol-drift, broken-worktree ...), for the decision log. */
  kind?: string;
  sandbox?: SandboxedCommand;
  /**
   * On an allow: the command wrapped in the OS enforcement (src/layers/sandbox/enforce.ts), which a
   * client that can replace the command runs instead (Claude Code: `updatedInput`).
   */
  enforced?: { command: string; input?: Record<string, unknown>; mechanism: string };
}

export interface SandboxedCommand {
  /** The command wrapped to run in `bashguard sandbox run` (src/layers/sandbox/decision.ts). */
  command: string;
  /** The call's tool input (ToolCall.input), to be replaced with the wrapped command. */
  input?: Record<string, unknown>;
  /** The reason for clients that cannot replace the command (they ask instead). */
  fallback: string;
}

/** The answer a client that cannot replace the command gives to `sandbox`: ask, saying why. */
export function sandboxAsAsk(answer: HookAnswer): HookAnswer {
  if (answer.decision !== 'sandbox') return answer;
  return { decision: 'ask', reason: answer.sandbox?.fallback ?? answer.reason, findings: answer.findings ?? [] };
}

/** Reads a string field of an object-valued field, or undefined. */
export function field(obj: unknown, key: string): unknown {
  return typeof obj === 'object' && obj !== null && !Array.isArray(obj) ? (obj as Record<string, unknown>)[key] : undefined;
}

export function absCwd(v: unknown): string | null {
  return typeof v === 'string' && v.startsWith('/') ? v : null;
}
