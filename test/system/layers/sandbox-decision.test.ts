/**
 * The `sandbox` decision: config validation, the hook's answer (Claude Code: allow with
 * `updatedInput.command` wrapped in `bashguard sandbox run`), quoting that survives hostile
 * commands byte for byte, the fallbacks (no bubblewrap, a protocol without updatedInput), and the
 * wrapped command run for real: a dynamic escape changes nothing outside the worktree, legitimate
 * work inside it succeeds.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cannotRun } from '../../helpers/shared.js';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { parseConfig, ConfigError, DEFAULT_CONFIG } from '../../../src/policy/config.js';
import { tighten } from '../../../src/policy/workspace/index.js';
import { parseConfigLayer } from '../../../src/policy/config.js';
import { decideHook, renderAnswer, runHook } from '../../../src/frontends/hook/hook.js';
import { CLIENTS } from '../../../src/frontends/hook/clients/index.js';
import { getParser, type BashParser } from '../../../src/engine/parse/index.js';
import { memoryIO } from '../../helpers/memory-io.js';
import { bwrapAvailable, wrapInSandbox } from '../../../src/layers/sandbox/index.js';
import { cleanEnv, git } from '../../helpers/layers.js';

let L: GitLayout;
let parser: BashParser;
beforeAll(async () => {
  L = makeGitLayout('bashguard-sbxdec-');
  writeFileSync(join(L.main, '.bashguard.json'), JSON.stringify({ unanalyzable: 'sandbox', decisions: { possible: 'sandbox' } }));
  parser = await getParser();
});
afterAll(() => L?.cleanup());

const avail = bwrapAvailable(process.env);
if (!avail.ok) cannotRun(`the sandboxed runs: ${avail.reason}`);
const itBwrap = avail.ok ? it : it.skip;

async function hook(command: string, opts: { exitCode?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<{ code: number; out: Record<string, any> | null; stderr: string }> {
  const event = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command, description: 'd', timeout: 1000 }, cwd: L.worktree };
  const m = memoryIO({ stdin: JSON.stringify(event), env: opts.env ?? cleanEnv(), cwd: L.worktree });
  const code = await runHook(m.io, { exitCode: Boolean(opts.exitCode), getParser: async () => parser });
  const text = m.out();
  return { code, out: text ? (JSON.parse(text) as Record<string, any>) : null, stderr: m.err() };
}

describe('config', () => {
  it('accepts sandbox for unanalyzable and possible findings only', () => {
    const c = parseConfig(JSON.stringify({ unanalyzable: 'sandbox', decisions: { possible: 'sandbox' } }), 'f.json', '/');
    expect(c.unanalyzable).toBe('sandbox');
    expect(c.decisions.possible).toBe('sandbox');
    expect(() => parseConfig(JSON.stringify({ decisions: { likely: 'sandbox' } }), 'f.json', '/')).toThrow(ConfigError);
    expect(() => parseConfig(JSON.stringify({ decisions: { certain: 'sandbox' } }), 'f.json', '/')).toThrow(/only for possible findings/);
  });

  it('a worktree file may tighten sandbox to ask, never loosen ask to sandbox', () => {
    const notices: string[] = [];
    const base = { ...DEFAULT_CONFIG, unanalyzable: 'sandbox' as const };
    expect(tighten(base, parseConfigLayer('{"unanalyzable":"ask"}', 'w.json', '/'), notices).unanalyzable).toBe('ask');
    expect(tighten(DEFAULT_CONFIG, parseConfigLayer('{"unanalyzable":"sandbox","decisions":{"possible":"sandbox"}}', 'w.json', '/'), notices).unanalyzable).toBe('ask');
    expect(notices.length).toBe(2);
  });
});

describe('quoting', () => {
  const words = (wrapped: string): string[] => execFileSync('bash', ['-c', wrapped], { encoding: 'utf8' }).split('\0').slice(0, -1);
  it('passes hostile commands to bash -c byte for byte', () => {
    const hostile = [`echo 'it'"'"'s' "$HOME" \`id\` $(id) \\ !! \n next`, `'`, `''`, `'\\''`, `"; rm -rf / #`, `$'\\x27'`, 'a\tb\r\nc', 'é ü 漢 🙂', '-c', '--', ''];
    for (const cmd of hostile) {
      const w = words(wrapInSandbox(cmd, "/r o'ot", ['printf', '%s\\0']));
      expect(w).toEqual(['sandbox', 'run', '-C', "/r o'ot", '--', 'bash', '-c', cmd]);
    }
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0')), (cmd) => {
        expect(words(wrapInSandbox(cmd, '/w', ['printf', '%s\\0'])).at(-1)).toBe(cmd);
      }),
      { numRuns: 60 },
    );
  });
});

describe('the hook', () => {
  it('answers allow with updatedInput: the command wrapped in bashguard sandbox run, other fields kept', async () => {
    const r = await hook('eval "$X"');
    if (!avail.ok) {
      expect(r.out!.hookSpecificOutput.permissionDecision).toBe('ask');
      return;
    }
    const h = r.out!.hookSpecificOutput;
    expect(h.permissionDecision).toBe('allow');
    expect(h.permissionDecisionReason).toMatch(/BG4002.*sandbox/s);
    expect(h.updatedInput.description).toBe('d');
    expect(h.updatedInput.timeout).toBe(1000);
    expect(h.updatedInput.command).toMatch(/ sandbox run -C .* -- bash -c 'eval "\$X"'$/);
  });

  it('certain and likely findings are still denied; a clean command is still allowed untouched', async () => {
    expect((await hook(`echo x > ${L.main}/README.md`)).out!.hookSpecificOutput.permissionDecision).toBe('deny');
    expect((await hook(`eval "$X"; echo x > ${L.main}/README.md`)).out!.hookSpecificOutput.permissionDecision).toBe('deny');
    // (allowed: as it is, or wrapped in the OS enforcement of allowed calls, never in `sandbox run`)
    const clean = (await hook('echo ok > out.txt')).out;
    expect(clean === null || (clean.hookSpecificOutput.permissionDecision === 'allow' && !String(clean.hookSpecificOutput.updatedInput?.command).includes(' sandbox run '))).toBe(true);
  });

  it('falls back to ask, saying why: no bubblewrap, or a protocol that cannot replace the command', async () => {
    const r = await hook('eval "$X"', { env: cleanEnv({ PATH: '/nonexistent' }) });
    expect(r.out!.hookSpecificOutput.permissionDecision).toBe('ask');
    expect(r.out!.hookSpecificOutput.updatedInput).toBeUndefined();
    expect(r.out!.hookSpecificOutput.permissionDecisionReason).toMatch(/would run it in a sandbox, but bubblewrap \(bwrap\) is not installed/);
    const e = await hook('eval "$X"', { exitCode: true });
    expect(e.code).toBe(2);
    expect(e.stderr).toMatch(avail.ok ? /cannot replace the command/ : /would run it in a sandbox, but/);
  });

  it('only a client that can replace the command gets it; every other client, and --exit-code, asks with the reason', () => {
    const answer = { decision: 'sandbox' as const, reason: 'runs in a sandbox', findings: [], sandbox: { command: 'wrapped', input: { command: 'orig', timeout: 5 }, fallback: 'would sandbox, but this client cannot replace the command' } };
    const claudeOut = JSON.parse(renderAnswer(answer, { exitCode: false }).stdout) as { hookSpecificOutput: Record<string, unknown> };
    expect(claudeOut.hookSpecificOutput).toMatchObject({ permissionDecision: 'allow', updatedInput: { command: 'wrapped', timeout: 5 } });
    const exit = renderAnswer(answer, { exitCode: true });
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(/cannot replace the command/);
    for (const [name, client] of Object.entries(CLIENTS)) {
      if (client.canReplaceCommand) continue;
      const r = renderAnswer(answer, { exitCode: false, client });
      expect(r.stdout + r.stderr, name).toMatch(/cannot replace the command/);
      expect(r.stdout, name).not.toMatch(/updatedInput|wrapped/);
      expect(r.stdout, name).not.toMatch(/"allow"/);
    }
  });

  it('an analysis stopped by the hook\'s time limit (--unfinished) is sandboxed too, with unanalyzable: sandbox', async () => {
    const event = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'echo hi' }, cwd: L.worktree };
    const a = await decideHook(JSON.stringify(event), memoryIO({ env: cleanEnv(), cwd: L.worktree }).io, { getParser: async () => parser, unfinished: 3 });
    expect(a!.decision).toBe(avail.ok ? 'sandbox' : 'ask');
    expect(a!.reason).toMatch(/did not finish within 3 s/);
    if (avail.ok) expect(a!.sandbox!.command).toMatch(/sandbox run -C .* -- bash -c 'echo hi'$/);
  });

  itBwrap('the wrapped command runs for real: a dynamic escape changes nothing outside, legitimate work succeeds', async () => {
    const wrapped = (await hook('eval "$X"')).out!.hookSpecificOutput.updatedInput.command as string;
    const readme = readFileSync(join(L.main, 'README.md'), 'utf8');
    const escape = spawnSync('bash', ['-c', wrapped], { cwd: L.worktree, env: cleanEnv({ X: `echo pwned >> ${L.main}/README.md; git -C ${L.main} commit --allow-empty -qm pwned; cd ../.. && touch escaped` }), encoding: 'utf8' });
    expect(escape.status).not.toBe(0);
    expect(readFileSync(join(L.main, 'README.md'), 'utf8')).toBe(readme);
    expect(existsSync(join(L.main, 'escaped'))).toBe(false);
    expect(git(L.main, ['log', '-1', '--format=%s', 'main'])).toBe('initial');
    const work = spawnSync('bash', ['-c', wrapped], { cwd: L.worktree, env: cleanEnv({ X: 'echo built > build.txt && git add build.txt && git commit -qm sandboxed && sh src/app.sh' }), encoding: 'utf8' });
    expect(work.stderr).toBe('');
    expect(work.status).toBe(0);
    expect(work.stdout).toBe('app\n');
    expect(git(L.main, ['log', '-1', '--format=%s', 'b1'])).toBe('sandboxed');
  });
});
