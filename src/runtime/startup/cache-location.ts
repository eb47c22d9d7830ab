/**
 * Where bashguard keeps its V8 code caches (src/runtime/startup/code-cache.ts), as a function of the
 * environment alone: the workspace protects this directory (BG1005: bytecode planted there would
 * run in the hook) without loading any of the cache's code.
 */
import { resolveFrom } from '../../util/under.js';

type Env = Record<string, string | undefined>;

/** $XDG_CACHE_HOME/bashguard (when absolute), else $HOME/.cache/bashguard; null without either. */
export function cacheLocation(env: Env): string | null {
  const xdg = env.XDG_CACHE_HOME;
  const home = env.HOME;
  const useXdg = xdg !== undefined && xdg.startsWith('/');
  const base = useXdg ? xdg : home;
  if (base === undefined || !base.startsWith('/')) return null;
  const dir = useXdg ? base + '/bashguard' : base + '/.cache/bashguard';
  // Normalised only where the variable has something to normalise (`//`, `.` or `..` parts, a
  // trailing slash): the hook's start runs this in every process, and each function a fresh
  // process calls costs it a compile (src/runtime/startup/cached-load.ts).
  return (base + '/').includes('//') || base.includes('/.') ? resolveFrom('/', dir) : dir;
}
