/**
 * Install and drive the REAL Codex CLI (`@openai/codex`, a native binary in the per-platform
 * package) offline, against a scripted OpenAI Responses API on loopback. Learned by experiment
 * with 0.169.0 (Linux x64):
 *
 * - `$CODEX_HOME/config.toml` with a custom provider `{base_url = "http://127.0.0.1:PORT/v1",
 *   wire_api = "responses"}`; no login needed. `codex exec --skip-git-repo-check
 *   --dangerously-bypass-approvals-and-sandbox PROMPT` runs one task; every model turn is one
 *   `POST /v1/responses` (stream: true) answered with SSE `response.created`,
 *   `response.output_item.done`, `response.completed`.
 * - The shell tool is `exec_command {cmd}`; the PreToolUse hook sees it as `tool_name: "Bash"` with
 *   `tool_input.command`. `apply_patch` was not offered offline (model metadata not found), so
 *   the patch format is covered by test/system/hook/clients.test.ts only.
 * - Hooks need `--enable hooks` and trust: unreviewed hooks are skipped silently in `exec`;
 *   `--dangerously-bypass-hook-trust` runs them without the review (what an orchestrator that
 *   vets its hooks uses). A denied call prints "Command blocked by PreToolUse hook: <reason>".
 * - The binary also reports `permissionDecision:ask` as "unsupported" (hence ask -> deny).
 * Install: `npm install @openai/codex@VERSION` into `$BASHGUARD_E2E_CODEX_CACHE` (default
 * `$TMPDIR/bashguard-e2e-codex/<version>`), outside the repo.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CODEX_VERSION = '0.169.0';

function findBinary(dir: string): string | null {
  const base = join(dir, 'node_modules', '@openai');
  if (!existsSync(base)) return null;
  for (const pkg of readdirSync(base).filter((p) => p.startsWith('codex-'))) {
    const vendor = join(base, pkg, 'vendor');
    if (!existsSync(vendor)) continue;
    for (const triple of readdirSync(vendor)) {
      const bin = join(vendor, triple, 'bin', 'codex');
      if (existsSync(bin)) return bin;
    }
  }
  return null;
}

export function codexBinary(): string | null {
  const root = join(process.env.BASHGUARD_E2E_CODEX_CACHE || join(tmpdir(), 'bashguard-e2e-codex'), CODEX_VERSION);
  const found = findBinary(root);
  if (found) return found;
  mkdirSync(join(root, '..'), { recursive: true });
  const tmp = mkdtempSync(`${root}.tmp-`);
  try {
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', tmp, `@openai/codex@${CODEX_VERSION}`], { stdio: 'ignore', timeout: 600_000 });
    if (!existsSync(root)) renameSync(tmp, root);
  } catch {
    return null;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return findBinary(root);
}

export type Step = { tool: string; args: Record<string, unknown> } | { text: string };

export interface FakeResponses {
  url: string;
  /** The function_call_output items the client sent back, in order. */
  outputs: string[];
  close(): Promise<void>;
}

/** A scripted Responses API: turn N (N = tool outputs so far) answers with script[N]. */
export function fakeResponses(script: Step[]): Promise<FakeResponses> {
  const outputs: string[] = [];
  let n = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (!req.url?.includes('/responses')) return void (res.statusCode = 404, res.end('{}'));
      let j: { input?: { type?: string; output?: unknown }[] } = {};
      try {
        j = JSON.parse(body);
      } catch {
        // answer with text
      }
      const outs = (j.input ?? []).filter((i) => i.type === 'function_call_output').map((i) => (typeof i.output === 'string' ? i.output : JSON.stringify(i.output)));
      outputs.splice(0, outputs.length, ...outs);
      const step = script[outs.length] ?? { text: 'done' };
      n++;
      const item =
        'tool' in step
          ? { type: 'function_call', id: `fc_${n}`, status: 'completed', call_id: `call_${n}`, name: step.tool, arguments: JSON.stringify(step.args) }
          : { type: 'message', id: `msg_${n}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: step.text, annotations: [] }] };
      const ev = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
      const usage = { input_tokens: 5, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 10 };
      res.setHeader('content-type', 'text/event-stream');
      res.end(
        ev('response.created', { response: { id: `resp_${n}`, object: 'response', status: 'in_progress', output: [] } }) +
          ev('response.output_item.added', { output_index: 0, item }) +
          ev('response.output_item.done', { output_index: 0, item }) +
          ev('response.completed', { response: { id: `resp_${n}`, object: 'response', status: 'completed', output: [item], usage } }),
      );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      resolve({ url: `http://127.0.0.1:${port}/v1`, outputs, close: () => new Promise((r) => server.close(() => r())) });
    }),
  );
}

export function codexConfig(url: string): string {
  return ['model = "gpt-5"', 'model_provider = "fake"', '[model_providers.fake]', 'name = "fake"', `base_url = "${url}"`, 'wire_api = "responses"', ''].join('\n');
}

/**
 * Codex's sandbox mode for a run: `bypass` is `--dangerously-bypass-approvals-and-sandbox`; the
 * others are `--sandbox MODE` with `approval_policy = "never"`. In `workspace-write` and
 * `read-only` Codex 0.169.0 runs each command under its own bubblewrap through a helper it links
 * under CODEX_HOME at start; it refuses to make that link under the temp dir ("Refusing to create
 * helper binaries under temporary dir"), and then every sandboxed command fails ("bwrap: execvp
 * codex-linux-sandbox: No such file or directory"): give such runs a TMPDIR (`tmp`) that does not
 * hold CODEX_HOME.
 */
export type CodexSandbox = 'bypass' | 'danger-full-access' | 'workspace-write' | 'read-only';

/** `codex exec` in `cwd` with a scratch HOME and CODEX_HOME (`codexHome`, default `<home>/.codex`); the environment is built from scratch. */
export function runCodex(bin: string, opts: { cwd: string; home: string; hooks: boolean; timeoutMs?: number; sandbox?: CodexSandbox; config?: string[]; tmp?: string; codexHome?: string }): Promise<{ code: number | null; output: string }> {
  const sandbox = opts.sandbox ?? 'bypass';
  const mode = sandbox === 'bypass' ? ['--dangerously-bypass-approvals-and-sandbox'] : ['--sandbox', sandbox, '-c', 'approval_policy="never"'];
  const config = (opts.config ?? []).flatMap((c) => ['-c', c]);
  const args = ['exec', ...(opts.hooks ? ['--enable', 'hooks', '--dangerously-bypass-hook-trust'] : []), '--skip-git-repo-check', ...mode, ...config, 'do the task'];
  return new Promise((resolve) => {
    const env = { PATH: process.env.PATH, HOME: opts.home, CODEX_HOME: opts.codexHome ?? join(opts.home, '.codex'), NO_COLOR: '1', ...(opts.tmp ? { TMPDIR: opts.tmp } : {}) };
    const child = spawn(bin, args, { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
