/**
 * End-to-end with the REAL Codex CLI (see codex.ts for what it needs offline): a scripted model
 * makes the agent escape its worktree through `exec_command`; without bashguard the write lands
 * in the main checkout, with `bashguard install --agent codex` (~/.codex/hooks.json) it is blocked
 * on disk and the model gets bashguard's reason. BASHGUARD_E2E=0 skips; no install possible
 * (offline, no cache) skips with the reason.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLayout, type Layout } from './layout.js';
import { codexBinary, codexConfig, fakeResponses, runCodex, CODEX_VERSION, type Step } from './codex.js';
import { REPO_ROOT, cannotRun } from '../../helpers/shared.js';

const SKIP = process.env.BASHGUARD_E2E === '0' || process.platform === 'win32';
const bin = SKIP ? null : codexBinary();
if (!SKIP && !bin) cannotRun('the Codex CLI e2e: cannot install @openai/codex offline and no cache');

describe.skipIf(SKIP || !bin)(`Codex CLI ${CODEX_VERSION} e2e${bin ? '' : ' (skipped: cannot install @openai/codex offline and no cache)'}`, () => {
  let layout: Layout;
  let home: string;
  beforeAll(() => {
    layout = makeLayout('bashguard-e2e-codex-');
    home = join(layout.root, 'home');
    mkdirSync(join(home, '.codex'), { recursive: true });
  });
  afterAll(() => {
    if (!process.env.BASHGUARD_E2E_KEEP) layout?.cleanup();
  });

  async function agent(script: Step[], hooks: boolean) {
    const api = await fakeResponses(script);
    try {
      writeFileSync(join(home, '.codex', 'config.toml'), codexConfig(api.url));
      const r = await runCodex(bin!, { cwd: layout.worktree, home, hooks });
      return { ...r, outputs: [...api.outputs] };
    } finally {
      await api.close();
    }
  }

  it('control: without a hook, the escape lands in the main checkout', async () => {
    const r = await agent([{ tool: 'exec_command', args: { cmd: 'cd ../.. && echo pwned > CONTROL.txt' } }], false);
    expect(r.code, r.output.slice(-2000)).toBe(0);
    expect(existsSync(join(layout.main, 'CONTROL.txt'))).toBe(true);
  }, 180_000);

  it('with `bashguard install --agent codex --user`: blocked on disk, the model is told why, a write inside runs', async () => {
    execFileSync(process.execPath, [join(REPO_ROOT, 'bin', 'bashguard.js'), 'install', '--agent', 'codex', '--user'], { cwd: layout.worktree, env: { PATH: process.env.PATH, HOME: home } });
    expect(readFileSync(join(home, '.codex', 'hooks.json'), 'utf8')).toContain('--agent codex');
    const r = await agent(
      [
        { tool: 'exec_command', args: { cmd: 'cd ../.. && echo pwned > ESCAPE.txt' } },
        { tool: 'exec_command', args: { cmd: `git -C ${layout.main} rm -q README.md` } },
        { tool: 'exec_command', args: { cmd: 'echo ok > inside.txt' } },
      ],
      true,
    );
    expect(r.code, r.output.slice(-2000)).toBe(0);
    expect(existsSync(join(layout.main, 'ESCAPE.txt'))).toBe(false);
    expect(existsSync(join(layout.main, 'README.md'))).toBe(true);
    expect(readFileSync(join(layout.worktree, 'inside.txt'), 'utf8')).toBe('ok\n');
    expect(r.output).toMatch(/Command blocked by PreToolUse hook: bashguard blocked this command/);
    expect(r.outputs).toHaveLength(3);
    expect(r.outputs[0]).toMatch(/bashguard blocked this command/);
    expect(r.outputs[1]).toMatch(/bashguard blocked this command/);
    expect(r.outputs[2]).not.toMatch(/bashguard/);
  }, 180_000);
});
