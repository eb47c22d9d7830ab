/**
 * The index state of a few files in a checkout, for the policy's check of git commands that drop
 * untracked, ignored or locally modified control files (src/policy/git-control.ts).
 *
 * Decision: ask git (`git status --porcelain -z --ignored -uall -- PATHS`) instead of reading the
 * index. The index format has versions 2-4 (v4 prefix-compresses paths), split and sparse indexes,
 * and "ignored" needs every .gitignore, info/exclude and core.excludesFile: reimplementing that is
 * large and easy to get subtly wrong, and a wrong "tracked" would be a silent allow. The process
 * is spawned only when a command that can drop files acts on the worktree AND a control file
 * exists there, so ordinary tool calls never pay for it. GIT_OPTIONAL_LOCKS=0 keeps `status` from
 * refreshing (writing) the index. When git fails or takes over 3 s the answer is null and the
 * policy assumes every state (fail closed).
 */
import { execFileSync } from 'node:child_process';
import type { FileState } from '../git-control.js';
import { isInside } from '../../engine/shell/paths.js';

/** States of each path (a file, or a directory: the states of the files below it). */
export function gitFileStates(root: string, paths: string[], env: Record<string, string | undefined>): Map<string, Set<FileState>> | null {
  const clean: Record<string, string> = { GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
  for (const k of ['PATH', 'HOME', 'XDG_CONFIG_HOME']) if (env[k] !== undefined) clean[k] = env[k]!;
  let out: string;
  try {
    out = execFileSync('git', ['-C', root, 'status', '--porcelain=v1', '-z', '--ignored', '--untracked-files=all', '--no-renames', '--', ...paths.map((p) => p.slice(root.length + 1))], {
      env: clean,
      encoding: 'utf8',
      timeout: 3000,
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 8 * 1024 * 1024,
    });
  } catch {
    return null;
  }
  const states = new Map<string, Set<FileState>>(paths.map((p) => [p, new Set<FileState>()]));
  for (const entry of out.split('\0')) {
    if (entry.length < 4) continue;
    const xy = entry.slice(0, 2);
    const file = `${root}/${entry.slice(3).replace(/\/$/, '')}`;
    const state: FileState = xy === '??' ? 'untracked' : xy === '!!' ? 'ignored' : 'modified';
    for (const p of paths) if (isInside(file, p) || isInside(p, file)) states.get(p)!.add(state);
  }
  // A tracked file git does not list is clean; a directory with no listed file holds only clean ones.
  for (const s of states.values()) if (s.size === 0) s.add('clean');
  return states;
}
