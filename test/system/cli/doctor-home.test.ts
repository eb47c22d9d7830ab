/**
 * HOME is never a write root, also where it lies in a scratch dir (a HOME under /tmp). Where
 * HOME still is writable for both lines, the analyzer's and the kernel's (it is the scratch dir
 * itself, or the trusted config names it a write root), doctor says so; elsewhere nothing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

it('says nothing where HOME lies in a scratch dir: it is not a write root there either', async () => {
  expect(await homeCheck(scratchHome)).toBeUndefined();
});

it('warns where the trusted config makes HOME a write root', async () => {
  const home = mkdtempSync(join(tmpdir(), 'bg-home-root-'));
  try {
    mkdirSync(join(home, '.config', 'bashguard'), { recursive: true });
    writeFileSync(join(home, '.config', 'bashguard', 'config.json'), JSON.stringify({ writeRoots: [home] }));
    const c = await homeCheck(home);
    expect(c?.detail).toMatch(/^warning: HOME \(.*\) lies inside the write root \//);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

it('says nothing where HOME lies outside every write root', async () => {
  expect(await homeCheck('/nonexistent-bashguard-home')).toBeUndefined();
});
