/**
 * The Claude Agent SDK callback (src/frontends/library/sdk.ts). Type-checked against the SDK's published
 * types (installed on demand into a cache outside the repository: test/helpers/agent-sdk.ts; tsc
 * runs over a file that uses the callback as the SDK's HookCallback, so an incompatible callback
 * fails the suite), and run on recorded PreToolUse inputs.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashguardHook, BASHGUARD_MATCHER, createGuard, type AgentHookCallback, type AgentHookInput, type AgentHookOutput, type Guard } from '../../../src/api.js';
import { ensureAgentSdk, AGENT_SDK_VERSION } from '../../helpers/agent-sdk.js';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { cannotRun, REPO_ROOT } from '../../helpers/shared.js';

// The SDK's names for the shapes bashguard's callback uses (the real ones are checked below).
type HookCallback = AgentHookCallback;
type HookInput = AgentHookInput;
type PreToolUseHookInput = AgentHookInput & { tool_use_id?: string };
type SyncHookJSONOutput = AgentHookOutput;

let layout: GitLayout;
let guard: Guard;
beforeAll(() => {
  layout = makeGitLayout('bashguard-sdk-');
  guard = createGuard({ worktree: layout.worktree, env: { HOME: join(layout.root, 'home') } });
});
afterAll(() => {
  guard?.close();
  layout?.cleanup();
});

/** Uses the callback where the SDK's own types want a HookCallback; tsc must accept it. */
const TYPE_CHECK = (api: string) => `import type { HookCallback, HookCallbackMatcher, Options, SyncHookJSONOutput } from '@anthropic-ai/claude-agent-sdk';
import { bashguardHook, BASHGUARD_MATCHER, createGuard } from ${JSON.stringify(api)};
declare const guard: ReturnType<typeof createGuard>;
const cb: HookCallback = bashguardHook({ guard });
const matcher: HookCallbackMatcher = { matcher: BASHGUARD_MATCHER, hooks: [cb], timeout: 30 };
export const hooks: Options['hooks'] = { PreToolUse: [matcher] };
// The callback's answer is a SyncHookJSONOutput, not just any HookJSONOutput.
export const answer: Promise<SyncHookJSONOutput> = bashguardHook({ guard })({ hook_event_name: 'PreToolUse' }, undefined, { signal: new AbortController().signal });
`;

describe('types: the callback is a HookCallback', () => {
  it(`fits HookCallbackMatcher and Options.hooks.PreToolUse of ${'@anthropic-ai/claude-agent-sdk'} ${AGENT_SDK_VERSION} (tsc)`, (ctx) => {
    const sdk = ensureAgentSdk();
    if ('error' in sdk) return ctx.skip(cannotRun(`the Agent SDK's types could not be installed: ${sdk.error}`));
    // Beside the SDK's node_modules, so its own resolution finds the SDK and its dependencies.
    const file = join(sdk.prefix, 'bashguard-check.ts');
    writeFileSync(file, TYPE_CHECK(join(REPO_ROOT, 'src', 'api.js')));
    const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = ['--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', '--typeRoots', join(REPO_ROOT, 'node_modules', '@types'), file];
    const r = spawnSync(process.execPath, [tsc, ...args], { encoding: 'utf8', timeout: 120_000 });
    expect(`${r.stdout}${r.stderr}`.trim()).toBe('');
    expect(r.status).toBe(0);
    // The check can fail: a callback of the wrong shape is rejected.
    writeFileSync(file, TYPE_CHECK(join(REPO_ROOT, 'src', 'api.js')).replace('const cb: HookCallback = bashguardHook({ guard });', 'const cb: HookCallback = (x: number) => x;'));
    const bad = spawnSync(process.execPath, [tsc, ...args], { encoding: 'utf8', timeout: 120_000 });
    expect(bad.status).not.toBe(0);
  }, 300_000);
});

describe('recorded PreToolUse inputs', () => {
  const recorded = JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'sdk', 'pretooluse-inputs.json'), 'utf8')) as { cases: { expect: string; input: unknown }[] };
  const fill = (v: unknown): unknown => JSON.parse(JSON.stringify(v).replaceAll('{WT}', layout.worktree).replaceAll('{MAIN}', layout.main));

  it.each(recorded.cases.map((c, i) => [i, c] as const))('case %i', async (_i, c) => {
    const cb: HookCallback = bashguardHook({ guard });
    const input = fill(c.input) as PreToolUseHookInput;
    const out = await cb(input as HookInput, input.tool_use_id, { signal: new AbortController().signal });
    const hso = (out as SyncHookJSONOutput).hookSpecificOutput;
    if (c.expect === 'allow') {
      expect(out).toEqual({});
      return;
    }
    expect(hso).toBeDefined();
    expect(hso && 'permissionDecision' in hso && hso.permissionDecision).toBe(c.expect);
    expect(hso?.hookEventName).toBe('PreToolUse');
    const reason = hso && 'permissionDecisionReason' in hso ? hso.permissionDecisionReason : '';
    expect(reason).toMatch(/bashguard/);
    expect(reason).not.toContain('\u0000');
  });

  it('non-PreToolUse events get no opinion', async () => {
    const cb = bashguardHook({ guard });
    expect(await cb({ hook_event_name: 'PostToolUse', cwd: layout.worktree, tool_name: 'Bash', tool_input: { command: `echo > ${layout.main}/x` } }, 't', { signal: new AbortController().signal })).toEqual({});
  });

  it('the callback and the CLI hook give the same reason for the same event', async () => {
    const { decideHook } = await import('../../../src/frontends/hook/hook.js');
    const { getParser } = await import('../../../src/engine/parse/index.js');
    const event = { session_id: 's', transcript_path: '/t', cwd: layout.worktree, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `echo x > ${layout.main}/README.md` }, tool_use_id: 't' };
    const io = { stdout: () => undefined, stderr: () => undefined, readStdin: async () => '', env: { HOME: join(layout.root, 'home') }, cwd: layout.outside, isTTY: false };
    const viaCli = await decideHook(JSON.stringify(event), io, { getParser: () => getParser('auto') });
    const viaSdk = (await bashguardHook({ guard })(event, 't', { signal: new AbortController().signal })).hookSpecificOutput;
    expect(viaSdk?.permissionDecision).toBe(viaCli?.decision);
    expect(viaSdk?.permissionDecisionReason).toBe(viaCli?.reason);
  });
});
