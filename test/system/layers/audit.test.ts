/**
 * `bashguard audit` on real repositories polluted on purpose: a baseline is saved, a "builder"
 * works (legitimately, then not), and the audit must name every change outside the worktree, and
 * nothing the baseline already had or the builder did inside its worktree.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { layoutBase, makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { openWorkspace } from '../../../src/policy/workspace/index.js';
import { audit, baselineFile, type AuditReport } from '../../../src/layers/audit/index.js';
import { isInside } from '../../../src/engine/shell/paths.js';
import { cleanEnv, cli, git } from '../../helpers/layers.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function setup(): { L: GitLayout; env: NodeJS.ProcessEnv } {
  const L = makeGitLayout('bashguard-audit-');
  const state = mkdtempSync(join(layoutBase(), 'bashguard-state-'));
  cleanups.push(() => L.cleanup(), () => rmSync(state, { recursive: true, force: true }));
  return { L, env: cleanEnv({ XDG_STATE_HOME: state }) };
}

/** Legitimate builder work: a commit and an untracked file in the worktree. */
function honestWork(L: GitLayout): void {
  writeFileSync(join(L.worktree, 'src', 'feature.sh'), 'echo feature\n');
  git(L.worktree, ['add', '-A']);
  git(L.worktree, ['commit', '-q', '-m', 'feature']);
  writeFileSync(join(L.worktree, 'scratch-notes.txt'), 'wip\n');
}

const kinds = (r: AuditReport) => r.findings.map((f) => f.kind);

