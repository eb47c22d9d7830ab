/**
 * `bashguard hook [--agent claude|codex|gemini|cursor|copilot]`: reads one client's event JSON on
 * stdin, decides (src/hook/decide.ts, the same core for every client) and answers in that client's
 * format (src/hook/clients/*). Claude Code is the default.
 *
 * Fail-open vs fail-closed (as in the worktree-edit-guard seed):
 * - environmental failures allow and say why on stderr: empty stdin, malformed JSON, a cwd that
 *   is not a checkout, unreadable git files;
 * - protocol drift denies: an in-scope tool without its `command` / `file_path` / `notebook_path`;
 * - oversized or unanalyzable commands ask (or deny with `"unanalyzable": "deny"`), never allow;
 *   clients that ignore or reject ask get a deny that says so.
 */
import type { IO } from '../cli/io.js';
import type { BashParser } from '../parse/index.js';
import { openWorkspace } from '../workspace/index.js';
import type { Decision } from '../policy/config.js';
import { decideCall } from './decide.js';
import { claude } from './clients/claude.js';
import { sandboxAsAsk, type HookAnswer, type HookClient, type Rendered } from './types.js';

export { explainForAgent, decideCall, type DecideContext } from './decide.js';
export type { HookAnswer, HookClient, ToolCall, ParsedEvent, Rendered } from './types.js';

export interface HookOptions {
  exitCode: boolean;
  getParser: () => Promise<BashParser>;
  /**
   * Set by bin/bashguard-hook when it stopped an analysis that ran past its limit (seconds):
   * answer as for any unanalyzable call, from the event and the config alone, without parsing.
   */
  unfinished?: number;
  /** The client whose format is read and written (default: Claude Code). */
  client?: HookClient;
}

/** The largest stdin accepted; beyond it the command is unanalyzable (ask), not parsed. */
export const MAX_HOOK_INPUT = 16 * 1024 * 1024;

export async function runHook(io: IO, opts: HookOptions): Promise<number> {
  let raw: string;
  try {
    raw = await io.readStdin();
  } catch (err) {
    io.stderr(`bashguard: cannot read stdin (${(err as Error).message}); allowing\n`);
    return 0;
  }
  const answer = await decideHook(raw, io, opts);
  return emit(renderAnswer(answer, opts), io);
}

/** The client's rendering of an answer (Claude Code's when no client is given). */
export function renderAnswer(answer: HookAnswer | null, opts: { exitCode: boolean; client?: HookClient }): Rendered {
  const client = opts.client ?? claude;
  // `sandbox` needs a client that replaces the command; the others (and --exit-code) ask.
  const a = answer && answer.decision === 'sandbox' && !(client.canReplaceCommand && !opts.exitCode) ? sandboxAsAsk(answer) : answer;
  return client.render(a, { exitCode: opts.exitCode });
}

/**
 * Raw stdin -> decision, for any client (Claude Code's format by default). The stable entry point
 * for the hook's failure paths and decision log: null means allow.
 */
export async function decideHook(raw: string, io: IO, opts: Pick<HookOptions, 'getParser' | 'unfinished' | 'client'>): Promise<HookAnswer | null> {
  if (raw.trim() === '') {
    io.stderr('bashguard: empty hook input on stdin; allowing\n');
    return null;
  }
  if (raw.length > MAX_HOOK_INPUT) {
    // Not parsed (so the event's cwd is unknown): the config is looked up from the hook's own cwd,
    // so `"unanalyzable": "deny"` holds here too. Anything unexpected keeps the default, ask.
    let decision: Decision = 'ask';
    try {
      const ws = openWorkspace(io.cwd, { env: io.env });
      if (!ws.skipped && ws.config.unanalyzable === 'deny') decision = 'deny';
    } catch {
      // invalid config or unreadable git files: ask
    }
    return { decision, reason: `bashguard could not analyze this call: the hook input is ${raw.length} bytes, over the ${MAX_HOOK_INPUT}-byte limit.`, findings: [] };
  }
  let event: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
    event = parsed as Record<string, unknown>;
  } catch (err) {
    io.stderr(`bashguard: hook input is not valid JSON (${(err as Error).message}); allowing\n`);
    return null;
  }
  const parsed = (opts.client ?? claude).parse(event);
  if (parsed.kind === 'ignore') {
    if (parsed.note) io.stderr(`bashguard: ${parsed.note}\n`);
    return null;
  }
  if (parsed.kind === 'drift') return { decision: 'deny', reason: parsed.reason, findings: [] };
  return decideCall(parsed.call, { stderr: (t) => io.stderr(t), env: io.env, cwd: io.cwd, getParser: opts.getParser, unfinished: opts.unfinished });
}

function emit(r: Rendered, io: IO): number {
  if (r.stderr) io.stderr(r.stderr);
  if (r.stdout) io.stdout(r.stdout);
  return r.code;
}
