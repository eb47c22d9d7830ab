/**
 * Physical path resolution, as the kernel does it: symlinks are followed component by
 * component and `..` after a symlink goes to the parent of its target. Components that do not
 * exist are appended as written (a new file's parent decides where it lands).
 */
import { lstatSync, readlinkSync } from 'node:fs';
import { HOLE } from '../effects/types.js';

export interface PhysicalFs {
  /** The symlink target, or null when the path is not a symlink or does not exist. */
  readlink(path: string): string | null;
  /** Whether something (a file, a directory, a link) is at the path now; unknown when absent. */
  exists?(path: string): boolean;
}

export const nodeFs: PhysicalFs = {
  readlink(path) {
    try {
      if (!lstatSync(path).isSymbolicLink()) return null;
      return readlinkSync(path);
    } catch {
      return null;
    }
  },
  exists(path) {
    try {
      lstatSync(path);
      return true;
    } catch {
      return false;
    }
  },
};

/**
 * A cached view of a PhysicalFs for one evaluation. `physical` are paths known to contain no
 * symlink (realpath'd by the layout discovery on the same file system): they and every prefix
 * of them are answered without an lstat, which is most of the policy's cost for paths under the
 * worktree (one lstat per path component).
 */
export function cachedFs(fs: PhysicalFs, physical: readonly (string | null | undefined)[] = []): PhysicalFs {
  const cache = new Map<string, string | null>();
  const known = physical.filter((p): p is string => typeof p === 'string' && p.startsWith('/') && !p.includes(HOLE));
  return {
    readlink(p) {
      let v = cache.get(p);
      if (v === undefined) {
        v = known.some((k) => k.startsWith(p) && (k.length === p.length || k[p.length] === '/')) ? null : fs.readlink(p);
        cache.set(p, v);
      }
      return v;
    },
    exists: fs.exists ? (p) => fs.exists!(p) : undefined,
  };
}

const MAX_LINKS = 40;

/** Resolves an absolute path physically. Components containing HOLE are kept as they are. */
export function resolvePhysical(path: string, fs: PhysicalFs): string {
  let links = 0;
  const resolved: string[] = [];
  const pending = path.split('/').filter((c) => c !== '' && c !== '.');
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      resolved.pop();
      continue;
    }
    if (part.includes(HOLE)) {
      resolved.push(part, ...pending);
      break;
    }
    const candidate = '/' + [...resolved, part].join('/');
    const target = links < MAX_LINKS ? fs.readlink(candidate) : null;
    if (target === null) {
      resolved.push(part);
      continue;
    }
    links++;
    const parts = target.split('/').filter((c) => c !== '' && c !== '.');
    if (target.startsWith('/')) resolved.length = 0;
    pending.unshift(...parts);
  }
  return '/' + resolved.join('/');
}


