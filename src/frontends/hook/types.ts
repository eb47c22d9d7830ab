/**
 * The hook clients' contract: every client's event becomes a ToolCall (src/frontends/tool-call.ts),
 * the decision core (src/frontends/decide.ts) turns it into a HookAnswer, and the client renders the
 * answer in its own format. Adding a client: docs/architecture.md.
 */
import type { HookAnswer, ParsedEvent } from '../tool-call.js';

export type { ToolCall, ParsedEvent, HookAnswer, SandboxedCommand } from '../tool-call.js';
export { sandboxAsAsk, field, absCwd } from '../tool-call.js';

/** What the hook process writes and exits with. */
export interface Rendered {
  stdout: string;
  stderr: string;
  code: number;
}

export interface RenderOptions {
  /** `--exit-code`: answer with exit 2 and the reason on stderr where the client supports it. */
  exitCode: boolean;
}

export interface HookClient {
  /** The `--agent` name. */
  name: string;
  /** Turns the client's event (a parsed JSON object) into a tool call. */
  parse(event: Record<string, unknown>): ParsedEvent;
  /** Turns the decision (null: allow) into the client's answer. */
  render(answer: HookAnswer | null, opts: RenderOptions): Rendered;
  /** Whether `render` can answer `sandbox` by replacing the command (else it never sees one). */
  canReplaceCommand?: boolean;
}

export const ALLOW: Rendered = { stdout: '', stderr: '', code: 0 };

/** For clients that ignore or reject ask: deny, saying in the reason why it is not an ask. */
export function askAsDeny(answer: HookAnswer, client: string, why: string): HookAnswer {
  if (answer.decision !== 'ask') return answer;
  return { ...answer, decision: 'deny', reason: `${answer.reason}\n(bashguard would ask a person here; ${client} ${why}, so the call is blocked instead.)` };
}
