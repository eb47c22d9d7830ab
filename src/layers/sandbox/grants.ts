/**
 * The file-system grants of an OS sandbox for one worktree (seed 002), derived from the workspace
 * model: git works in the linked worktree (its admin dir and the shared objects/refs/logs are
 * writable), and nothing else of the repository is: the main checkout and sibling worktrees are
 * read-only, the common dir's `config` and `info` are read-only, `hooks/` is never writable (a
 * planted hook would run outside the sandbox on the next host-side commit), and the files BG1005
 * protects stay read-only even inside the worktree. Scratch dirs and configured write roots are
 * writable; the rest of the file system is read-only.
 *
 * Grants are ordered parents first (shorter path first; read-only after read-write on a tie), so
 * applying them in order, each overriding what came before for its subtree, gives "the most
 * specific grant wins", like `classify` (bwrap binds and Seatbelt's last-match rule both work so).
 */
import { lstatSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Workspace } from '../../policy/workspace/index.js';
import { isInside } from '../../engine/shell/paths.js';
import { LayerError } from '../env/env.js';
import { nativeIO, STAT } from '../../runtime/index.js';
import { physicalPath } from '../../util/physical-path.js';
import { refGrants, volatileGrants } from './git-refs.js';

export type Access = 'rw' | 'ro';

export interface Grant {
  path: string;
  access: Access;
  /** Why this grant exists (shown by `bashguard sandbox`). */
  why: string;
  /** A directory bound onto itself only so that it cannot be renamed away from a read-only file inside it. */
  pin?: boolean;
  /**
   * A path that does not exist: an empty read-only directory (`true`) or file (`'file'`) is
   * mounted there, and so created; `'between'`, a plain directory made on the way to one (a
   * `pin`, writable), so `.github/` where `.github/hooks/` is reserved. What the wrapper makes for
   * them is removed after the call (./reserve.ts, native/reserve-core.h).
   */
  reserve?: boolean | 'file' | 'between';
  /** A read-only directory that stands for a missing control path inside it (held or reserved): that path. */
  holds?: string;
  /**
   * The shared git dir of a linked worktree under the mounts (./git-refs.ts `volatileGrants`): a
   * writable tmpfs on it, where a new top-level name (a lock) lands and vanishes with the call;
   * read-only for every other purpose.
   */
  volatile?: boolean;
  /**
   * An entry of a `volatile` directory bound back onto the tmpfs with its access (`true`; skipped
   * where it is gone by the call), or, for a name that does not exist on the host, an empty
   * read-only file (`'empty'`: /dev/null) or directory (`'empty-dir'`: a read-only tmpfs) made there.
   */
  back?: true | 'empty' | 'empty-dir';
}

export interface SandboxPlan {
  worktree: string;
  /** Ordered: apply in order, later overrides earlier for its subtree. Every path exists, except `reserve` ones. */
  grants: Grant[];
  /** Protected paths that do not exist yet: a sandbox cannot reserve a name without creating it. */
  unreserved: string[];
  /**
   * Control paths the mechanism leaves to the analyzer, with why (Landlock's worktree granted
   * whole, ./landlock-line.ts): writable under it, so no decision may count on the kernel for them.
   */
  unheld?: { path: string; why: string }[];
  /**
   * Where the plan leaves the shared git dir's refs writable (Landlock), why: code bashguard
   * cannot read could move another branch or a tag there, so it is not held.
   */
  openRefs?: string;
}

/**
 * What lstat(2) says of `p`: `-` nothing there (or not reachable: ENOTDIR, EACCES), `l` a
 * symlink, `d` a directory, `f` anything else. Through bashguard's addon when this process has
 * loaded it (the hook has: one call, no Stats object), else Node's lstat.
 */
export function kindOf(p: string): string {
  const io = nativeIO(false);
  if (io) {
    const k = io.statKind(p, false);
    return k >= 0 ? 'f' : k === STAT.SYMLINK ? 'l' : k === STAT.DIRECTORY ? 'd' : k === STAT.OTHER ? 'f' : '-';
  }
  try {
    const st = lstatSync(p, { throwIfNoEntry: false });
    return !st ? '-' : st.isSymbolicLink() ? 'l' : st.isDirectory() ? 'd' : 'f';
  } catch {
    return '-';
  }
}

