/**
 * The policy's core predicate, pure: which changed paths fall outside every write root.
 * No I/O, no git, no clock; `..` is resolved lexically before the prefix test, relative paths are
 * resolved against `base`, roots match whole components only, and no roots means no grant.
 * Used by the hook's containment check and by the audit of a real diff.
 */
import { isInside, joinPath, normalizeLogical } from '../engine/shell/paths.js';

export interface WriteRootOptions {
  /** Directory that relative changed paths (and relative roots) are resolved against. */
  base: string;
}

export function normalizeAgainst(path: string, base: string): string {
  return normalizeLogical(joinPath(normalizeLogical(base), path));
}

export function writeRootViolations(
  changedPaths: Iterable<string>,
  writeRoots: Iterable<string>,
  options: WriteRootOptions,
): string[] {
  const roots = [...writeRoots].map((r) => normalizeAgainst(r, options.base));
  const out: string[] = [];
  for (const p of changedPaths) {
    const abs = normalizeAgainst(p, options.base);
    if (!roots.some((r) => isInside(abs, r))) out.push(p);
  }
  return out;
}
