/**
 * A scripted, offline stand-in for the Anthropic Messages API, for driving the
 * real Claude Code client in end-to-end tests.
 *
 * - Listens on 127.0.0.1 only, on an ephemeral port. Never talks to anything else.
 * - `POST /v1/messages` (with or without `?beta=true`): if the request offers the
 *   tool of the next scripted step (checked against `tools[].name` in the body),
 *   answers with exactly one `tool_use` block for that step and
 *   `stop_reason: "tool_use"`; otherwise (script exhausted, tool not offered, or a
 *   side request such as title generation / quota check / summaries that comes
 *   without tools) answers with a short text block and `stop_reason: "end_turn"`.
 *   Streaming (`stream: true`) answers are server-sent events in the same order
 *   the real API sends them; non-streaming answers are a plain JSON message.
 * - Which step comes next is derived from the conversation itself: the number of
 *   `tool_use` blocks with our id prefix in the request's `messages`. So a retried
 *   request gets the same step again, and an unrelated side request that carries
 *   no conversation never consumes a step.
 * - `POST /v1/messages/count_tokens` answers `{input_tokens: ...}`; every other
 *   endpoint answers `200 {}` (GET `/v1/models` an empty list). Everything is
 *   recorded in `requests` so tests can assert what the agent saw.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptStep {
  /** Tool name as Claude Code exposes it: 'Bash', 'Write', 'Edit', 'Read', ... */
  tool: string;
  /** The tool input, sent verbatim as the tool_use block's input. */
  input: Record<string, unknown>;
}

export type RequestKind =
  /** A /v1/messages request answered with a scripted tool call. */
  | 'tool_call'
  /** A /v1/messages request answered with text + end_turn. */
  | 'text'
  /** count_tokens or any other endpoint. */
  | 'other';

export interface RecordedRequest {
  seq: number;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, or the raw string if it was not JSON (undefined if empty). */
  body: unknown;
  kind: RequestKind;
  /** For kind 'tool_call': which script step was answered. */
  step?: number;
  /** For /v1/messages: the tool names offered in the request. */
  tools?: string[];
  stream?: boolean;
}

export interface ToolResultSeen {
  tool_use_id: string;
  /** Script step index the tool_use_id belongs to (from our id scheme), or -1. */
  step: number;
  is_error: boolean;
  /** The tool_result content flattened to text. */
  text: string;
}

export interface FakeAnthropic {
  readonly port: number;
  /** e.g. http://127.0.0.1:PORT — for ANTHROPIC_BASE_URL. */
  readonly baseUrl: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Highest script step answered so far + 1 (i.e. how many steps were handed out). */
  stepsServed(): number;
  /**
   * All tool_result blocks seen in any /v1/messages request, deduplicated by
   * tool_use_id (the last request that carried a given id wins).
   */
  toolResults(): ToolResultSeen[];
  close(): Promise<void>;
}

export interface FakeAnthropicOptions {
  script: ScriptStep[];
  /** Text of the final answer once the script is done. */
  finalText?: string;
  /** Called with one line per request (for debugging; default: silent). */
  log?: (line: string) => void;
}

/** Prefix of every tool_use id we hand out: `toolu_bg<step>_<counter>`. */
const ID_PREFIX = 'toolu_bg';
const ID_RE = /^toolu_bg(\d+)_/;

/** The script step a tool_use id handed out by this server belongs to, or -1. */
export function stepOfToolUseId(id: string): number {
  const m = ID_RE.exec(id);
  return m ? Number(m[1]) : -1;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

type Json = Record<string, unknown>;

function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function contentBlocks(msg: unknown): Json[] {
  if (!isObj(msg)) return [];
  const c = msg.content;
  return Array.isArray(c) ? c.filter(isObj) : [];
}

function flattenToolResultContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((b) => (isObj(b) && typeof b.text === 'string' ? b.text : JSON.stringify(b)))
      .join('\n');
  }
  return content === undefined ? '' : JSON.stringify(content);
}

/** Rough token estimate so usage numbers look plausible. */
function estimateTokens(raw: string): number {
  return Math.max(1, Math.ceil(raw.length / 4));
}

