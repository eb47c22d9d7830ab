/**
 * Pathspecs of git commands that drop or rewrite files by their git state (what they drop is the
 * effect's meaning, src/engine/commands/git-writes.ts): whether one reaches a control file.
 */
export type { FileState } from '../engine/effects/types.js';

/** Whether a pathspec (already absolute) can match `file` or something below it. */
export function pathspecReaches(spec: string, file: string): boolean {
  if (/[*?[]|^:/.test(spec) || spec.includes('\u2026')) return true;
  const s = spec.replace(/\/+$/, '') || '/';
  return file === s || file.startsWith(s === '/' ? '/' : s + '/') || s.startsWith(file + '/');
}
