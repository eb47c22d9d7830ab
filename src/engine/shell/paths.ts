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

/** A component that normalisation changes: empty (`//`, trailing `/`), `.` or `..`. */
const UNNORMAL = /\/\.{0,2}(?:\/|$)/;

/** Logical normalization: collapses `//` and `.`, and lets `..` remove the previous component. */
export function normalizeLogical(p: string): string {
  // Already normal (the common case: realpaths, paths built from them): one regex test instead of
  // a split and a join.
  if (p.charCodeAt(0) === 47 && !UNNORMAL.test(p)) return p;
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
  // Most paths have no hole: returned as they are, without a split and a join (~1% of a lint).
  return p.includes(HOLE) ? p.split(HOLE).join('…') : p;
}

/** True when `p` equals `root` or lies below it, on whole components. Both absolute, normalized. */
export function isInside(p: string, root: string): boolean {
  if (root === '/') return p.startsWith('/');
  return p === root || p.startsWith(root.endsWith('/') ? root : root + '/');
}

/**
 * A path whose `..` comes after an unknown stretch (`/tmp/$X/../../repo`) cannot be resolved as
 * text: the unknown part may hold any number of components. Unknown text is taken to be free of
 * `..` (as everywhere in bashguard), so the result lies somewhere under the known directory with
 * one component removed per `..` that follows the unknown part: that directory plus a hole.
 * Paths without such a `..` are returned unchanged.
 */
export function collapseHoleDots(p: string): string {
  const h = p.indexOf(HOLE);
  if (h < 0) return p;
  const parts = p.split('/');
  const firstHole = parts.findIndex((c) => c.includes(HOLE));
  const ups = parts.slice(firstHole + 1).filter((c) => c === '..').length;
  if (ups === 0) return p;
  const known = parts.slice(0, firstHole).filter((c) => c !== '' && c !== '.');
  const kept = known.slice(0, Math.max(0, known.length - ups));
  return (p.startsWith('/') ? '/' : '') + [...kept, HOLE].join('/');
}

/** The descriptor a device path names (`/dev/stderr` is 2, `/dev/fd/3` and `/proc/self/fd/3` are 3), or null. */
export function descriptorOfPath(p: string): number | null {
  const n = normalizeLogical(p);
  if (n === '/dev/stdin') return 0;
  if (n === '/dev/stdout') return 1;
  if (n === '/dev/stderr') return 2;
  // (The pattern only for paths it can match: V8 compiles a regular expression on its first use, ~30 µs of a hook process.)
  const m = n.startsWith('/dev/fd/') || n.startsWith('/proc/') ? /^\/(?:dev|proc\/self|proc\/thread-self)\/fd\/(\d+)$/.exec(n) : null;
  return m ? Number(m[1]) : null;
}
