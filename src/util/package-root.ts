import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parentOf, under } from './under.js';

let root: string | null = null;

/**
 * fileURLToPath for this module's own URL, without Node's URL parser when the URL is a plain
 * POSIX file URL (no escapes): the parser's first use costs a fresh process ~0.2-0.5 ms, and the
 * hook is a fresh process on every tool call.
 */
function modulePath(url: string): string {
  if (process.platform !== 'win32' && url.startsWith('file:///') && !/[%?#]/.test(url)) return url.slice('file://'.length);
  return fileURLToPath(url);
}

/**
 * The installed package's root (where package.json, grammars/ and rules/ live). Found by
 * walking up from this module, so it works from src/ under vitest and from the dist/ bundle.
 */
export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(modulePath(import.meta.url));
  for (;;) {
    // under, not join: dir is normalized (see src/util/under.ts for why).
    if (existsSync(under(dir, 'package.json')) && existsSync(under(dir, 'grammars'))) return (root = dir);
    const up = parentOf(dir);
    if (up === dir) throw new Error('bashguard: cannot find the package root (package.json with grammars/)');
    dir = up;
  }
}

export function packagePath(...parts: string[]): string {
  return join(packageRoot(), ...parts);
}

/** The version scripts/build.mjs read from package.json when it built this bundle (the hook's); undefined elsewhere. */
declare const __BG_PACKAGE_VERSION__: string | undefined;

/** The installed package's version, from its package.json (one source for `--version`, SARIF ...). */
export function packageVersion(): string {
  // The hook bundle has it from its build (an upgrade in place rebuilds the bundle too): reading and
  // parsing package.json was ~0.5 M instructions of every allowed call (the kept plan's key).
  if (typeof __BG_PACKAGE_VERSION__ === 'string') return __BG_PACKAGE_VERSION__;
  try {
    return (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
