/**
 * The Claude Agent SDK callback (src/library/sdk.ts). Type-checked against the SDK's published
 * types (`@anthropic-ai/claude-agent-sdk` devDependency; `npm test` runs `tsc --noEmit` over this
 * file, so an incompatible callback fails the suite), and run on recorded PreToolUse inputs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HookCallback, HookCallbackMatcher, HookInput, Options, PreToolUseHookInput, SyncHookJSONOutput } from '@anthropic-ai/claude-agent-sdk';
import { bashguardHook, BASHGUARD_MATCHER, createGuard, type Guard } from '../src/api.js';
import { makeGitLayout, type GitLayout } from './helpers/git-layout.js';
import { REPO_ROOT } from './helpers/shared.js';

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

describe('types: the callback is a HookCallback', () => {
  it('fits HookCallbackMatcher and Options.hooks.PreToolUse (compile-time; checked by tsc --noEmit)', () => {
    const cb: HookCallback = bashguardHook({ guard });
    const matcher: HookCallbackMatcher = { matcher: BASHGUARD_MATCHER, hooks: [cb], timeout: 30 };
    const hooks: Options['hooks'] = { PreToolUse: [matcher] };
    // The callback's answer is a SyncHookJSONOutput, not just any HookJSONOutput.
    const answer: Promise<SyncHookJSONOutput> = bashguardHook({ guard })({ hook_event_name: 'PreToolUse' }, undefined, { signal: new AbortController().signal });
    expect(hooks.PreToolUse?.[0]?.hooks).toHaveLength(1);
    return answer.then((a) => expect(a).toEqual({}));
  });
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
    const { decideHook } = await import('../src/hook/hook.js');
    const { getParser } = await import('../src/parse/index.js');
    const event = { session_id: 's', transcript_path: '/t', cwd: layout.worktree, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `echo x > ${layout.main}/README.md` }, tool_use_id: 't' };
    const io = { stdout: () => undefined, stderr: () => undefined, readStdin: async () => '', env: { HOME: join(layout.root, 'home') }, cwd: layout.outside, isTTY: false };
    const viaCli = await decideHook(JSON.stringify(event), io, { getParser: () => getParser('auto') });
    const viaSdk = (await bashguardHook({ guard })(event, 't', { signal: new AbortController().signal })).hookSpecificOutput;
    expect(viaSdk?.permissionDecision).toBe(viaCli?.decision);
    expect(viaSdk?.permissionDecisionReason).toBe(viaCli?.reason);
  });
});
