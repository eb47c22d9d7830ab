/**
 * `bashguard env`: the git environment an orchestrator gives a builder so that git cannot fall
 * back to the main checkout (seed 004). With `GIT_DIR` and `GIT_WORK_TREE` set, git does not
 * discover the repository from the cwd: `cd <main> && git commit` still commits in the worktree,
 * on its branch. In a linked worktree `.git` is a file, so `GIT_DIR` names the worktree's admin dir
 * (`<common>/worktrees/<name>`), which git reads `commondir` from. `GIT_CEILING_DIRECTORIES` stops
 * discovery at the main checkout for a child that drops `GIT_DIR` (`env -u GIT_DIR git ...` run in
 * `<main>/src` finds no repository instead of the main one).
 *
 * The hook reads the same variables from its environment (ANALYSIS_ENV in src/policy/workspace), so
 * under this environment `cd <main> && git commit` is judged as acting on the worktree.
 */
import { dirname } from 'node:path';
import type { Workspace } from '../../policy/workspace/index.js';
import { shellQuote } from '../../util/quote.js';

export interface GitEnv {
  GIT_DIR: string;
  GIT_WORK_TREE: string;
  GIT_CEILING_DIRECTORIES: string;
}

export class LayerError extends Error {}

/** The git environment for the checkout a workspace was opened in. Throws LayerError outside a checkout. */
export function gitEnv(ws: Workspace): GitEnv {
  const l = ws.layout;
  if (!l || !l.current.root) throw new LayerError(`${ws.cwd} is not inside a git checkout with a work tree (${ws.skipped ?? 'no layout'})`);
  const root = l.current.root;
  const ceilings = new Set<string>();
  if (l.main?.root && l.main.root !== root) ceilings.add(l.main.root);
  const parent = dirname(root);
  if (parent !== root) ceilings.add(parent);
  return { GIT_DIR: l.current.gitDir, GIT_WORK_TREE: root, GIT_CEILING_DIRECTORIES: [...ceilings].join(':') };
}

export type EnvFormat = 'shell' | 'json';

export function formatGitEnv(env: GitEnv, format: EnvFormat): string {
  if (format === 'json') return JSON.stringify(env, null, 2) + '\n';
  return Object.entries(env).map(([k, v]) => `export ${k}=${shellQuote(v)}\n`).join('');
}
