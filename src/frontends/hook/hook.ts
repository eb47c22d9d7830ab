/**
 * `bashguard hook [--agent claude|codex|gemini|cursor|copilot]`: reads one client's event JSON on
 * stdin, decides (src/frontends/decide.ts, the same core for every client) and answers in that client's
 * format (src/frontends/hook/clients/*). Claude Code is the default.
 *
 * Fail closed where the agent could have caused the failure, open only where it could not (issue
 * #12; every path is listed in docs/limits.md "Failure paths", tested in test/system/failure-paths.test.ts):
 * - open (allow, reason on stderr): empty stdin, malformed JSON, no tool_name, a session outside
 *   any git checkout, a plain checkout (the client or a person made those, not the agent);
 * - deny: protocol drift (an in-scope tool without its `command` / `file_path` / `notebook_path`),
 *   broken git files around the worktree (a `.git` file the agent could have rewritten or
 *   deleted), an invalid or unreadable worktree `.bashguard.json` (the agent can write it);
 * - ask (deny with `"unanalyzable": "deny"`; clients that cannot ask get deny): oversized or
 *   unanalyzable commands, a run-away analysis, an internal error or a parser that cannot load,
 *   an invalid trusted config (a person's file).
 * Every non-allow answer is appended to the decision log (src/layers/log/decisions.ts).
 */
import type { IO } from '../io.js';
import type { BashParser } from '../../engine/parse/index.js';
import { openWorkspace } from '../../policy/workspace/index.js';
import type { Decision } from '../../policy/config.js';
import { decideCall, unfinishedAnswer, unfinishedReason } from '../decide.js';
import { WARM_UP, warmUp } from './warm-up.js';
import { dropKeptEvent, keepEvent, keptEventFile, takeKeptEvent } from './kept-event.js';
import { claude } from './clients/claude.js';
import { sandboxAsAsk, type HookAnswer, type HookClient, type Rendered } from './types.js';
import { appendDecision, isoTime } from '../../layers/log/decisions.js';
import { mark, stagesLine } from '../../runtime/index.js';

export { explainForAgent, decideCall, type DecideContext } from '../decide.js';
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
  /**
   * Set by bin/bashguard-hook (its shell's pid): keep the event for the supervisor while
   * analysing (./kept-event.ts); with `unfinished`, take the event kept under this token.
   */
  keepEvent?: string;
  /** Called with the event once read (`hook --unsupervised` hands it to its restart: src/frontends/cli/hook-main.ts, src/util/time-limit.ts). */
  onInput?: (raw: string) => void;
}

/** The largest stdin accepted; beyond it the command is unanalyzable (ask), not parsed. */
export const MAX_HOOK_INPUT = 16 * 1024 * 1024;

export async function runHook(io: IO, opts: HookOptions): Promise<number> {
  let raw: string;
  mark('modules');
  const kept = opts.keepEvent !== undefined ? keptEventFile(io.env, opts.keepEvent) : null;
  try {
    raw = (kept && opts.unfinished !== undefined ? takeKeptEvent(kept) : null) ?? (await io.readStdin());
    mark('stdin');
  } catch (err) {
    io.stderr(`bashguard: cannot read stdin (${(err as Error).message}); allowing\n`);
    return 0;
  }
  if (kept && opts.unfinished === undefined) keepEvent(kept, raw);
  opts.onInput?.(raw);
  const info: EventInfo = { session: null, cwd: null, tool: null, value: null };
  let answer: HookAnswer | null;
  try {
    // A stopped analysis whose event was not kept: still never an allow (the supervisor asked).
    // The OS enforcement of allowed calls needs a client that runs a replaced command.
    const enforce = (opts.client ?? claude).canReplaceCommand === true && !opts.exitCode;
    answer = opts.unfinished !== undefined && raw.trim() === '' ? unfinishedWithoutEvent(io, opts.unfinished) : await decideHook(raw, io, { ...opts, enforce }, info);
  } catch (err) {
    // Never a silent allow: an internal failure (a parser that cannot load included) is answered
    // as an unanalyzable call, and logged.
    answer = { decision: 'ask', reason: `bashguard could not analyze this call (internal error: ${(err as Error).message.split('\n')[0]})`, findings: [] };
  }
  if (answer && answer.decision !== 'allow') logDecision(io, answer, info, opts.client?.name ?? 'claude');
  mark('log');
  const code = emit(renderAnswer(answer, opts), io);
  if (kept && opts.unfinished === undefined) dropKeptEvent(kept);
  mark('answer');
  const stages = stagesLine();
  if (stages) io.stderr(stages);
  // This process writes the code cache at exit: first run the typical calls, so that the cache
  // covers them too (./warm-up.ts). The answer is already out.
  const g = globalThis as Record<symbol, unknown>;
  if (g[WARM_UP] === true && opts.unfinished === undefined) {
    g[WARM_UP] = false;
    try {
      await warmUp(io, info.cwd, opts.getParser, (a) => renderAnswer(a, opts));
    } catch {
      // a training run only
    }
  }
  return code;
}

