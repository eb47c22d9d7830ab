/**
 * Where bashguard keeps its V8 code caches (src/startup/code-cache.ts). Its own module so that the
 * workspace can protect the directory (BG1005: bytecode planted there would run in the hook)
 * without loading the cache code.
 */
import { resolveFrom } from '../util/under.js';

/** $XDG_CACHE_HOME/bashguard (when absolute), else $HOME/.cache/bashguard; null without either. */
export function cacheDir(env: Record<string, string | undefined>): string | null {
  if (env.BASHGUARD_CODE_CACHE === '0' || env.BASHGUARD_CODE_CACHE === 'off') return null;
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && xdg.startsWith('/')) return resolveFrom('/', xdg + '/bashguard');
  const home = env.HOME;
  if (home && home.startsWith('/')) return resolveFrom('/', home + '/.cache/bashguard');
  return null;
}
