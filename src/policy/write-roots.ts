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

/**
 * The write roots of a workspace, one model for both lines: the analyzer's regions
 * (./regions.ts `buildRegions`) and the kernel's plan (src/layers/sandbox/grants.ts, which leaves
 * writable only these and makes the rest of the file system read-only) are computed from it.
 */
export interface WriteRoot {
  path: string;
  kind: 'worktree' | 'git' | 'scratch' | 'cache' | 'config';
  why: string;
}

/**
 * Scratch directories every workspace may write: /tmp, /var/tmp, macOS's, $TMPDIR, and the
 * shared-memory tmpfs /dev/shm (POSIX shared memory and semaphores: Python's `multiprocessing`
 * locks, browsers, test runners). A scratch dir is a write root for both lines: the analyzer allows
 * writes there and the kernel's plan leaves it writable (so no caller special-cases one by name).
 */
export function scratchRoots(env: Record<string, string | undefined>): string[] {
  const roots = ['/tmp', '/private/tmp', '/var/tmp', '/private/var/folders', '/dev/shm'];
  if (env.TMPDIR && env.TMPDIR.startsWith('/')) roots.push(normalizeLogical(env.TMPDIR));
  return roots;
}

/**
 * The caches a developer's tools write by default, beneath HOME only (a variable that moves one
 * elsewhere is not followed: the hook's environment can come from a settings layer; a user who
 * moved a cache adds it to `writeRoots`). Each is writable under enforcement, so what is planted
 * there (npx's `_npx` packages, a module cache) runs later where the tool reads it: the same
 * trade Claude Code's sandbox makes for `~/.npm` and `~/.cache`. bashguard's own cache dir
 * inside `~/.cache` stays protected (BG1005).
 */
export function toolCacheRoots(env: Record<string, string | undefined>): WriteRoot[] {
  const home = env.HOME && env.HOME.startsWith('/') ? normalizeLogical(env.HOME) : null;
  if (!home || home === '/') return [];
  const xdg = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith('/') ? normalizeLogical(env.XDG_CACHE_HOME) : null;
  const cache = xdg && xdg !== home && isInside(xdg, home) ? xdg : `${home}/.cache`;
  const out: [string, string][] = [
    [`${home}/.npm`, "npm's cache"],
    [cache, 'the user cache dir (pip, yarn, pnpm, go build, node-gyp)'],
    [`${home}/.cargo/registry`, "cargo's registry cache"],
    [`${home}/.cargo/git`, "cargo's git cache"],
    [`${home}/go/pkg/mod`, "go's module cache"],
    [`${home}/.m2/repository`, "maven's repository"],
    [`${home}/.gradle/caches`, "gradle's caches"],
    [`${home}/.gradle/wrapper`, "gradle's wrapper distributions"],
  ];
  return out.map(([path, why]) => ({ path, kind: 'cache' as const, why }));
}
