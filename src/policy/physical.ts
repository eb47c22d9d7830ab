/**
 * Physical path resolution, as the kernel does it: symlinks are followed component by
 * component and `..` after a symlink goes to the parent of its target. Components that do not
 * exist are appended as written (a new file's parent decides where it lands).
 */
import { lstatSync, readlinkSync } from 'node:fs';
import { HOLE } from '../engine/effects/types.js';
import { nativeLstat } from '../util/native-lstat.js';

export interface PhysicalFs {
  /** The symlink target, or null when the path is not a symlink or does not exist. */
  readlink(path: string): string | null;
  /** Whether something (a file, a directory, a link) is at the path now; unknown when absent. */
  exists?(path: string): boolean;
  /**
   * The length of the longest directory known to hold no symlink that `path` begins with (whole
   * components, as written), or 0: resolvePhysical starts after it instead of asking `readlink`
   * about each of its components (which would answer null for every one).
   */
  knownPrefix?(path: string): number;
}

/**
 * What an lstat says about a path: a symlink (its target), something else (a directory or not),
 * or nothing (missing, or a parent is not a directory). A missing path is answered without an
 * exception: Node builds an Error with a stack for every throwing lstat, which cost more than
 * the system call for the many paths of a command that do not exist (`/path/to/file`).
 */
type Entry = { link: string } | { link: null; dir: boolean } | null;

function lstatEntry(path: string): Entry {
  const kind = (nativeLstat() ?? nodeLstatKind)(path);
  if (kind < 0) return null;
  if (kind !== 2) return { link: null, dir: kind === 1 };
  try {
    return { link: readlinkSync(path) };
  } catch {
    return null;
  }
}

/** The native lstat's answer (src/util/native-lstat.ts) from Node's lstatSync, where the addon is not loaded. */
function nodeLstatKind(path: string): number {
  try {
    const st = lstatSync(path, { throwIfNoEntry: false });
    return !st ? -1 : st.isSymbolicLink() ? 2 : st.isDirectory() ? 1 : 0;
  } catch {
    return -1;
  }
}

export const nodeFs: PhysicalFs = {
  readlink(path) {
    return lstatEntry(path)?.link ?? null;
  },
  exists(path) {
    return lstatEntry(path) !== null;
  },
};

/**
 * A cached view of a PhysicalFs for one evaluation. `physical` are paths known to contain no
 * symlink (realpath'd by the layout discovery on the same file system): they and every prefix
 * of them are answered without an lstat, which is most of the policy's cost for paths under the
 * worktree (one lstat per path component). On the real file system (`nodeFs`) one lstat per
 * path answers both questions, and a path under one that is missing or not a directory is
 * known not to exist without asking.
 */
export function cachedFs(fs: PhysicalFs, physical: readonly (string | null | undefined)[] = []): PhysicalFs {
  const known = physical.filter((p): p is string => typeof p === 'string' && p.startsWith('/') && !p.includes(HOLE));
  const { test: isKnown, plain } = knownPrefixes(known);
  const knownPrefix = (p: string): number => {
    let best = 0;
    for (const k of plain) {
      if (k.length > best && p.startsWith(k) && (p.length === k.length || p.charCodeAt(k.length) === 47)) best = k.length;
    }
    return best;
  };
  if (fs === nodeFs) {
    const entries = new Map<string, Entry>();
    const entry = (p: string): Entry => {
      let v = entries.get(p);
      if (v === undefined) {
        const slash = p.lastIndexOf('/');
        const parent = slash > 0 ? entries.get(p.slice(0, slash)) : undefined;
        // (a parent that is a symlink may lead to a directory: only a missing or non-directory one decides)
        v = parent === null || (parent !== undefined && parent.link === null && !parent.dir) ? null : lstatEntry(p);
        entries.set(p, v);
      }
      return v;
    };
    return {
      readlink: (p) => (isKnown(p) ? null : (entry(p)?.link ?? null)),
      exists: (p) => entry(p) !== null,
      knownPrefix,
    };
  }
  const cache = new Map<string, string | null>();
  return {
    readlink(p) {
      let v = cache.get(p);
      if (v === undefined) {
        v = isKnown(p) ? null : fs.readlink(p);
        cache.set(p, v);
      }
      return v;
    },
    exists: fs.exists ? (p) => fs.exists!(p) : undefined,
    knownPrefix,
  };
}