export async function startFakeAnthropic(opts: FakeAnthropicOptions): Promise<FakeAnthropic> {
  const { script } = opts;
  const finalText = opts.finalText ?? 'Done.';
  const log = opts.log ?? (() => {});
  const requests: RecordedRequest[] = [];
  let seq = 0;
  let idCounter = 0;
  let maxStepServed = -1;

  const sendJson = (res: ServerResponse, status: number, body: unknown): void => {
    const data = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(data),
      'request-id': `req_bg_${seq}`,
    });
    res.end(data);
  };

  const handleMessages = (rec: RecordedRequest, body: Json, raw: string, res: ServerResponse): void => {
    const tools = Array.isArray(body.tools)
      ? body.tools.filter(isObj).map((t) => String(t.name ?? ''))
      : [];
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const model = typeof body.model === 'string' ? body.model : 'claude-fake';
    const stream = body.stream === true;
    rec.tools = tools;
    rec.stream = stream;

    // Which step are we at? Count our tool_use blocks already in the conversation.
    let used = 0;
    for (const m of messages) {
      if (!isObj(m) || m.role !== 'assistant') continue;
      for (const b of contentBlocks(m)) {
        if (b.type === 'tool_use' && typeof b.id === 'string' && b.id.startsWith(ID_PREFIX)) used++;
      }
    }
    const next = script[used];
    const inputTokens = estimateTokens(raw);
    const msgId = `msg_bg_${rec.seq}`;

    let block: Json;
    let stopReason: string;
    if (next && tools.includes(next.tool)) {
      rec.kind = 'tool_call';
      rec.step = used;
      maxStepServed = Math.max(maxStepServed, used);
      block = { type: 'tool_use', id: `${ID_PREFIX}${used}_${++idCounter}`, name: next.tool, input: next.input };
      stopReason = 'tool_use';
    } else {
      rec.kind = 'text';
      // Side requests (title, summary, quota, ...) get a short neutral text; the
      // main loop gets finalText once the script is done.
      const isMainLoop = tools.length > 0;
      const text = isMainLoop ? (next ? `Tool ${next.tool} not offered; stopping.` : finalText) : 'ok';
      block = { type: 'text', text };
      stopReason = 'end_turn';
    }
    log(
      `#${rec.seq} ${rec.method} ${rec.url} model=${model} stream=${stream} tools=${tools.length} msgs=${messages.length} -> ` +
        (rec.kind === 'tool_call' ? `step ${rec.step} ${next?.tool}` : 'text'),
    );

    const outputTokens = 10;
    if (!stream) {
      sendJson(res, 200, {
        id: msgId,
        type: 'message',
        role: 'assistant',
        model,
        content: [block],
        stop_reason: stopReason,
        stop_sequence: null,
        usage: { input_tokens: inputTokens, output_tokens: outputTokens },
      });
      return;
    }

    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'request-id': `req_bg_${rec.seq}`,
    });
    const ev = (event: string, data: Json): void => {
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    ev('message_start', {
      type: 'message_start',
      message: {
        id: msgId,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: inputTokens, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    });
    if (block.type === 'tool_use') {
      ev('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      ev('ping', { type: 'ping' });
      ev('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    } else {
      ev('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
      ev('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: String(block.text) },
      });
    }
    ev('content_block_stop', { type: 'content_block_stop', index: 0 });
    ev('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: outputTokens },
    });
    ev('message_stop', { type: 'message_stop' });
    res.end();
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      let body: unknown = undefined;
      if (raw.length > 0) {
        try {
          body = JSON.parse(raw);
        } catch {
          body = raw;
        }
      }
      const url = req.url ?? '/';
      const path = url.split('?')[0] ?? '/';
      const rec: RecordedRequest = {
        seq: ++seq,
        method: req.method ?? 'GET',
        url,
        headers: { ...req.headers },
        body,
        kind: 'other',
      };
      requests.push(rec);

      if (rec.method === 'POST' && path === '/v1/messages') {
        if (!isObj(body)) {
          sendJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'body must be JSON' } });
          return;
        }
        handleMessages(rec, body, raw, res);
        return;
      }
      log(`#${rec.seq} ${rec.method} ${url} -> other`);
      if (path === '/v1/messages/count_tokens') {
        sendJson(res, 200, { input_tokens: estimateTokens(raw) });
      } else if (rec.method === 'GET' && path === '/v1/models') {
        sendJson(res, 200, { data: [], has_more: false, first_id: null, last_id: null });
      } else if (rec.method === 'HEAD') {
        res.writeHead(200);
        res.end();
      } else {
        sendJson(res, 200, {});
      }
    })().catch((err: unknown) => {
      log(`handler error: ${String(err)}`);
      if (!res.headersSent) sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: String(err) } });
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    stepsServed: () => maxStepServed + 1,
    toolResults(): ToolResultSeen[] {
      const byId = new Map<string, ToolResultSeen>();
      for (const r of requests) {
        if (r.kind === 'other' || !isObj(r.body) || !Array.isArray(r.body.messages)) continue;
        for (const m of r.body.messages) {
          if (!isObj(m) || m.role !== 'user') continue;
          for (const b of contentBlocks(m)) {
            if (b.type !== 'tool_result' || typeof b.tool_use_id !== 'string') continue;
            byId.set(b.tool_use_id, {
              tool_use_id: b.tool_use_id,
              step: stepOfToolUseId(b.tool_use_id),
              is_error: b.is_error === true,
              text: flattenToolResultContent(b.content),
            });
          }
        }
      }
      return [...byId.values()].sort((a, b) => a.step - b.step);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
