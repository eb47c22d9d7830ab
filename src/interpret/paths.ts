/**
 * Path arithmetic the way bash does it for `cd` (logical: `..` removes the previous component as
 * text) and for display. Physical resolution (symlinks, `..` after a symlink) needs the file
 * system and lives in src/policy/physical.ts.
 */
import { HOLE } from '../effects/types.js';

export function isAbsolute(p: string): boolean {
  return p.startsWith('/');
}

/** Joins a base directory and a path the way the kernel sees it (no `..` processing). */
export function joinPath(base: string, rel: string): string {
  if (rel.startsWith('/')) return rel;
  if (rel === '' || rel === '.') return base;
  return base.endsWith('/') ? base + rel : `${base}/${rel}`;
}

/** Logical normalization: collapses `//` and `.`, and lets `..` remove the previous component. */
export function normalizeLogical(p: string): string {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      // A `..` after an unknown component cannot be resolved textually: keep it.
      if (out.length > 0 && !out[out.length - 1]!.includes(HOLE) && out[out.length - 1] !== '..') out.pop();
      else if (out.length > 0) out.push('..');
      continue;
    }
    out.push(part);
  }
  return '/' + out.join('/');
}

export function dirnameOf(p: string): string {
  const trimmed = p.length > 1 ? p.replace(/\/+$/, '') : p;
  const i = trimmed.lastIndexOf('/');
  if (i < 0) return '.';
  if (i === 0) return '/';
  return trimmed.slice(0, i);
}

export function basenameOf(p: string): string {
  const trimmed = p.length > 1 ? p.replace(/\/+$/, '') : p;
  const i = trimmed.lastIndexOf('/');
  return i < 0 ? trimmed : trimmed.slice(i + 1);
}

/** Shows holes as `…` for people. */
export function displayPath(p: string | null): string {
  if (p === null) return '<unknown>';
  return p.split(HOLE).join('…');
}

/** True when `p` equals `root` or lies below it, on whole components. Both absolute, normalized. */
export function isInside(p: string, root: string): boolean {
  if (root === '/') return p.startsWith('/');
  return p === root || p.startsWith(root.endsWith('/') ? root : root + '/');
}