/** An absolute path of plain components: no empty, `.` or `..` one, no trailing slash (not `/` itself). */
function isPlain(p: string): boolean {
  return p.length > 1 && p.charCodeAt(0) === 47 && !/\/\/|\/\.\.?(?:\/|$)|\/$/.test(p);
}

interface KnownPrefixes {
  test: (p: string) => boolean;
  /** The known paths made of plain components (see isPlain). */
  plain: string[];
}

let lastKnown: { known: string[]; result: KnownPrefixes } | null = null;

function sameList(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Whether a path is one of `known` or a prefix of one on a component boundary, as a set of those
 * prefixes (the same few layout paths on every evaluation of a workspace: built once for them).
 */
function knownPrefixes(known: string[]): KnownPrefixes {
  // Compared element by element (joining them into a key cost ~1% of a check).
  if (lastKnown && sameList(lastKnown.known, known)) return lastKnown.result;
  const prefixes = new Set<string>();
  for (const k of known) {
    prefixes.add(k);
    for (let i = k.indexOf('/'); i >= 0; i = k.indexOf('/', i + 1)) prefixes.add(k.slice(0, i));
  }
  const test = (p: string): boolean => prefixes.has(p);
  const result = { test, plain: known.filter(isPlain) };
  lastKnown = { known, result };
  return result;
}

const MAX_LINKS = 40;

/** `/proc/self`, `/proc/thread-self` or `/proc/<pid>` (after `self` was read as the hook's own pid). */
const PROC_PID = /^\/proc\/(?:self|thread-self|\d+)(?:\/task\/\d+)?$/;

/** Resolves an absolute path physically. Components containing HOLE are kept as they are. */
export function resolvePhysical(path: string, fs: PhysicalFs): string {
  let links = 0;
  // `resolved` so far as a path ('' for the root), grown and cut as text. The components still
  // to walk: those of symlink targets met on the way in `pending` (the next one last), then the
  // rest of `path` from `pos` on, read in place (no array per call).
  // A known directory at the start (whole plain components, each of which readlink would answer
  // null for) is taken as it is.
  const known = fs.knownPrefix ? fs.knownPrefix(path) : 0;
  let resolved = known > 0 ? path.slice(0, known) : '';
  const pending: string[] = [];
  let pos = known > 0 ? known + 1 : 0;
  const next = (): string | null => {
    if (pending.length > 0) return pending.pop()!;
    while (pos < path.length) {
      let end = path.indexOf('/', pos);
      if (end < 0) end = path.length;
      const c = path.slice(pos, end);
      pos = end + 1;
      if (c !== '' && c !== '.') return c;
    }
    return null;
  };
  for (let part = next(); part !== null; part = next()) {
    if (part === '..') {
      resolved = resolved.slice(0, Math.max(0, resolved.lastIndexOf('/')));
      continue;
    }
    if (part.includes(HOLE)) {
      resolved += '/' + part;
      for (let rest = next(); rest !== null; rest = next()) resolved += '/' + rest;
      break;
    }
    if ((part === 'cwd' || part === 'root') && PROC_PID.test(resolved)) {
      // `/proc/<pid>/root` is `/` (one mount namespace). `/proc/<pid>/cwd` is the directory of
      // whichever process opens it: for `/proc/self/cwd` the shell running the command, whose cwd
      // the hook cannot read off its own /proc/self (the hook's pid and cwd): unknown.
      if (part === 'root') {
        resolved = '';
        continue;
      }
      resolved += '/cwd' + HOLE;
      for (let rest = next(); rest !== null; rest = next()) resolved += '/' + rest;
      break;
    }
    const candidate = resolved + '/' + part;
    const target = links < MAX_LINKS ? fs.readlink(candidate) : null;
    if (target === null) {
      resolved = candidate;
      continue;
    }
    links++;
    const parts = target.split('/').filter((c) => c !== '' && c !== '.');
    if (target.startsWith('/')) resolved = '';
    for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]!);
  }
  return resolved === '' ? '/' : resolved;
}
