/**
 * What `bashguard audit` compares: a snapshot of everything outside a worktree that a builder
 * could change through the shared repository: every other checkout's working tree (`git status
 * --porcelain -z`, untracked files included, each dirty path with a hash of its content), their
 * HEAD and staged content, the shared config, the hooks, the shared refs, and the control files
 * BG1005 protects inside the worktree. Git is run with GIT_OPTIONAL_LOCKS=0 (auditing must not
 * rewrite another checkout's index) and without the caller's GIT_DIR/GIT_WORK_TREE.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, constants, existsSync, fstatSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { readRegularFile } from '../../util/safe-read.js';
import { join } from 'node:path';
import type { Workspace } from '../../policy/workspace/index.js';
import { isInside } from '../../engine/shell/paths.js';
import { LayerError } from '../env/env.js';

export interface CheckoutState {
  kind: 'main' | 'sibling';
  /** Dirty or untracked path (relative to the checkout) -> `XY <content hash>`. */
  status: Record<string, string>;
  /** The checkout's HEAD file (a symref or an object id), or null when unreadable. */
  head: string | null;
  /** A hash of the staged content (`git ls-files --stage`), or null when git failed. */
  index: string | null;
}

export interface AuditSnapshot {
  version: 1;
  takenAt: string;
  commonDir: string;
  worktree: string;
  /** The worktree's branch (`refs/heads/...`), or null when detached. */
  branch: string | null;
  /** The worktree's HEAD commit: the base of its diff. */
  worktreeHead: string | null;
  checkouts: Record<string, CheckoutState>;
  config: string | null;
  /** Files under `<common>/hooks` (relative) -> content hash. */
  hooks: Record<string, string>;
  /** Shared refs -> object id. */
  refs: Record<string, string>;
  /** Protected files inside the worktree -> content hash, or null when absent. */
  protected: Record<string, string | null>;
}

/** The variables that would point git elsewhere than the directory we name. */
const REDIRECTING = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_COMMON_DIR', 'GIT_CEILING_DIRECTORIES', 'GIT_NAMESPACE', 'GIT_DISCOVERY_ACROSS_FILESYSTEM'];