/** Whether the file system still shows every fact of `probes` (see `Resolver.probes`). */
export function probesHold(probes: readonly (readonly [string, string])[]): boolean {
  // (an index loop: destructuring each pair allocates an iterator per probe, ~100 on every allowed call)
  for (let i = 0; i < probes.length; i++) {
    const p = probes[i]![0];
    const want = probes[i]![1];
    if (p.startsWith('\0') ? (physicalPath(p.slice(1)) ?? '') !== want : p.startsWith('\u0001') ? mtimeOf(p.slice(1)) !== want : kindOf(p) !== want) return false;
  }
  return true;
}

/**
 * A directory's mtime and inode as text, '' where it cannot be read. The mtime in ms as a double
 * keeps ~0.25 µs at today's dates, finer than the kernel's stamp (a directory's mtime comes from
 * the coarse clock, one tick apart), and the plain lstat is the one the hook has run already:
 * `{ bigint: true }` ran Node's BigInt stat code cold on every allowed call (~0.5 M instructions).
 */
export function mtimeOf(p: string): string {
  try {
    const st = lstatSync(p, { throwIfNoEntry: false });
    return st ? `${st.mtimeMs}:${st.ino}` : '';
  } catch {
    return '';
  }
}

/** A path that is absolute and has no `.`, `..`, empty component or trailing slash. */
const NORMAL = /^(?:\/(?!\.\.?(?:\/|$))[^/]+)+$/;

/**
 * Physical paths for one plan, one lstat per distinct component, remembered: a plan resolves
 * ~60 paths that share most of their ancestors, and realpath(3) costs an lstat or readlink per
 * component on every call (and an exception per missing path in Node). A component that is a
 * symlink (or a path that is not normal) goes to realpath(3).
 */
class Resolver {
  private readonly memo = new Map<string, string | null>();
  private readonly kinds = new Map<string, string>();
  /**
   * Every file-system fact the plan was computed from, in order: `[path, kind]` for an lstat
   * (`kindOf`), `[NUL + path, real path or '']` for a realpath(3), `[\x01 + dir, mtime]` for a
   * directory listed (`listing`). The same facts give the same
   * plan (`probesHold`).
   */
  readonly probes: [string, string][] = [];

  private kind(p: string): string {
    let k = this.kinds.get(p);
    if (k === undefined) {
      k = kindOf(p);
      this.kinds.set(p, k);
      this.probes.push([p, k]);
    }
    return k;
  }

  private native(p: string): string | null {
    const r = physicalPath(p);
    this.probes.push([`\0${p}`, r ?? '']);
    return r;
  }

  /** The physical path, or null where nothing is there (a dangling symlink included). */
  real(p: string): string | null {
    if (p === '/') return '/';
    let r = this.memo.get(p);
    if (r !== undefined) return r;
    if (!NORMAL.test(p)) r = this.native(p);
    else {
      const k = this.kind(p);
      if (k === '-') r = null;
      else if (k === 'l') r = this.native(p);
      else {
        const i = p.lastIndexOf('/');
        const parent = i === 0 ? '/' : this.real(p.slice(0, i));
        r = parent === null ? null : `${parent === '/' ? '' : parent}${p.slice(i)}`;
      }
    }
    this.memo.set(p, r);
    return r;
  }

  exists(p: string): boolean {
    return this.real(p) !== null;
  }

  /** lstat's kind of a physical path, as a fact of the plan. */
  kindAt(p: string): string {
    return this.kind(p);
  }

  /** The names in a physical directory (null where it cannot be read), with its mtime as a fact of the plan. */
  listing(dir: string): string[] | null {
    return this.entries(dir)?.map((e) => e.name) ?? null;
  }

