/**
 * A HOME inside a write root (a scratch HOME under /tmp) is writable for both lines, the
 * analyzer's and the kernel's: doctor says so, and says nothing where HOME lies outside them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../helpers/memory-io.js';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';

let layout: GitLayout;
let scratchHome: string;
beforeAll(() => {
  layout = makeGitLayout('bg-doctor-home-');
  scratchHome = mkdtempSync(join(tmpdir(), 'bg-home-'));
});
afterAll(() => {
  layout?.cleanup();
  rmSync(scratchHome, { recursive: true, force: true });
});

async function homeCheck(home: string): Promise<{ ok: boolean; detail: string } | undefined> {
  const r = await runCli(['doctor', '--json'], { env: { HOME: home, PATH: '/usr/bin:/bin' }, cwd: layout.worktree });
  const j = JSON.parse(r.out) as { checks: { ok: boolean; label: string; detail: string }[] };
  return j.checks.find((c) => c.label === 'HOME');
}

it('warns where HOME lies in a scratch write root', async () => {
  const c = await homeCheck(scratchHome);
  expect(c?.detail).toMatch(/^warning: HOME \(.*\) lies inside the write root \//);
});

it('says nothing where HOME lies outside every write root', async () => {
  expect(await homeCheck('/nonexistent-bashguard-home')).toBeUndefined();
});
