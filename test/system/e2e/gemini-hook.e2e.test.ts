/**
 * End-to-end with the REAL Gemini CLI (see gemini.ts for what it needs offline): a scripted model
 * makes the agent escape its worktree; without bashguard the write lands in the main checkout,
 * with `bashguard install --agent gemini` (user or project settings) it is blocked on disk and the
 * model gets bashguard's reason as the tool error. BASHGUARD_E2E=0 skips; no install possible
 * (offline, no cache) skips with the reason. (write_file/replace outside the workspace, symlinks
 * included, are already refused by Gemini CLI itself: "Path not in workspace"; their format is
 * covered by test/system/hook/clients.test.ts.)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLayout, type Layout } from './layout.js';
import { fakeGemini, geminiEntry, runGemini, GEMINI_CLI_VERSION, type Step } from './gemini.js';
import { REPO_ROOT, cannotRun } from '../../helpers/shared.js';

const SKIP = process.env.BASHGUARD_E2E === '0' || process.platform === 'win32';
const entry = SKIP ? null : geminiEntry();
if (!SKIP && !entry) cannotRun('the Gemini CLI e2e: cannot install @google/gemini-cli offline and no cache');

describe.skipIf(SKIP || !entry)(`Gemini CLI ${GEMINI_CLI_VERSION} e2e${entry ? '' : ' (skipped: cannot install @google/gemini-cli offline and no cache)'}`, () => {
  let layout: Layout;
  let home: string;
  beforeAll(() => {
    layout = makeLayout('bashguard-e2e-gemini-');
    home = join(layout.root, 'home');
    mkdirSync(join(home, '.gemini'), { recursive: true });
  });
  afterAll(() => {
    if (!process.env.BASHGUARD_E2E_KEEP) layout?.cleanup();
  });

  const settings = (extra: Record<string, unknown> = {}) => {
    writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, ...extra }));
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [layout.worktree]: 'TRUST_FOLDER' }));
  };
  const bashguard = (args: string[]) => execFileSync(process.execPath, [join(REPO_ROOT, 'bin', 'bashguard.js'), ...args], { cwd: layout.worktree, env: { PATH: process.env.PATH, HOME: home }, encoding: 'utf8' });

  async function agent(script: Step[]) {
    const api = await fakeGemini(script);
    try {
      const r = await runGemini(entry!, { cwd: layout.worktree, home, url: api.url });
      return { ...r, responses: [...api.responses] };
    } finally {
      await api.close();
    }
  }

  it('control: without a hook, the escape lands in the main checkout', async () => {
    settings();
    const target = join(layout.main, 'CONTROL.txt');
    const r = await agent([{ tool: 'run_shell_command', args: { command: `cd ../.. && echo pwned > CONTROL.txt`, description: 'x' } }]);
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(existsSync(target)).toBe(true);
  }, 180_000);

  it('user settings: a shell escape into the main checkout is blocked on disk, the model is told why, and a write inside runs', async () => {
    settings();
    bashguard(['install', '--agent', 'gemini', '--user']);
    expect(readFileSync(join(home, '.gemini', 'settings.json'), 'utf8')).toContain('--agent gemini');
    const r = await agent([
      { tool: 'run_shell_command', args: { command: 'cd ../.. && echo pwned > ESCAPE.txt', description: 'x' } },
      { tool: 'run_shell_command', args: { command: 'echo ok > inside.txt', description: 'x' } },
    ]);
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(existsSync(join(layout.main, 'ESCAPE.txt'))).toBe(false);
    expect(readFileSync(join(layout.worktree, 'inside.txt'), 'utf8')).toBe('ok\n');
    expect(r.responses.map((x) => x.name)).toEqual(['run_shell_command', 'run_shell_command']);
    expect(String(r.responses[0]!.response.error)).toMatch(/Tool execution blocked: bashguard blocked this command/);
    expect(String(r.responses[0]!.response.error)).toContain(`${layout.main}/ESCAPE.txt`);
    expect(r.responses[1]!.response.error).toBeUndefined();
  }, 180_000);

  it('an ask (a target bashguard cannot resolve) is answered as deny: the headless run ends and nothing lands', async () => {
    settings();
    bashguard(['install', '--agent', 'gemini', '--user']);
    writeFileSync(join(layout.worktree, 'name.txt'), '../../ASKED.txt\n');
    const r = await agent([{ tool: 'run_shell_command', args: { command: 'touch "$(cat name.txt)"', description: 'x' } }]);
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(existsSync(join(layout.main, 'ASKED.txt'))).toBe(false);
    expect(String(r.responses[0]?.response.error)).toMatch(/Gemini CLI waits forever for a confirmation/);
  }, 180_000);

  it('project settings (<worktree>/.gemini/settings.json, as `install --agent gemini --project` writes) block too', async () => {
    settings(); // user settings without the hook
    bashguard(['install', '--agent', 'gemini', '--project']); // (in a linked worktree: refused without --project)
    expect(readFileSync(join(layout.worktree, '.gemini', 'settings.json'), 'utf8')).toContain('--agent gemini');
    const r = await agent([{ tool: 'run_shell_command', args: { command: `git -C ${layout.main} rm -q README.md`, description: 'x' } }]);
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(existsSync(join(layout.main, 'README.md'))).toBe(true);
    expect(String(r.responses[0]?.response.error)).toMatch(/bashguard blocked this command/);
  }, 180_000);
});
