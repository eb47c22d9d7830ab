/**
 * Install and drive the REAL Gemini CLI (`@google/gemini-cli`) offline, against a scripted Gemini
 * API on loopback. What the client needs (learned by experiment with 0.61.0, Linux x64, Node 20):
 *
 * - `GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:PORT` (http allowed for loopback) and
 *   `GEMINI_API_KEY=<anything>`, with `security.auth.selectedType: "gemini-api-key"` in
 *   `$HOME/.gemini/settings.json` (else: "Invalid auth method selected", exit 41).
 * - The folder must be trusted (`$HOME/.gemini/trustedFolders.json`: `{"<dir>": "TRUST_FOLDER"}`),
 *   else `--yolo` is overridden to "default" and project settings are not trusted.
 * - Requests: one `:generateContent` to a flash-lite model (the router, asking for JSON; a bad
 *   answer only logs "NumericalClassifierStrategy failed"), then `:streamGenerateContent?alt=sse`
 *   per turn. Each tool result comes back as a `functionResponse` part: `{output}` when the tool
 *   ran, `{error: "Tool execution blocked: <reason>"}` when a BeforeTool hook denied it.
 * - `gemini -p PROMPT --yolo --output-format json` prints `{session_id, response, stats}`;
 *   `stats.tools.byName.<tool>.fail` counts blocked calls.
 * Install: `npm install @google/gemini-cli@VERSION` into `$BASHGUARD_E2E_GEMINI_CACHE` (default
 * `$TMPDIR/bashguard-e2e-gemini/<version>`), outside the repo, into a temp dir renamed into place.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const GEMINI_CLI_VERSION = '0.61.0';

export function geminiEntry(): string | null {
  const root = join(process.env.BASHGUARD_E2E_GEMINI_CACHE || join(tmpdir(), 'bashguard-e2e-gemini'), GEMINI_CLI_VERSION);
  const entry = join(root, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
  if (existsSync(entry)) return entry;
  mkdirSync(join(root, '..'), { recursive: true });
  const tmp = mkdtempSync(`${root}.tmp-`);
  try {
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', tmp, `@google/gemini-cli@${GEMINI_CLI_VERSION}`], { stdio: 'ignore', timeout: 600_000 });
    if (!existsSync(root)) renameSync(tmp, root);
  } catch {
    return null;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return existsSync(entry) ? entry : null;
}

/** One model turn: call a tool, or answer with text. */
export type Step = { tool: string; args: Record<string, unknown> } | { text: string };

export interface FakeGemini {
  url: string;
  /** The functionResponse parts the client sent back, in order. */
  responses: { name: string; response: Record<string, unknown> }[];
  close(): Promise<void>;
}

/** A scripted Gemini API: turn N (N = functionResponses so far) answers with script[N]. */
export function fakeGemini(script: Step[]): Promise<FakeGemini> {
  const responses: FakeGemini['responses'] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      let j: { contents?: { parts?: { functionResponse?: { name: string; response: Record<string, unknown> } }[] }[]; generationConfig?: Record<string, unknown> } = {};
      try {
        j = JSON.parse(body);
      } catch {
        // not JSON: answer with text
      }
      if (req.url?.includes(':countTokens')) return void res.setHeader('content-type', 'application/json').end('{"totalTokens":10}');
      const fr = (j.contents ?? []).flatMap((c) => (c.parts ?? []).filter((p) => p.functionResponse).map((p) => p.functionResponse!));
      const wantsJson = Boolean(j.generationConfig?.responseMimeType === 'application/json' || j.generationConfig?.responseJsonSchema || j.generationConfig?.responseSchema);
      let parts: unknown[];
      if (wantsJson) parts = [{ text: '{"complexity_reasoning":"simple","complexity_score":10}' }];
      else {
        if (req.url?.includes('streamGenerateContent')) responses.splice(0, responses.length, ...fr);
        const step = script[fr.length] ?? { text: 'done' };
        parts = 'tool' in step ? [{ functionCall: { name: step.tool, args: step.args } }] : [{ text: step.text }];
      }
      const payload = { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 5, totalTokenCount: 10 } };
      if (req.url?.includes('alt=sse')) res.setHeader('content-type', 'text/event-stream').end(`data: ${JSON.stringify(payload)}\n\n`);
      else res.setHeader('content-type', 'application/json').end(JSON.stringify(payload));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      resolve({ url: `http://127.0.0.1:${port}`, responses, close: () => new Promise((r) => server.close(() => r())) });
    }),
  );
}

/** Runs `gemini -p` in `cwd` with a scratch HOME; the environment is built from scratch. */
export function runGemini(entry: string, opts: { cwd: string; home: string; url: string; timeoutMs?: number }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [entry, '-p', 'do the task', '--yolo', '--output-format', 'json'], {
      cwd: opts.cwd,
      env: { PATH: process.env.PATH, HOME: opts.home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: opts.url, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
