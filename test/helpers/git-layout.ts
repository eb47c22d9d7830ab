/**
 * A real git layout on disk for tests that go through the hook (`decideHook` discovers the
 * layout from git's own files): <tmp>/repo main checkout with one commit, linked worktrees
 * <tmp>/repo/.builders/b1 and b2, and <tmp>/other outside any checkout.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, appendFileSync, constants, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { scratchRoots, toolCacheRoots } from '../../src/policy/write-roots.js';
import { join } from 'node:path';

export interface GitLayout {
  root: string;
  main: string;
  worktree: string;
  sibling: string;
  outside: string;
  cleanup(): void;
}

function git(cwd: string, args: string[]): void {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' };
  for (const k of Object.keys(env)) if (k.startsWith('GIT_') && !['GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_GLOBAL', 'GIT_TERMINAL_PROMPT'].includes(k)) delete env[k];
  execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Where test layouts live: outside every write root, as a user's checkouts are (a layout inside
 * one makes its surroundings writable: an allow there would pass even with a broken worktree
 * check, and the kernel would hold nothing around it). Not /tmp, /var/tmp, $TMPDIR or /dev/shm
 * (scratch dirs: src/policy/write-roots.ts `scratchRoots`), nor HOME's tool caches:
 * $BASHGUARD_TEST_DIR when set; as root `/var/lib/bashguard-test` (root's HOME is private, and
 * some suites hand a layout to `nobody`: enforce-user.test.ts); else `~/.bashguard-test` in the
 * user's HOME. Only where none is writable, or each lies in a scratch dir (HOME under /tmp),
 * os.tmpdir(), and the tests lose that check.
 */
export function layoutBase(): string {
  const candidates = [process.env.BASHGUARD_TEST_DIR, process.getuid?.() === 0 ? '/var/lib/bashguard-test' : null, join(homedir(), '.bashguard-test')];
  const scratch = scratchRoots(process.env).map((r) => {
    try {
      return realpathSync(r);
    } catch {
      return r;
    }
  });
  for (const dir of candidates) {
    if (!dir || !dir.startsWith('/')) continue;
    try {
      // (reachable by other users: each layout is its own private mkdtemp dir inside)
      mkdirSync(dir, { recursive: true, mode: 0o755 });
      accessSync(dir, constants.W_OK);
      const real = realpathSync(dir);
      if (scratch.some((r) => real === r || real.startsWith(`${r}/`)) || toolCacheRoots(process.env).some((c) => real === c.path || real.startsWith(`${c.path}/`))) continue;
      return real;
    } catch {
      // try the next one
    }
  }
  return tmpdir();
}

export function makeGitLayout(prefix = 'bashguard-adv-'): GitLayout {
  const root = realpathSync(mkdtempSync(join(layoutBase(), prefix)));
  const main = join(root, 'repo');
  const outside = join(root, 'other');
  mkdirSync(join(main, 'src'), { recursive: true });
  mkdirSync(join(main, 'docs'), { recursive: true });
  mkdirSync(outside);
  git(main, ['init', '-q']);
  writeFileSync(join(main, 'README.md'), '# scratch\n');
  writeFileSync(join(main, 'src', 'app.sh'), '#!/bin/sh\necho app\n');
  writeFileSync(join(main, 'docs', 'guide.md'), 'guide\n');
  git(main, ['add', '.']);
  git(main, ['commit', '-q', '-m', 'initial']);
  appendFileSync(join(main, '.git', 'info', 'exclude'), '.builders/\n');
  const worktree = join(main, '.builders', 'b1');
  const sibling = join(main, '.builders', 'b2');
  git(main, ['worktree', 'add', '-q', '-b', 'b1', worktree]);
  git(main, ['worktree', 'add', '-q', '-b', 'b2', sibling]);
  return { root, main, worktree, sibling, outside, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
