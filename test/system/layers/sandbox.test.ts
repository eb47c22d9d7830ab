/**
 * `bashguard sandbox` for real: the grants of seed 002, and `sandbox run` under bubblewrap: inside
 * it `git add` and `git commit` in the worktree succeed, and writing the main checkout, its
 * `.git/config`, `.git/hooks`, a sibling, or a protected file fails, also as root (capabilities are
 * dropped, so `mount -o remount,rw` cannot undo a read-only bind). Skips, saying why, where
 * bubblewrap cannot run.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cannotRun } from '../../helpers/shared.js';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { openWorkspace } from '../../../src/policy/workspace/index.js';
import { bwrapAvailable, effectiveAccess, runSandboxed, sandboxPlan, seatbeltProfile } from '../../../src/layers/sandbox/index.js';
import { cleanEnv, cli, git } from '../../helpers/layers.js';

let L: GitLayout;
beforeAll(() => {
  L = makeGitLayout('bashguard-sandbox-');
  mkdirSync(join(L.worktree, '.claude'), { recursive: true });
  writeFileSync(join(L.worktree, '.claude', 'settings.json'), '{}\n');
});
afterAll(() => L?.cleanup());

const avail = bwrapAvailable(process.env);
if (!avail.ok) cannotRun(`the bubblewrap runs: ${avail.reason}`);
const itBwrap = avail.ok ? it : it.skip;

describe('sandbox grants', () => {
  it('give the worktree, its admin dir and the shared store rw; config, info, hooks, main and siblings ro', () => {
    const plan = sandboxPlan(openWorkspace(L.worktree, { env: cleanEnv() }));
    const common = join(L.main, '.git');
    const access = (p: string) => effectiveAccess(p, plan.grants);
    expect(access(join(L.worktree, 'src', 'new.ts'))).toBe('rw');
    expect(access(join(common, 'worktrees', 'b1', 'index'))).toBe('rw');
    for (const d of ['objects/ab/cdef', 'refs/heads/b1', 'logs/refs/heads/b1']) expect(access(join(common, d))).toBe('rw');
    for (const p of ['config', 'info/exclude', 'hooks/pre-commit', 'worktrees/b2/HEAD', 'HEAD']) expect(access(join(common, p)), p).toBe('ro');
    expect(access(join(L.main, 'README.md'))).toBe('ro');
    expect(access(join(L.sibling, 'README.md'))).toBe('ro');
    expect(access(join(L.worktree, '.claude', 'settings.json'))).toBe('ro');
    // A protected file that does not exist yet in an existing control dir: the dir is kept read-only.
    expect(access(join(L.worktree, '.claude', 'settings.local.json'))).toBe('ro');
    expect(access('/tmp/scratch')).toBe('rw');
    expect(access(join(L.outside, 'x'))).toBe('ro');
    // Parents come before children, so applying grants in order lets the most specific win.
    const idx = (p: string) => plan.grants.findIndex((g) => g.path === p);
    expect(idx(L.main)).toBeLessThan(idx(L.worktree));
    expect(idx(L.worktree)).toBeLessThan(idx(join(L.worktree, '.claude', 'settings.json')));
  });

  it('prints json, bwrap and sandbox-exec formats', async () => {
    const json = await cli(['sandbox', '--format', 'json'], L.worktree);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { worktree: string }).worktree).toBe(L.worktree);
    const bw = await cli(['sandbox', '--format', 'bwrap'], L.worktree);
    expect(bw.stdout).toContain(`--bind ${L.worktree} ${L.worktree}`);
    expect(bw.stdout).toContain(`--ro-bind ${join(L.main, '.git', 'hooks')} `);
    expect(bw.stdout.indexOf(`--ro-bind ${L.main} `)).toBeLessThan(bw.stdout.indexOf(`--bind ${L.worktree} `));
    const sb = await cli(['sandbox', '--format', 'sandbox-exec'], L.worktree);
    expect(sb.stdout).toBe(seatbeltProfile(sandboxPlan(openWorkspace(L.worktree, { env: cleanEnv() }))));
    expect(sb.stdout).toContain(`(deny file-write* (subpath "${join(L.main, '.git', 'config')}"))`);
    expect((await cli(['sandbox', '--format', 'docker'], L.worktree)).code).toBe(2);
    const outside = await cli(['sandbox'], L.outside);
    expect(outside.code).toBe(2);
    expect(outside.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('sandbox run (bubblewrap)', () => {
  const sh = (script: string) => runSandboxed(openWorkspace(L.worktree, { env: cleanEnv() }), ['sh', '-c', script], { env: cleanEnv(), cwd: L.worktree, stdio: 'pipe' });

  itBwrap('git add and git commit in the worktree succeed', () => {
    const before = git(L.main, ['rev-parse', 'b1']);
    const r = sh('echo built > built.txt && git add built.txt && git commit -q -m "inside the sandbox" && git log -1 --format=%s');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout?.trim()).toBe('inside the sandbox');
    expect(git(L.main, ['rev-parse', 'b1^'])).toBe(before);
    expect(git(L.main, ['status', '--porcelain'])).toBe('');
  });

  itBwrap('writing the main checkout, .git/config, .git/hooks, a sibling or a protected file fails (as root too)', () => {
    const config = readFileSync(join(L.main, '.git', 'config'), 'utf8');
    const targets = [
      join(L.main, 'README.md'),
      join(L.main, 'new-in-main.txt'),
      join(L.main, '.git', 'config'),
      join(L.main, '.git', 'hooks', 'pre-commit'),
      join(L.sibling, 'README.md'),
      join(L.worktree, '.claude', 'settings.json'),
      join(L.worktree, '.claude', 'settings.local.json'),
      join(L.outside, 'x'),
    ];
    for (const t of targets) {
      const r = sh(`echo pwned >> '${t}'`);
      expect(r.status, t).not.toBe(0);
    }
    const git1 = sh(`git -C '${L.main}' config core.hooksPath /tmp/evil; git -C '${L.main}' commit --allow-empty -qm evil`);
    expect(git1.status).not.toBe(0);
    // Undoing the binds: remount read-write, rename the dir holding a read-only file, a new user namespace.
    const tricks = sh(`mount -o remount,rw '${L.main}' 2>/dev/null && echo REMOUNTED; mv .claude .claude-moved 2>/dev/null && echo MOVED; unshare -Urm sh -c "mount -o remount,rw '${L.main}' && echo REMOUNTED2" 2>/dev/null; true`);
    expect(tricks.stdout).toBe('');
    for (const t of targets) if (existsSync(t)) expect(readFileSync(t, 'utf8'), t).not.toContain('pwned');
    expect(existsSync(join(L.main, 'new-in-main.txt'))).toBe(false);
    expect(existsSync(join(L.main, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(join(L.main, '.git', 'config'), 'utf8')).toBe(config);
    expect(git(L.main, ['log', '-1', '--format=%s', 'main'])).toBe('initial');
    expect(git(L.main, ['status', '--porcelain'])).toBe('');
  });

  itBwrap('scratch dirs are writable and the command\'s exit status comes back', () => {
    const f = `/tmp/bashguard-sandbox-${process.pid}`;
    try {
      expect(sh(`echo ok > ${f} && exit 7`).status).toBe(7);
      expect(readFileSync(f, 'utf8')).toBe('ok\n');
    } finally {
      rmSync(f, { force: true });
    }
  });

  it('without bubblewrap: a clear one-line error and exit 2, the command never runs', async () => {
    const marker = join(L.worktree, 'ran-unconfined');
    const r = await cli(['sandbox', 'run', '--', 'touch', marker], L.worktree, cleanEnv({ PATH: '/nonexistent' }));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^bashguard: sandbox: bubblewrap \(bwrap\) is not installed.*\n$/);
    expect(existsSync(marker)).toBe(false);
    // A bwrap that cannot set up namespaces is reported the same way.
    const broken = await cli(['sandbox', 'run', '--', 'touch', marker], L.worktree, cleanEnv({ BASHGUARD_BWRAP: '/bin/false' }));
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/cannot create a sandbox here/);
    expect(existsSync(marker)).toBe(false);
  });

  itBwrap('the CLI passes the command\'s arguments through untouched, with or without --', async () => {
    const r = await cli(['sandbox', 'run', '--', 'sh', '-c', 'test "$1" = "-m x" && touch arg-ok', 'sh', '-m x'], L.worktree);
    expect(r.code).toBe(0);
    expect(existsSync(join(L.worktree, 'arg-ok'))).toBe(true);
    const bare = await cli(['sandbox', 'run', 'sh', '-c', 'test "$1" = -C && touch arg-ok2', 'sh', '-C'], L.worktree);
    expect(bare.code).toBe(0);
    expect(existsSync(join(L.worktree, 'arg-ok2'))).toBe(true);
  });

  itBwrap('-C names the worktree whose grants apply, wherever the command starts', async () => {
    const r = await cli(['sandbox', 'run', '-C', L.sibling, '--', 'sh', '-c', `touch '${L.sibling}/by-b2'; touch '${L.worktree}/by-b2'`], L.worktree);
    expect(r.code).not.toBe(0);
    expect(existsSync(join(L.sibling, 'by-b2'))).toBe(true);
    expect(existsSync(join(L.worktree, 'by-b2'))).toBe(false);
  });
});
