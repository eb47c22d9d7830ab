/**
 * A real git layout on disk for tests that go through the hook (`decideHook` discovers the
 * layout from git's own files): <tmp>/repo main checkout with one commit, linked worktrees
 * <tmp>/repo/.builders/b1 and b2, and <tmp>/other outside any checkout.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, appendFileSync, constants, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
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
 * Where test layouts live: NOT under /tmp, which is a write root (an allow there would pass even
 * with a broken worktree check). /dev/shm when available, else the home directory.
 */
export function layoutBase(): string {
  for (const dir of ['/dev/shm', homedir()]) {
    try {
      accessSync(dir, constants.W_OK);
      return dir;
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