export function gitRunner(env: Record<string, string | undefined>): (args: string[], opts?: { gitDir?: string }) => string | null {
  const base: NodeJS.ProcessEnv = { ...env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' };
  for (const k of REDIRECTING) delete base[k];
  return (args, opts = {}) => {
    try {
      return execFileSync('git', args, { env: opts.gitDir ? { ...base, GIT_DIR: opts.gitDir } : base, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
    } catch {
      return null;
    }
  };
}

export function hashFile(p: string): string | null {
  try {
    const st = statSync(p);
    if (st.isDirectory()) return `dir:${hashTree(p)}`;
    return contentHash(p, st);
  } catch {
    return null;
  }
}

function hashTree(dir: string): string {
  const h = createHash('sha256');
  for (const [rel, sum] of Object.entries(listFiles(dir))) h.update(`${rel}\0${sum}\0`);
  return h.digest('hex');
}

/** Every file under `dir` (relative path -> content hash), sorted. */
function listFiles(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  let names: string[];
  try {
    names = readdirSync(join(dir, prefix)).sort();
  } catch {
    return out;
  }
  for (const n of names) {
    const rel = prefix ? `${prefix}/${n}` : n;
    const full = join(dir, rel);
    let st;
    try {
      st = statSync(full);
    } catch {
      out[rel] = 'dangling';
      continue;
    }
    if (st.isDirectory()) Object.assign(out, listFiles(dir, rel));
    else out[rel] = contentHash(full, st) ?? 'unreadable';
  }
  return out;
}

/**
 * A regular file's content hash; for anything else (a FIFO, a device, a socket) its kind, never
 * opened: reading a FIFO the builder left would block the audit.
 */
function contentHash(p: string, st: { isFile(): boolean; isFIFO(): boolean; isSocket(): boolean }): string | null {
  if (!st.isFile()) return st.isFIFO() ? 'special:fifo' : st.isSocket() ? 'special:socket' : 'special:device';
  let fd: number | null = null;
  try {
    fd = openSync(p, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    if (!fstatSync(fd).isFile()) return 'special:swapped';
    return createHash('sha256').update(readFileSync(fd)).digest('hex');
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Parses `git status --porcelain=v1 -z`: entries `XY path`, renames followed by their source. */
export function parsePorcelainZ(out: string): { xy: string; path: string; from?: string }[] {
  const parts = out.split('\0');
  const entries: { xy: string; path: string; from?: string }[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.length < 4) continue;
    const xy = p.slice(0, 2);
    const e: { xy: string; path: string; from?: string } = { xy, path: p.slice(3) };
    if (xy[0] === 'R' || xy[0] === 'C') e.from = parts[++i];
    entries.push(e);
  }
  return entries;
}

export function takeSnapshot(ws: Workspace, env: Record<string, string | undefined>): AuditSnapshot {
  const l = ws.layout;
  if (!l || !l.current.root) throw new LayerError(`${ws.cwd} is not inside a git checkout with a work tree (${ws.skipped ?? 'no layout'})`);
  const git = gitRunner(env);
  const root = l.current.root;
  const common = l.current.commonDir;
  const headFile = readText(join(l.current.gitDir, 'HEAD'));
  const branch = headFile?.startsWith('ref: ') ? headFile.slice(5).trim() : null;
  const worktreeHead = git(['-C', root, 'rev-parse', '--verify', '-q', 'HEAD'])?.trim() || null;
  const others = [...(l.main && l.main.root !== root ? [{ c: l.main, kind: 'main' as const }] : []), ...l.siblings.filter((s) => s.root && s.root !== root).map((c) => ({ c, kind: 'sibling' as const }))];
  const skipRoots = [root, ...others.map((o) => o.c.root!)];
  const checkouts: Record<string, CheckoutState> = {};
  for (const { c, kind } of others) {
    const croot = c.root!;
    if (!existsSync(croot)) continue;
    const status: Record<string, string> = {};
    const out = git(['-C', croot, 'status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=none']);
    for (const e of parsePorcelainZ(out ?? '')) {
      const abs = join(croot, e.path.replace(/\/$/, ''));
      // Another checkout nested in this one is audited on its own (or is the worktree itself).
      if (skipRoots.some((r) => r !== croot && isInside(r, croot) && isInside(abs, r))) continue;
      status[e.path] = `${e.xy} ${hashFile(abs) ?? 'absent'}${e.from ? ` from ${e.from}` : ''}`;
    }
    const staged = git(['-C', croot, 'ls-files', '--stage', '-z']);
    checkouts[croot] = { kind, status, head: readText(join(c.gitDir, 'HEAD')), index: staged === null ? null : createHash('sha256').update(staged).digest('hex') };
  }
  const refs: Record<string, string> = {};
  for (const line of (git(['for-each-ref', '--format=%(refname)%00%(objectname)'], { gitDir: common }) ?? '').split('\n')) {
    const [name, oid] = line.split('\0');
    if (name && oid) refs[name] = oid;
  }
  const prot: Record<string, string | null> = {};
  for (const r of ws.regions) if (r.kind === 'protected' && isInside(r.root, root)) prot[r.root] = hashFile(r.root);
  return {
    version: 1,
    takenAt: new Date().toISOString(),
    commonDir: common,
    worktree: root,
    branch,
    worktreeHead,
    checkouts,
    config: hashFile(join(common, 'config')),
    hooks: listFiles(join(common, 'hooks')),
    refs,
    protected: prot,
  };
}

function readText(p: string): string | null {
  const r = readRegularFile(p, { maxBytes: 1024 * 1024 });
  return r.ok ? r.text.trim() : null;
}
