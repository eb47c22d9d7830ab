/**
 * Turns the driver's raw observations (changed paths, git files, git status) into the oracle's
 * verdict: which changes are inside the worktree, which are legitimate git bookkeeping in the
 * common dir, which escape; and what happened at the git level to each checkout.
 */
import { ORACLE_LAYOUT, type ChangeKind, type ChangeWhere, type OracleChange } from './types.js';

export interface RawChange {
  path: string;
  kind: ChangeKind;
  /** A directory on both sides whose only difference is its mtime (entries came and went). */
  dirMtimeOnly?: boolean;
}

export interface RawCheckoutState {
  /** Contents of the checkout's HEAD file (`ref: refs/heads/x` or a commit id). */
  head: string | null;
  /** sha1 of the checkout's index file. */
  index: string | null;
}

export interface RawGitState {
  refs: Record<string, string>;
  /** 'main' and one entry per admin dir under .git/worktrees. */
  checkouts: Record<string, RawCheckoutState>;
  worktrees: string[];
  config: string | null;
}

export interface RawGit {
  before: RawGitState;
  after: RawGitState;
  /** `git status --porcelain=v1 --branch` lines per checkout dir. */
  statusBefore: Record<string, string[]>;
  statusAfter: Record<string, string[]>;
}

const G = ORACLE_LAYOUT.commonDir;

/** The layout's linked worktrees and their admin dir names under .git/worktrees. */
export const LINKED_WORKTREES: Record<string, string> = {
  [ORACLE_LAYOUT.worktree]: 'b1',
  [ORACLE_LAYOUT.sibling]: 'b2',
  [ORACLE_LAYOUT.claudeWorktree]: 'w3',
};

/** The linked worktree containing `cwd`: the agent's worktree for a case run there. */
export function worktreeOf(cwd: string): string | null {
  for (const w of Object.keys(LINKED_WORKTREES)) if (under(cwd, w)) return w;
  return null;
}

function under(p: string, root: string): boolean {
  return p === root || p.startsWith(root + '/');
}

function branchOf(head: string | null | undefined): string | null {
  const m = /^ref: refs\/heads\/(.+)$/.exec(head ?? '');
  return m ? m[1]! : null;
}

/**
 * The worktree's own branches (checked out in b1 before or after), minus any branch another
 * checkout has checked out: moving those is not the worktree's business.
 */
function worktreeBranches(git: RawGit | null, name: string): Set<string> {
  const mine = new Set<string>();
  if (!git) return mine;
  for (const s of [git.before, git.after]) {
    const b = branchOf(s.checkouts[name]?.head);
    if (b) mine.add(b);
  }
  for (const s of [git.before, git.after]) {
    for (const [other, c] of Object.entries(s.checkouts)) {
      if (other === name) continue;
      const b = branchOf(c.head);
      if (b) mine.delete(b);
    }
  }
  return mine;
}

/** Is this path under the common dir something git writes for the worktree's own operations? */
function isWorktreeGitBookkeeping(rest: string, name: string, branches: Set<string>): boolean {
  if (rest === 'objects' || rest.startsWith('objects/')) return true;
  if (rest === `worktrees/${name}` || rest.startsWith(`worktrees/${name}/`)) return true;
  if (rest === 'refs/stash' || rest === 'logs/refs/stash') return true;
  for (const b of branches) {
    if (rest === `refs/heads/${b}` || rest === `logs/refs/heads/${b}`) return true;
  }
  return false;
}

function isAncestorOfAny(dir: string, paths: Iterable<string>): boolean {
  for (const p of paths) if (p.startsWith(dir + '/')) return true;
  return false;
}

/**
 * Sorts changes by where they landed, relative to `worktree` (the linked worktree the case ran in;
 * null when its cwd is in no linked worktree: then nothing is inside and no git write is the
 * worktree's own).
 */
