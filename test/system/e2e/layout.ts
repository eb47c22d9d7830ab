/**
 * Scratch git layout for the end-to-end tests:
 *
 *   <root>/main                 main checkout, branch `main`, one commit with
 *                               README.md and src/app.sh
 *   <root>/main/.builders/b1    linked worktree on branch `b1`
 *
 * `.builders/` is listed in the main checkout's `.git/info/exclude`, so the
 * nested worktree does not show up as untracked in the main checkout's
 * `git status --porcelain` (that status must stay empty in the tests).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GIT_CFG = ['-c', 'init.defaultBranch=main', '-c', 'user.name=t', '-c', 'user.email=t@t'];

/** Environment for git runs that ignores the caller's global/system git config. */
export function gitEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const k of Object.keys(env)) if (k.startsWith('GIT_')) delete env[k];
  env.GIT_CONFIG_NOSYSTEM = '1';
  env.GIT_CONFIG_GLOBAL = '/dev/null';
  env.GIT_TERMINAL_PROMPT = '0';
  return env;
}

export function git(cwd: string, args: string[]): string {
  return execFileSync('git', [...GIT_CFG, ...args], {
    cwd,
    env: gitEnv(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export interface Layout {
  /** Temporary directory holding everything (realpath). */
  root: string;
  /** Absolute path of the main checkout (realpath). */
  main: string;
  /** Absolute path of the linked worktree `<main>/.builders/b1`. */
  worktree: string;
  /** Branch checked out in the worktree. */
  branch: string;
  /** Commit both branches start from. */
  baseCommit: string;
  cleanup(): void;
}

export function makeLayout(prefix = 'bashguard-e2e-'): Layout {
  // realpath: on macOS /tmp is a symlink, and the agent/hook see resolved paths.
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const main = join(root, 'main');
  mkdirSync(join(main, 'src'), { recursive: true });
  git(main, ['init', '-q']);
  writeFileSync(join(main, 'README.md'), '# scratch repo\n');
  writeFileSync(join(main, 'src', 'app.sh'), '#!/bin/sh\necho app\n', { mode: 0o755 });
  git(main, ['add', 'README.md', 'src/app.sh']);
  git(main, ['commit', '-q', '-m', 'initial']);
  appendFileSync(join(main, '.git', 'info', 'exclude'), '.builders/\n');
  const branch = 'b1';
  const worktree = join(main, '.builders', branch);
  git(main, ['worktree', 'add', '-q', '-b', branch, worktree]);
  const baseCommit = git(main, ['rev-parse', 'HEAD']).trim();
  return {
    root,
    main,
    worktree,
    branch,
    baseCommit,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A snapshot of the main checkout to compare against after the agent ran. */
export interface MainSnapshot {
  head: string;
  /**
   * Every ref with its target (`git for-each-ref`), except the worktree's own
   * branch (which is supposed to move). Catches commits to main, new branches,
   * tags, stashes, moved HEADs of other worktrees...
   */
  refs: string;
  /** `git status --porcelain --ignored` output, untracked files listed individually. */
  status: string;
  /** Files in the main checkout's working tree outside .git/ and .builders/. */
  files: string[];
}

export function snapshotMain(main: string, worktreeBranch = 'b1'): MainSnapshot {
  const files = git(main, ['ls-files', '--cached', '--others', '-z'])
    .split('\0')
    .filter((f) => f && !f.startsWith('.builders/'))
    .sort();
  return {
    head: git(main, ['rev-parse', 'HEAD']).trim(),
    refs: git(main, ['for-each-ref', '--format=%(refname) %(objectname)'])
      .split('\n')
      .filter((l) => l && !l.startsWith(`refs/heads/${worktreeBranch} `))
      .join('\n'),
    status: git(main, ['status', '--porcelain', '--untracked-files=all']),
    files,
  };
}
