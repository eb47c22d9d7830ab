/**
 * Where bashguard keeps its V8 code caches (src/startup/code-cache.ts). Its own module so that the
 * workspace can protect the directory (BG1005: bytecode planted there would run in the hook)
 * without loading the cache code.
 */
import { resolveFrom } from '../util/under.js';

type Env = Record<string, string | undefined>;

/** $XDG_CACHE_HOME/bashguard (when absolute), else $HOME/.cache/bashguard; null without either. */
export function cacheLocation(env: Env): string | null {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && xdg.startsWith('/')) return resolveFrom('/', xdg + '/bashguard');
  const home = env.HOME;
  if (home && home.startsWith('/')) return resolveFrom('/', home + '/.cache/bashguard');
  return null;
}

/** The cache directory to use: cacheLocation, or null when BASHGUARD_CODE_CACHE switches it off. */
export function cacheDir(env: Env): string | null {
  if (env.BASHGUARD_CODE_CACHE === '0' || env.BASHGUARD_CODE_CACHE === 'off') return null;
  return cacheLocation(env);
}