describe('bashguard audit', () => {
  it('a builder that stayed in its worktree: nothing to report, exit 0', async () => {
    const { L, env } = setup();
    const saved = await cli(['audit', '--baseline', 'save'], L.worktree, env);
    expect(saved.code).toBe(0);
    honestWork(L);
    const r = await cli(['audit'], L.worktree, env);
    expect(r.stdout).toContain('Nothing changed outside the worktree.');
    expect(r.code).toBe(0);
  });

  it('dirt that was there before the baseline is not blamed on the builder; without a baseline it is', async () => {
    const { L, env } = setup();
    appendFileSync(join(L.main, 'README.md'), 'user edit\n');
    writeFileSync(join(L.main, 'user-untracked.txt'), 'mine\n');
    writeFileSync(join(L.sibling, 'sibling-wip.txt'), 'theirs\n');
    const without = await cli(['audit', '--format', 'json'], L.worktree, env);
    expect(without.code).toBe(1);
    const w = JSON.parse(without.stdout) as AuditReport;
    expect(w.baseline).toBeNull();
    expect(w.findings.map((f) => f.path).sort()).toEqual([join(L.sibling, 'sibling-wip.txt'), join(L.main, 'README.md'), join(L.main, 'user-untracked.txt')].sort());
    expect(w.notes.join(' ')).toMatch(/no baseline/);
    await cli(['audit', '--baseline', 'save'], L.worktree, env);
    honestWork(L);
    const r = await cli(['audit'], L.worktree, env);
    expect(r.code).toBe(0);
  });

  it('names every kind of change outside the worktree', async () => {
    const { L, env } = setup();
    appendFileSync(join(L.main, 'README.md'), 'user edit\n'); // pre-existing dirt ...
    mkdirSync(join(L.worktree, '.claude'));
    await cli(['audit', '--baseline', 'save'], L.worktree, env);
    honestWork(L);
    appendFileSync(join(L.main, 'README.md'), 'builder edit\n'); // ... that the builder then changed further
    writeFileSync(join(L.main, 'src', 'wrong-root.ts'), 'x\n'); // the seed-000 mis-write
    writeFileSync(join(L.sibling, 'docs', 'guide.md'), 'clobbered\n');
    git(L.main, ['config', 'core.hooksPath', '/tmp/evil-hooks']);
    writeFileSync(join(L.main, '.git', 'hooks', 'post-checkout'), '#!/bin/sh\n', { mode: 0o755 });
    git(L.worktree, ['branch', 'evil-branch']);
    git(L.main, ['update-ref', 'refs/heads/b2', 'b1']);
    writeFileSync(join(L.main, 'docs', 'guide.md'), 'staged\n');
    git(L.main, ['add', 'docs/guide.md']);
    writeFileSync(join(L.worktree, '.claude', 'settings.local.json'), '{"hooks":{}}\n');
    const r = await audit(openWorkspace(L.worktree, { env }), { env });
    const byPath = (p: string) => r.findings.filter((f) => f.path === p).map((f) => f.kind);
    expect(byPath(join(L.main, 'README.md'))).toEqual(['checkout']);
    expect(r.findings.find((f) => f.path === join(L.main, 'README.md'))!.detail).toMatch(/content changed since the baseline/);
    expect(byPath(join(L.main, 'src', 'wrong-root.ts'))).toEqual(['checkout']);
    expect(byPath(join(L.sibling, 'docs', 'guide.md'))).toEqual(['checkout']);
    expect(byPath(join(L.main, 'docs', 'guide.md'))).toEqual(['checkout']);
    expect(byPath(L.main)).toEqual(['index']);
    expect(byPath(join(L.main, '.git', 'config'))).toEqual(['config']);
    expect(byPath(join(L.main, '.git', 'hooks', 'post-checkout'))).toEqual(['hooks']);
    expect(byPath('refs/heads/evil-branch')).toEqual(['ref']);
    expect(byPath('refs/heads/b2')).toEqual(['ref']);
    expect(byPath(join(L.worktree, '.claude', 'settings.local.json'))).toEqual(['protected']);
    // The worktree's own branch moved (the honest commit): not a finding; nor its untracked file.
    expect(r.findings.some((f) => f.path === 'refs/heads/b1' || f.path.startsWith(L.worktree + '/src'))).toBe(false);
    expect(r.findings.some((f) => f.path.includes('scratch-notes'))).toBe(false);
    const text = await cli(['audit'], L.worktree, env);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`${r.findings.length} change(s) outside`);
  });

  it('the text report names every changed path (untracked, modified, staged, renamed; a FIFO in a protected place), each on its own line', async () => {
    const { L, env } = setup();
    await cli(['audit', '--baseline', 'save'], L.worktree, env);
    writeFileSync(join(L.main, 'new-untracked.txt'), 'x\n');
    appendFileSync(join(L.sibling, 'README.md'), 'edit\n');
    git(L.main, ['mv', 'docs/guide.md', 'docs/moved.md']);
    // A FIFO where a protected file goes: reported as changed, never opened (the audit would block).
    mkdirSync(join(L.worktree, '.claude'), { recursive: true });
    execFileSync('mkfifo', [join(L.worktree, '.claude', 'settings.local.json')]);
    const r = await cli(['audit'], L.worktree, env);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    for (const p of [join(L.main, 'new-untracked.txt'), join(L.sibling, 'README.md'), join(L.main, 'docs', 'moved.md')]) {
      expect(lines.some((l) => l.startsWith('  checkout') && l.includes(`${p}: `))).toBe(true);
    }
    expect(lines.some((l) => l.startsWith('  protected') && l.includes(`${join(L.worktree, '.claude', 'settings.local.json')} was created`))).toBe(true);
    expect(lines.find((l) => l.includes(join(L.main, 'docs', 'moved.md')))).toContain(`renamed or copied from ${join(L.main, 'docs', 'guide.md')}`);
    // The index line names the staged paths too.
    expect(lines.find((l) => l.startsWith('  index'))).toContain(join(L.main, 'docs', 'moved.md'));
    // No line says "untracked file" without a path before it.
    expect(lines.filter((l) => /untracked file/.test(l)).every((l) => l.includes(`${L.main}/`))).toBe(true);
  });

  it('other worktrees\' HEAD: a sibling switched branch', async () => {
    const { L, env } = setup();
    await cli(['audit', '--baseline', 'save'], L.worktree, env);
    git(L.sibling, ['checkout', '-q', '--detach']);
    const r = audit(openWorkspace(L.worktree, { env }), { env });
    expect(kinds(r)).toEqual(['head']);
  });

  it('declared write roots: the worktree\'s own diff is checked with writeRootViolations', async () => {
    const { L, env } = setup();
    await cli(['audit', '--baseline', 'save'], L.worktree, env);
    writeFileSync(join(L.worktree, 'src', 'app.sh'), '#!/bin/sh\necho changed\n');
    writeFileSync(join(L.worktree, 'docs', 'guide.md'), 'out of lease\n');
    git(L.worktree, ['commit', '-qam', 'both']);
    writeFileSync(join(L.worktree, 'stray.txt'), 'untracked\n');
    const r = await cli(['audit', '--write-root', 'src', '--format', 'json'], L.worktree, env);
    expect(r.code).toBe(1);
    const rep = JSON.parse(r.stdout) as AuditReport;
    expect(rep.findings.filter((f) => f.kind === 'write-root').map((f) => f.path).sort()).toEqual([join(L.worktree, 'docs', 'guide.md'), join(L.worktree, 'stray.txt')]);
    // With both roots declared, nothing is outside.
    expect((await cli(['audit', '--write-root', 'src', '--write-root', 'docs', '--write-root', 'stray.txt'], L.worktree, env)).code).toBe(0);
  });

  it('keeps the baseline in the user state dir, outside the repository, and does not touch other checkouts\' index', async () => {
    const { L, env } = setup();
    const file = baselineFile(openWorkspace(L.worktree, { env }), env);
    expect(isInside(file, env.XDG_STATE_HOME!)).toBe(true);
    expect(isInside(file, L.main)).toBe(false);
    writeFileSync(join(L.main, 'README.md'), '# touched\n'); // stat info stale: a refreshing `git status` would rewrite the index
    const indexBefore = readFileSync(join(L.main, '.git', 'index'));
    const mtime = statSync(join(L.main, '.git', 'index')).mtimeMs;
    await cli(['audit', '--baseline', 'save'], L.worktree, env);
    expect(existsSync(file)).toBe(true);
    await cli(['audit'], L.worktree, env);
    expect(readFileSync(join(L.main, '.git', 'index')).equals(indexBefore)).toBe(true);
    expect(statSync(join(L.main, '.git', 'index')).mtimeMs).toBe(mtime);
    // A baseline of another worktree is refused.
    const other = await cli(['audit', '--baseline-file', file], L.sibling, env);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/is for .*b1, not .*b2/);
  });
});
