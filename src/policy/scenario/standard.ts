/**
 * The standard scenario of docs/conventions.md as data: a layout and an in-memory file system
 * (for symlinks), so corpus cases and rule examples run without touching the disk. The execution
 * oracle materialises the same layout for real.
 */
import type { Checkout, Layout } from '../layout/types.js';
import type { PhysicalFs } from '../physical.js';
import { DEFAULT_CONFIG, type Config } from '../config.js';
import type { PolicyContext } from '../policy.js';
import { workspaceFromLayout, type Workspace } from '../workspace/workspace.js';
import { isInside, normalizeLogical } from '../../engine/shell/paths.js';
import type { Host } from '../../engine/interpret/interpreter.js';

export const HOME = '/home/dev';
export const MAIN = '/home/dev/repo';
export const WORKTREE = '/home/dev/repo/.builders/b1';
export const SIBLING = '/home/dev/repo/.builders/b2';
export const CLAUDE_WT = '/home/dev/repo/.claude/worktrees/w3';
export const OUTSIDE = '/home/dev/other';
export const COMMON = '/home/dev/repo/.git';

const main: Checkout = { kind: 'main', root: MAIN, gitDir: COMMON, commonDir: COMMON, name: null };
const linked = (root: string, name: string): Checkout => ({ kind: 'linked-worktree', root, gitDir: `${COMMON}/worktrees/${name}`, commonDir: COMMON, name });
const ALL = [main, linked(WORKTREE, 'b1'), linked(SIBLING, 'b2'), linked(CLAUDE_WT, 'w3')];

/** The layout as seen from the checkout containing `cwd` (default: the worktree b1). */
export function standardLayout(cwd: string = WORKTREE): Layout | null {
  const containing = ALL.filter((c) => c.root && isInside(cwd, c.root)).sort((a, b) => b.root!.length - a.root!.length)[0];
  if (!containing) return null;
  return { current: containing, main: containing === main ? main : main, siblings: ALL.filter((c) => c !== containing && c !== main) };
}

/** The branch each checkout has checked out, as the oracle's layout does (`git worktree add -b NAME`). */
const HEADS: Record<string, string> = {
  [`${COMMON}/HEAD`]: 'ref: refs/heads/main\n',
  ...Object.fromEntries(['b1', 'b2', 'w3'].map((n) => [`${COMMON}/worktrees/${n}/HEAD`, `ref: refs/heads/${n}\n`])),
};

/**
 * The git files the oracle's layout has (its template runs `git init` and `git worktree add`),
 * for what reads them: which command `git X` runs (src/engine/commands/git-resolve.ts).
 */
const GIT_FILES: Record<string, string> = {
  [`${HOME}/.gitconfig`]: '[user]\n\tname = t\n\temail = t@t\n[init]\n\tdefaultBranch = main\n',
  [`${COMMON}/config`]: '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n',
  ...Object.fromEntries(
    ([['b1', WORKTREE], ['b2', SIBLING], ['w3', CLAUDE_WT]] as const).flatMap(([n, root]) => [
      [`${root}/.git`, `gitdir: ${COMMON}/worktrees/${n}\n`],
      [`${COMMON}/worktrees/${n}/commondir`, '../..\n'],
    ]),
  ),
};

/** Directories every scenario has (the oracle creates them too; every checkout has the committed src/ and docs/). */
const LAYOUT_DIRS = [MAIN, WORKTREE, SIBLING, CLAUDE_WT, OUTSIDE, COMMON, ...[MAIN, WORKTREE, SIBLING, CLAUDE_WT].flatMap((r) => [`${r}/src`, `${r}/docs`]), '/tmp'];

export interface ScenarioFs extends PhysicalFs, Host {
  symlinks: Map<string, string>;
  files: Map<string, string>;
}

/**
 * An in-memory file system holding only the symlinks and files a case declares. A key ending in
 * `/` declares a directory holding nothing but what the case declares below it: other names there
 * are missing (elsewhere, what the case does not declare is unknown).
 */
export function memoryFs(symlinks: Record<string, string> = {}, files: Record<string, string> = {}): ScenarioFs {
  const links = new Map(Object.entries(symlinks));
  const fileMap = new Map(Object.entries(files).filter(([k]) => !k.endsWith('/')));
  const complete = Object.keys(files).filter((k) => k.endsWith('/') && k !== '/').map((k) => k.slice(0, -1));
  const fs: ScenarioFs = {
    symlinks: links,
    files: fileMap,
    readlink: (p) => links.get(p) ?? null,
    exists: (p) => links.has(p) || fileMap.has(p) || [...fileMap.keys(), ...links.keys(), ...complete].some((k) => k === p || k.startsWith(p + '/')),
    realpath: (p) => resolveMem(p, links),
    readFile: (p) => fileMap.get(resolveMem(p, links)) ?? HEADS[resolveMem(p, links)] ?? GIT_FILES[resolveMem(p, links)] ?? null,
    stat: (p) => {
      // Only what the scenario declares is known: the layout's directories and git files, the case's files and complete directories.
      const r = resolveMem(p, links);
      if (fileMap.has(r) || HEADS[r] !== undefined || GIT_FILES[r] !== undefined) return 'file';
      if (LAYOUT_DIRS.some((d) => isInside(d, r)) || [...fileMap.keys(), ...complete, ...links.keys()].some((f) => isInside(f, r) && f !== r) || complete.includes(r)) return 'directory';
      if (complete.some((d) => isInside(r, d))) return 'missing';
      return null;
    },
    // The oracle runs as root: every directory there is searchable.
    searchable: (p) => (fs.stat!(p) === 'directory' ? true : null),
  };
  return fs;
}

function resolveMem(p: string, links: Map<string, string>): string {
  const parts = normalizeLogical(p).split('/').filter(Boolean);
  let out: string[] = [];
  let hops = 0;
  while (parts.length) {
    const part = parts.shift()!;
    if (part === '..') {
      out.pop();
      continue;
    }
    const cand = '/' + [...out, part].join('/');
    const t = links.get(cand);
    if (t !== undefined && hops++ < 40) {
      if (t.startsWith('/')) out = [];
      parts.unshift(...t.split('/').filter((x) => x && x !== '.'));
      continue;
    }
    out.push(part);
  }
  return '/' + out.join('/');
}

export function standardEnv(cwd: string = WORKTREE): Record<string, string | undefined> {
  return { HOME, USER: 'dev', PWD: cwd, TMPDIR: undefined };
}

/** The standard scenario as a workspace seen from `cwd`, with an in-memory file system. */
export function standardWorkspace(fs: ScenarioFs, cwd: string = WORKTREE, config: Config = DEFAULT_CONFIG, env: Record<string, string | undefined> = standardEnv(cwd)): Workspace {
  return workspaceFromLayout(standardLayout(cwd), cwd, { env, fs, host: fs, config });
}

/** The policy context of the standard workspace, or null outside any checkout. */
export function standardPolicy(fs: ScenarioFs, cwd: string = WORKTREE, config: Config = DEFAULT_CONFIG): PolicyContext | null {
  return standardWorkspace(fs, cwd, config).policy();
}