/** What the decision log records of the event (filled in by decideHook as far as it gets). */
export interface EventInfo {
  session: string | null;
  cwd: string | null;
  tool: string | null;
  /** The Bash command, or the path(s) of a file tool, as the client's parser told them apart. */
  value: { command: string } | { path: string } | null;
}

function logDecision(io: IO, answer: HookAnswer, info: EventInfo, client: string): void {
  const rules = [...new Set((answer.findings ?? []).map((f) => f.rule as string))];
  const err = appendDecision(io.env, {
    time: isoTime(Date.now()),
    session: info.session ?? io.env.CLAUDE_CODE_SESSION_ID ?? null,
    cwd: info.cwd,
    tool: info.tool,
    ...(info.value === null ? {} : 'path' in info.value ? info.value : { command: info.value.command.length > 4096 ? info.value.command.slice(0, 4096) + '...' : info.value.command }),
    decision: answer.decision as 'ask' | 'deny' | 'sandbox',
    rules: rules.length ? rules : answer.kind ? [answer.kind] : [],
    // The whole reason the agent was given (bounded like the command): `logs --json` shows it as given.
    reason: answer.reason.length > 8192 ? answer.reason.slice(0, 8192) + '...' : answer.reason,
    entrypoint: io.env.CLAUDE_CODE_ENTRYPOINT ?? null,
    attended: io.env.CLAUDE_CODE_SESSION_ATTENDED ?? null,
    ...(client === 'claude' ? {} : { client }),
  });
  if (err) io.stderr(`bashguard: ${err}\n`);
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
export async function decideHook(raw: string, io: IO, opts: Pick<HookOptions, 'getParser' | 'unfinished' | 'client'> & { enforce?: boolean }, info?: EventInfo): Promise<HookAnswer | null> {
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
    return { decision, reason: `bashguard could not analyze this call: the hook input is ${raw.length} bytes, over the ${MAX_HOOK_INPUT}-byte limit.`, findings: [], kind: 'input-too-large' };
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
  if (info) {
    info.session = typeof event.session_id === 'string' ? event.session_id : typeof event.conversation_id === 'string' ? event.conversation_id : null;
    info.cwd = typeof event.cwd === 'string' ? event.cwd : null;
    info.tool = typeof event.tool_name === 'string' ? event.tool_name : typeof event.hook_event_name === 'string' ? event.hook_event_name : null;
  }
  const parsed = (opts.client ?? claude).parse(event);
  mark('event');
  if (info && parsed.kind === 'call') {
    info.tool = parsed.call.tool;
    info.cwd = parsed.call.cwd ?? info.cwd;
    info.value = parsed.call.kind === 'bash' ? { command: parsed.call.command } : { path: parsed.call.paths.join(' ') };
  }
  if (parsed.kind === 'ignore') {
    if (parsed.note) io.stderr(`bashguard: ${parsed.note}\n`);
    return null;
  }
  if (parsed.kind === 'drift') return { decision: 'deny', reason: parsed.reason, findings: [], kind: 'protocol-drift' };
  return decideCall(parsed.call, { stderr: (t) => io.stderr(t), env: io.env, cwd: io.cwd, getParser: opts.getParser, unfinished: opts.unfinished, enforce: opts.enforce, client: (opts.client ?? claude).name });
}

/**
 * The answer to a stopped analysis when the event is gone (not kept, or unreadable): the
 * configuration at the hook's own cwd decides between ask and deny, as for an unanalyzable call.
 */
function unfinishedWithoutEvent(io: IO, seconds: number): HookAnswer {
  let decision: Decision = 'ask';
  try {
    const ws = openWorkspace(io.cwd, { env: io.env });
    if (!ws.skipped && unfinishedAnswer(ws, seconds).decision === 'deny') decision = 'deny';
  } catch {
    // invalid config or unreadable git files: ask
  }
  return { decision, reason: `${unfinishedReason(seconds)} (Its event was not kept.)`, findings: [], kind: 'analysis-stopped' };
}

function emit(r: Rendered, io: IO): number {
  if (r.stderr) io.stderr(r.stderr);
  if (r.stdout) io.stdout(r.stdout);
  return r.code;
}