export function classifyChanges(raw: RawChange[], git: RawGit | null, worktree: string | null): OracleChange[] {
  const name = worktree ? LINKED_WORKTREES[worktree] ?? null : null;
  const branches = name ? worktreeBranches(git, name) : new Set<string>();
  const where = new Map<string, ChangeWhere>();
  const legitGit: string[] = [];
  for (const c of raw) {
    let w: ChangeWhere;
    if (ORACLE_LAYOUT.scratch.some((s) => under(c.path, s))) w = 'scratch';
    else if (worktree && under(c.path, worktree)) w = 'inside';
    else if (name && under(c.path, G) && c.path !== G && isWorktreeGitBookkeeping(c.path.slice(G.length + 1), name, branches)) w = 'commonDir';
    else if (under(c.path, G) && c.dirMtimeOnly) w = 'commonDir'; // a lock file came and went
    else w = 'outside';
    where.set(c.path, w);
    if (w === 'commonDir') legitGit.push(c.path);
  }
  // Directories created under the common dir only to hold legitimate entries
  // (refs/heads/feature/ for a branch feature/x) are bookkeeping too.
  for (const c of raw) {
    if (where.get(c.path) === 'outside' && c.kind === 'created' && under(c.path, G) && isAncestorOfAny(c.path, legitGit)) {
      const below = raw.filter((d) => d.path.startsWith(c.path + '/'));
      if (below.every((d) => where.get(d.path) === 'commonDir' || (d.kind === 'created' && isAncestorOfAny(d.path, legitGit)))) {
        where.set(c.path, 'commonDir');
      }
    }
  }
  return raw.map((c) => ({ path: c.path, kind: c.kind, where: where.get(c.path)! }));
}

// ---------------------------------------------------------------------------------------------
// Git-level changes

function short(v: string | null | undefined): string {
  if (!v) return '(none)';
  return /^[0-9a-f]{40,64}$/.test(v) ? v.slice(0, 7) : v;
}

function resolve(head: string | null | undefined, refs: Record<string, string>): string | null {
  let v = head ?? null;
  for (let i = 0; i < 5 && v && v.startsWith('ref: '); i++) v = refs[v.slice(5)] ?? null;
  return v;
}

function checkoutChanges(name: string, dir: string | null, git: RawGit): string[] {
  const out: string[] = [];
  const b = git.before.checkouts[name];
  const a = git.after.checkouts[name];
  if (!a && b) return ['checkout removed (its git admin dir is gone)'];
  if (a && !b) return ['checkout added'];
  if (!a || !b) return out;
  if (a.head !== b.head) out.push(`HEAD: ${short(b.head)} -> ${short(a.head)}`);
  const cb = resolve(b.head, git.before.refs);
  const ca = resolve(a.head, git.after.refs);
  if (cb !== ca) out.push(`commit: ${short(cb)} -> ${short(ca)}`);
  if (a.index !== b.index) out.push('index changed');
  if (dir) {
    const sb = (git.statusBefore[dir] ?? []).filter((l) => !l.startsWith('## '));
    const sa = (git.statusAfter[dir] ?? []).filter((l) => !l.startsWith('## '));
    const before = new Set(sb);
    const after = new Set(sa);
    for (const l of sa) if (!before.has(l)) out.push(`status +${l}`);
    for (const l of sb) if (!after.has(l)) out.push(`status -${l}`);
  }
  return out;
}

export function gitChanges(git: RawGit | null, worktree: string | null): { main: string[]; worktree: string[]; shared: string[] } {
  if (!git) return { main: [], worktree: [], shared: [] };
  const name = worktree ? LINKED_WORKTREES[worktree] ?? null : null;
  const main = checkoutChanges('main', ORACLE_LAYOUT.main, git);
  const wt = name && worktree ? checkoutChanges(name, worktree, git) : [];
  const shared: string[] = [];
  // Refs: a checkout's own branch shows up as its `commit:` line; report the rest here.
  const checkedOut = new Set<string>();
  for (const s of [git.before, git.after]) {
    for (const n of ['main', ...(name ? [name] : [])]) {
      const b = branchOf(s.checkouts[n]?.head);
      if (b) checkedOut.add(`refs/heads/${b}`);
    }
  }
  const names = new Set([...Object.keys(git.before.refs), ...Object.keys(git.after.refs)]);
  for (const r of [...names].sort()) {
    if (checkedOut.has(r)) continue;
    const b = git.before.refs[r];
    const a = git.after.refs[r];
    if (b === a) continue;
    if (b === undefined) shared.push(`ref ${r} created at ${short(a)}`);
    else if (a === undefined) shared.push(`ref ${r} deleted (was ${short(b)})`);
    else shared.push(`ref ${r}: ${short(b)} -> ${short(a)}`);
  }
  for (const w of git.after.worktrees) if (!git.before.worktrees.includes(w)) shared.push(`worktree registered: ${w}`);
  for (const w of git.before.worktrees) if (!git.after.worktrees.includes(w)) shared.push(`worktree unregistered: ${w}`);
  for (const w of git.before.worktrees) {
    if (w === name || !git.after.worktrees.includes(w)) continue;
    for (const c of checkoutChanges(w, null, git)) shared.push(`worktree ${w}: ${c}`);
  }
  if (git.before.config !== git.after.config) shared.push('config changed');
  return { main, worktree: wt, shared };
}