  /** listing, with each entry's kind as lstat says it (`d`, `l`, `f`; an entry replaced renames in `dir`, changing its mtime). */
  entries(dir: string): { name: string; kind: string }[] | null {
    const m = mtimeOf(dir);
    this.probes.push([`\u0001${dir}`, m]);
    try {
      return readdirSync(dir, { withFileTypes: true })
        .map((e) => ({ name: e.name, kind: e.isSymbolicLink() ? 'l' : e.isDirectory() ? 'd' : 'f' }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch {
      return null;
    }
  }

  isDir(p: string): boolean {
    const r = this.real(p);
    return r !== null && this.kind(r) === 'd';
  }

  nearestExisting(p: string): string | null {
    for (let d = dirname(p); ; d = dirname(d)) {
      const r = this.real(d);
      if (r !== null) return r;
      if (d === '/') return null;
    }
  }
}

export interface PlanOptions {
  /**
   * What the rest of the file system is: `ro` (`sandbox run`, the `sandbox` decision: only the
   * worktree, scratch dirs and write roots are writable) or `rw` (enforcement of every allowed
   * call, ./enforce.ts: the file system as the user has it, with the protected regions read-only).
   */
  base?: Access;
  /**
   * More control paths to keep read-only (the enforcement's list, ./enforce.ts); `emptyOk`: a
   * file that does not exist is reserved with an empty read-only file (for files whose being
   * empty means the same as their absence: `~/.gitconfig`, `~/.zshenv`).
   */
  extra?: { path: string; why: string; emptyOk?: boolean }[];
  /**
   * Reserve missing control names that lie in a writable place (the enforcement: only those in the
   * write roots need it, `<worktree>/.claude/`); with `base: 'rw'` always.
   */
  reserve?: boolean;
  /**
   * Of the shared git dir, a linked worktree may write only its own branch's ref and reflog and
   * new objects (./git-refs.ts); else all of `objects/`, `refs/`, `logs/` and `packed-refs`.
   */
  heldRefs?: boolean | 'volatile';
  /**
   * Paths (physical) that the wrapper made for reservations and that are still recorded to be
   * swept (./enforce.ts `recordedReservations`): planned as if missing.
   */
  transient?: string[];
  /** With `base: 'ro'`, more grants (the enforcement's /dev: devices as the user has them). */
  more?: { path: string; access: Access; why: string }[];
}

/** The grants for the worktree a workspace was opened in. Throws LayerError where there is no linked worktree or checkout. */
export function sandboxPlan(ws: Workspace, opts: PlanOptions = {}): SandboxPlan {
  return probedPlan(ws, opts).plan;
}

/** sandboxPlan, with the file-system facts it was computed from (for a cache: see `probesHold`). */
export function probedPlan(ws: Workspace, opts: PlanOptions = {}): { plan: SandboxPlan; probes: [string, string][] } {
  const l = ws.layout;
  if (!l || !l.current.root) throw new LayerError(`${ws.cwd} is not inside a git checkout with a work tree (${ws.skipped ?? 'no layout'})`);
  const base = opts.base ?? 'ro';
  const R = new Resolver();
  const real = (p: string) => R.real(p);
  // What an earlier call's wrapper made for its reservations and has not swept yet counts as
  // missing: reserved again, it is the same plan whether or not the sweep came first.
  const made = new Set(opts.transient ?? []);
  const gone = (r: string | null) => r !== null && made.size > 0 && [...made].some((t) => r === t || isInside(r, t));
  const existsSync = (p: string) => !gone(R.real(p)) && R.exists(p);
  const isDir = (p: string) => !gone(R.real(p)) && R.isDir(p);
  const nearestExisting = (p: string): string | null => {
    if (!made.size) return R.nearestExisting(p);
    for (let d = dirname(p); ; d = dirname(d)) {
      const r = R.real(d);
      if (r !== null && !gone(r)) return r;
      if (d === '/') return null;
    }
  };
  const root = l.current.root;
  const common = l.current.commonDir;
  const want: Grant[] = [];
  const add = (path: string, access: Access, why: string) => want.push({ path, access, why });
  if (base === 'rw') add('/', 'rw', 'the file system as the user has it');
  else {
    // The write roots of the workspace (src/policy/write-roots.ts), as the analyzer has them; the
    // rest of the file system read-only, the directory holding a root under a scratch dir included.
    add('/', 'ro', 'everything outside the write roots');
    for (const r of ws.regions) {
      if (r.kind === 'scratch') add(r.root, 'rw', 'scratch directory');
      else if (r.kind === 'allowed') add(r.root, 'rw', r.why ? `write root: ${r.why}` : 'configured write root');
      else if (r.kind === 'outside') add(r.root, 'ro', r.why ?? 'outside the write roots');
    }
    // (a write root of the same path wins: `writeRoots: ["/dev"]`)
    for (const m of opts.more ?? []) if (!ws.regions.some((r) => (r.kind === 'allowed' || r.kind === 'scratch') && r.root === m.path)) add(m.path, m.access, m.why);
  }
  if (l.main?.root && l.main.root !== root) add(l.main.root, 'ro', 'the main checkout');
  for (const s of l.siblings) if (s.root && s.root !== root) add(s.root, 'ro', 'a sibling worktree');
  add(common, 'ro', 'the shared git dir');
  add(root, 'rw', 'the worktree');
  if (opts.heldRefs && l.current.kind === 'linked-worktree') for (const g of refGrants(common, l.current.gitDir)) add(g.path, g.access, g.why);
  else for (const own of ['objects', 'refs', 'logs', 'packed-refs']) add(`${common}/${own}`, 'rw', "git's shared store, written by this worktree's commits");
  if (l.current.kind === 'linked-worktree') add(l.current.gitDir, 'rw', "this worktree's admin dir (index, HEAD, logs)");
  else add(`${root}/.git`, 'rw', 'the git dir of this checkout');
  add(`${common}/config`, 'ro', 'the shared repository config (core.hooksPath, credential.helper, url.insteadOf)');
  add(`${common}/info`, 'ro', 'shared excludes and attributes');
  add(`${common}/hooks`, 'ro', 'git hooks run outside the sandbox on the next host-side commit');
  const unreserved: string[] = [];
  const reserve: Grant[] = [];
  const home = ws.env.HOME?.startsWith('/') ? real(ws.env.HOME) : null;
  const protectedPaths: { path: string; why: string; emptyOk?: boolean }[] = [...ws.regions.filter((r) => r.kind === 'protected').map((r) => ({ path: r.root, why: r.why ?? 'a protected file' })), ...(opts.extra ?? [])];
  const reserveOn = base === 'rw' || opts.reserve === true;
  // Directories in HOME, outside the worktree, that hold missing control names (HOME inside a write root):
  // masked instead of reserved (see `maskGrants`), so nothing is created there.
  const masks = new Map<string, string>();
  const maskable = homeMasks(want, home, root, real);
  for (const r of protectedPaths) {
    if (existsSync(r.path)) add(r.path, 'ro', r.why);
    else if (reserveOn && maskable(nearestExisting(r.path))) {
      const anc = nearestExisting(r.path)!;
      if (!masks.has(anc)) masks.set(anc, r.path);
    } else if (reserveOn && r.emptyOk && nearestExisting(r.path) === real(dirname(r.path))) {
      const p = `${real(dirname(r.path))}/${r.path.slice(r.path.lastIndexOf('/') + 1)}`;
      if (!reserve.some((g) => g.path === p)) reserve.push({ path: p, access: 'ro', why: `reserves ${r.path} (${r.why}), which does not exist yet, with an empty file`, reserve: 'file' });
    } else {
      // A name that does not exist cannot be bound without creating it on the real disk.
      const anc = nearestExisting(r.path);
      const dirs = anc && reserveOn ? reservable(r.path, anc, [root, home]) : null;
      if (dirs) {
        // A control directory that does not exist yet in a writable place (`<worktree>/.codex/`,
        // `.github/hooks/`, `~/.cache/bashguard/`) could be created with a settings file in it:
        // reserve it with an empty read-only directory, made with the directories on the way to
        // it for the call and removed after it.
        const dir = dirs[dirs.length - 1]!;
        for (const b of dirs.slice(0, -1)) if (!reserve.some((g) => g.path === b)) reserve.push({ path: b, access: 'rw', why: `holds ${dir}, reserved for ${r.path}`, pin: true, reserve: 'between' });
        if (!reserve.some((g) => g.path === dir)) reserve.push({ path: dir, access: 'ro', why: `reserves ${r.path} (${r.why}), which does not exist yet`, reserve: true, holds: r.path });
      } else if (anc && anc !== root && (isInside(anc, root) || (reserveOn && home !== null && anc !== home && isInside(anc, home)))) {
        // Keep its nearest existing directory read-only instead, when that is a dedicated
        // directory below the worktree or HOME (`.claude/` for `.claude/settings.local.json`).
        want.push({ path: anc, access: 'ro', why: `holds ${r.path} (${r.why}), which does not exist yet`, holds: r.path });
      } else unreserved.push(r.path);
    }
  }
  // Resolve, drop what does not exist, dedupe (a later read-only wins over a read-write of the same path).
  const byPath = new Map<string, Grant>();
  for (const g of want) {
    const p = real(g.path);
    if (!p) continue;
    const prev = byPath.get(p);
    if (!prev || (prev.access === 'rw' && g.access === 'ro')) byPath.set(p, { ...g, path: p });
  }
  for (const [anc, missing] of masks) for (const g of maskGrants(anc, missing, [...byPath.values()], R)) byPath.set(g.path, g);
  // A read-only path inside a writable one could be escaped by renaming a directory between them
  // (the rename moves the mount along): bind each such directory onto itself, which makes it a
  // mount point that cannot be renamed.
  const grants = [...byPath.values()];
  for (const g of [...grants]) {
    if (g.access !== 'ro') continue;
    const host = writableParent(g.path, grants);
    if (!host) continue;
    for (let d = dirname(g.path); d !== host.path && isInside(d, host.path) && d !== '/'; d = dirname(d)) {
      if (!byPath.has(d) && isDir(d)) {
        const pin: Grant = { path: d, access: 'rw', why: `holds ${g.path}`, pin: true };
        byPath.set(d, pin);
        grants.push(pin);
      }
    }
  }
  for (const g of reserve) if (!byPath.has(g.path) && effectiveAccess(g.path, grants) === 'rw') grants.push(g);
  for (const g of [...grants]) {
    if (!g.reserve) continue;
    const host = writableParent(g.path, grants);
    for (let d = dirname(g.path); host && d !== host.path && isInside(d, host.path) && d !== '/'; d = dirname(d)) {
      if (!grants.some((x) => x.path === d) && isDir(d)) grants.push({ path: d, access: 'rw', why: `holds ${g.path}`, pin: true });
    }
  }
  inMountOrder(grants, opts.heldRefs === 'volatile' && l.current.kind === 'linked-worktree' ? real(common) : null, R);
  return { plan: { worktree: root, grants, unreserved: unreserved.filter((u) => grants.some((g) => g.access === 'rw' && isInside(u, g.path)) && effectiveAccess(u, grants) === 'rw') }, probes: R.probes };
}

/**
 * The grants in place, in the order they are applied (parents first), with the shared git dir
 * `volatile` (physical; null: not) as a tmpfs and its entries bound back (./git-refs.ts `volatileGrants`).
 */
function inMountOrder(grants: Grant[], volatile: string | null, R: Resolver): void {
  const at = volatile === null ? -1 : grants.findIndex((g) => g.path === volatile);
  const v = at < 0 ? null : volatileGrants(grants[at]!, R.entries(volatile!), (p) => effectiveAccess(p, grants));
  if (v) {
    grants[at] = v.dir;
    for (const b of v.back) {
      const i = grants.findIndex((g) => g.path === b.path);
      if (i >= 0) grants[i] = { ...grants[i]!, back: true };
      else grants.push(b);
    }
  }
  grants.sort((a, b) => a.path.length - b.path.length || (a.access === b.access ? 0 : a.access === 'rw' ? -1 : 1));
}

/**
 * Which missing control paths are masked (`maskGrants`) rather than reserved: those whose nearest
 * existing directory `anc` is HOME or lies in it, outside the worktree, and is writable only
 * because HOME lies in a write root (the grant that decides `anc` holds HOME: a HOME under $TMPDIR).
 * Not in a write root inside HOME (`~/.cache/bashguard` in the tool cache `~/.cache`, which must
 * take new entries), nor in a scratch dir itself (no new entry in /tmp would cost too much): those
 * keep a reservation, inside a write root, or stay `unreserved`.
 */
function homeMasks(want: Grant[], home: string | null, root: string, real: (p: string) => string | null): (anc: string | null) => boolean {
  if (home === null) return () => false;
  const resolved: Grant[] = [];
  for (const g of want) {
    const p = real(g.path);
    if (p !== null) resolved.push({ ...g, path: p });
  }
  const deciding = (p: string): Grant | null => {
    let best: Grant | null = null;
    for (const g of resolved) if ((p === g.path || isInside(p, g.path)) && (!best || g.path.length > best.path.length || (g.path.length === best.path.length && g.access === 'ro'))) best = g;
    return best;
  };
  const forHome = deciding(home);
  if (forHome?.access !== 'rw') return () => false;
  return (anc) => anc !== null && (anc === home || isInside(anc, home)) && anc !== root && !isInside(anc, root) && deciding(anc)?.path === forHome.path;
}

/**
 * A missing control name outside the worktree that a command could create (its directory `anc`
 * is writable: HOME inside a scratch dir or a configured root) is held without creating
 * anything: `anc` read-only, so no new entry can be made in it, and each entry it holds writable
 * again as before (the more specific grants inside them still apply). A reservation would make
 * the name in HOME for as long as the call runs (./reserve.ts). The cost, in that place
 * only: no new entry directly in `anc`, and an entry there cannot be renamed over or removed (a
 * mount point). The listing is one of the plan's facts (`R.probes`: `anc`'s mtime), so a new
 * entry made outside the sandbox computes the plan again.
 */
function maskGrants(anc: string, missing: string, grants: Grant[], R: Resolver): Grant[] {
  if (effectiveAccess(anc, grants) !== 'rw') return [];
  const names = R.listing(anc);
  if (names === null) return [];
  const out: Grant[] = [{ path: anc, access: 'ro', why: `holds ${missing}, a control path that does not exist yet (no new entry here)` }];
  const have = new Set(grants.map((g) => g.path));
  for (const n of names) {
    const p = anc === '/' ? `/${n}` : `${anc}/${n}`;
    const k = R.kindAt(p);
    if (have.has(p) || k === '-' || k === 'l') continue;
    out.push({ path: p, access: 'rw', why: `an entry of ${anc}, writable as before` });
  }
  return out;
}

/**
 * Names of directories that hold only control files (a client's or bashguard's own), reserved
 * whole where they do not exist yet; another missing directory on the way to one (`.github/` for
 * `.github/hooks/`) is made as a plain directory and stays writable.
 */
const RESERVED_DIRS = new Set(['.claude', '.codex', '.gemini', '.cursor', 'hooks', 'rules', 'bashguard', 'git']);

/**
 * The directories to make for a missing protected path, below the worktree or HOME: the missing
 * components from its nearest existing ancestor down to the first one named like a control
 * directory (reserved: the last of them), where each is certainly a directory (a file cannot be
 * reserved without an empty file standing for it during the call); else null.
 */
function reservable(path: string, anc: string, roots: (string | null)[]): string[] | null {
  if (!roots.some((r) => r !== null && (anc === r || isInside(anc, r)))) return null;
  // (`anc` is physical: a path that reaches it through a symlink is not reserved here)
  if (!isInside(path, anc)) return null;
  const rest = path.slice(anc === '/' ? 1 : anc.length + 1).split('/');
  const out: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const name = rest[i]!;
    const isDirName = i < rest.length - 1 || !/.\./.test(name);
    if (!isDirName) return null;
    out.push(`${anc === '/' ? '' : anc}/${rest.slice(0, i + 1).join('/')}`);
    if (RESERVED_DIRS.has(name)) return out;
  }
  return null;
}

/** The most specific grant containing `path` other than itself. */
function writableParent(path: string, grants: Grant[]): Grant | null {
  let best: Grant | null = null;
  for (const g of grants) if (g.path !== path && isInside(path, g.path) && (!best || g.path.length > best.path.length)) best = g;
  return best && best.access === 'rw' ? best : null;
}

/** What the plan gives a path: the most specific grant wins; no grant means read-only. */
export function effectiveAccess(path: string, grants: Grant[]): Access {
  let best: Grant | null = null;
  for (const g of grants) if (isInside(path, g.path) && (!best || g.path.length >= best.path.length)) best = g;
  return best?.access ?? 'ro';
}

/**
 * Whether a command run under `plan` cannot write `path`, creating it included (true), as the
 * enforcement binds it: `path` is resolved physically first (symlinks in its existing part, the
 * final component included, since a write follows them), then the most specific grant decides.
 * A grant's mount also blocks hard links out of it (link(2) across mounts fails with EXDEV); a
 * hard link that existed before the call is another name for the file, and this answers for the
 * name asked about only.
 */
export function planCovers(plan: SandboxPlan, path: string): boolean {
  if (!path.startsWith('/')) return false;
  const R = new Resolver();
  let rest = '';
  let p = path.replace(/\/+$/, '') || '/';
  if (p !== '/' && !NORMAL.test(p)) {
    // (`.`, `..` or `//` in it: resolved by the kernel when it exists; else not answered)
    const r = physicalPath(p);
    return r !== null && effectiveAccess(r, plan.grants) === 'ro';
  }
  for (;;) {
    const r = R.real(p);
    if (r !== null) return effectiveAccess(r === '/' ? `/${rest.slice(1)}` : `${r}${rest}`, plan.grants) === 'ro';
    if (p === '/') return false;
    const i = p.lastIndexOf('/');
    rest = `${p.slice(i)}${rest}`;
    p = i === 0 ? '/' : p.slice(0, i);
  }
}
