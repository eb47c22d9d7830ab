/**
 * `require` for the module at `url`, to reach bashguard's dependencies (tree-sitter-bash,
 * web-tree-sitter). Node resolves a package from the real path of the module that asks, and it
 * takes the main module's real path unless told `--preserve-symlinks-main`, which the processes
 * bashguard starts itself are (bin/bashguard-hook, the lint children: Node's `realpathSync` of the
 * entry is ~0.3-0.5 ms of a fresh process, docs/history/performance.md). Their entry's path comes from a real
 * path (`bashguard install` records one), but a path through a symlinked directory written by
 * hand (pnpm's node_modules/bashguard -> .pnpm/...) would then resolve from the link's side, where
 * pnpm's dependencies are not: so in such processes the module's real path is taken here, where
 * it is needed (only when the addon is not next to the package, or for WASM).
 */
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export function moduleRequire(url: string, execArgv: readonly string[] = process.execArgv): NodeRequire {
  if (execArgv.includes('--preserve-symlinks-main')) {
    try {
      return createRequire(realpathSync(fileURLToPath(url)));
    } catch {
      // As given, then.
    }
  }
  return createRequire(url);
}
