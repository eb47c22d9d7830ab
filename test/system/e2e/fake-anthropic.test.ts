// Unit tests of the scripted fake Messages API (no Claude Code needed).
import { afterEach, describe, expect, it } from 'vitest';

import { startFakeAnthropic, stepOfToolUseId, type FakeAnthropic } from './fake-anthropic.js';

const bashTool = { name: 'Bash', description: 'run', input_schema: { type: 'object' } };
const writeTool = { name: 'Write', description: 'write', input_schema: { type: 'object' } };

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function post(path: string, body: unknown): Promise<Response> {
  if (!fake) throw new Error('no fake');
  return fetch(`${fake.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function parseSse(text: string): { event: string; data: Record<string, unknown> }[] {
  return text
    .split('\n\n')
    .filter((chunk) => chunk.trim())
    .map((chunk) => {
      const event = /^event: (.*)$/m.exec(chunk)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(chunk)?.[1] ?? '{}') as Record<string, unknown>;
      return { event, data };
    });
}

describe('fake Anthropic Messages API', () => {
  it('listens on loopback only', async () => {
    fake = await startFakeAnthropic({ script: [] });
    expect(fake.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('streams one scripted tool call per request as SSE, then end_turn text', async () => {
    fake = await startFakeAnthropic({
      script: [{ tool: 'Bash', input: { command: 'echo hi', description: 'd' } }],
      finalText: 'bye',
    });
    const messages: unknown[] = [{ role: 'user', content: 'go' }];
    const res1 = await post('/v1/messages?beta=true', { model: 'm', stream: true, tools: [bashTool], messages, max_tokens: 10 });
    expect(res1.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSse(await res1.text());
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const block = events[1]?.data.content_block as { type: string; id: string; name: string };
    expect(block.type).toBe('tool_use');
    expect(block.name).toBe('Bash');
    expect(stepOfToolUseId(block.id)).toBe(0);
    const delta = events[3]?.data.delta as { type: string; partial_json: string };
    expect(delta.type).toBe('input_json_delta');
    expect(JSON.parse(delta.partial_json)).toEqual({ command: 'echo hi', description: 'd' });
    expect((events[5]?.data.delta as { stop_reason: string }).stop_reason).toBe('tool_use');
    expect((events[5]?.data.usage as { output_tokens: number }).output_tokens).toBeGreaterThan(0);

    // The client answers with the tool result; the script is done: text + end_turn.
    messages.push(
      { role: 'assistant', content: [{ type: 'tool_use', id: block.id, name: 'Bash', input: { command: 'echo hi' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: block.id, content: [{ type: 'text', text: 'hi' }], is_error: false }] },
    );
    const events2 = parseSse(await (await post('/v1/messages?beta=true', { model: 'm', stream: true, tools: [bashTool], messages })).text());
    expect((events2[1]?.data.content_block as { type: string }).type).toBe('text');
    expect((events2[2]?.data.delta as { text: string }).text).toBe('bye');
    expect((events2.find((e) => e.event === 'message_delta')?.data.delta as { stop_reason: string }).stop_reason).toBe('end_turn');

    expect(fake.stepsServed()).toBe(1);
    expect(fake.toolResults()).toEqual([{ tool_use_id: block.id, step: 0, is_error: false, text: 'hi' }]);
    expect(fake.requests.map((r) => r.kind)).toEqual(['tool_call', 'text']);
  });

  it('answers non-streaming requests with a plain JSON message, and repeats a step on retry', async () => {
    fake = await startFakeAnthropic({ script: [{ tool: 'Write', input: { file_path: '/x', content: 'y' } }] });
    const body = { model: 'm', tools: [bashTool, writeTool], messages: [{ role: 'user', content: 'go' }] };
    for (let i = 0; i < 2; i++) {
      const res = await post('/v1/messages', body);
      const msg = (await res.json()) as { type: string; stop_reason: string; content: { type: string; name: string; input: unknown }[] };
      expect(msg.type).toBe('message');
      expect(msg.stop_reason).toBe('tool_use');
      expect(msg.content[0]).toMatchObject({ type: 'tool_use', name: 'Write', input: { file_path: '/x', content: 'y' } });
    }
  });

  it('does not hand a step to requests that do not offer its tool (side requests)', async () => {
    fake = await startFakeAnthropic({ script: [{ tool: 'Write', input: { file_path: '/x', content: 'y' } }] });
    const noTools = (await (await post('/v1/messages', { model: 'haiku', messages: [{ role: 'user', content: 'title?' }] })).json()) as {
      stop_reason: string;
      content: { type: string }[];
    };
    expect(noTools.stop_reason).toBe('end_turn');
    expect(noTools.content[0]?.type).toBe('text');
    const wrongTool = (await (await post('/v1/messages', { model: 'm', tools: [bashTool], messages: [] })).json()) as { stop_reason: string };
    expect(wrongTool.stop_reason).toBe('end_turn');
    expect(fake.stepsServed()).toBe(0);
  });

  it('answers other endpoints harmlessly and records them', async () => {
    fake = await startFakeAnthropic({ script: [] });
    const ct = (await (await post('/v1/messages/count_tokens', { messages: [] })).json()) as { input_tokens: number };
    expect(ct.input_tokens).toBeGreaterThan(0);
    expect((await post('/api/event_logging/batch', { events: [] })).status).toBe(200);
    const models = await fetch(`${fake.baseUrl}/v1/models`);
    expect(((await models.json()) as { data: unknown[] }).data).toEqual([]);
    expect(fake.requests.map((r) => `${r.method} ${r.url} ${r.kind}`)).toEqual([
      'POST /v1/messages/count_tokens other',
      'POST /api/event_logging/batch other',
      'GET /v1/models other',
    ]);
  });
});
