/**
 * bashguard's own native addon (native/tree-export.c, build/Release/bashguard_tree.node, built at
 * install by scripts/build-native.mjs), loaded at most once per thread: the parser layer's tree
 * export (src/parse/native.ts) and the hook's time limit (./time-limit.ts) share one load.
 */
import { existsSync } from 'node:fs';
import { packageRoot } from './package-root.js';
import { under } from './under.js';

let loaded: Record<string, unknown> | null = null;

/** The addon's exports. Throws (with the reason) when it was not built or does not load. */
export function treeAddon(): Record<string, unknown> {
  if (loaded) return loaded;
  const file = under(packageRoot(), 'build', 'Release', 'bashguard_tree.node');
  if (!existsSync(file)) throw new Error('the tree export was not built at install (scripts/build-native.mjs)');
  const mod = { exports: {} as Record<string, unknown> };
  process.dlopen(mod, file);
  return (loaded = mod.exports);
}

/**
 * Points this process's descriptor 2 at /dev/null (native/tree-export.c releaseStderr), for a lint
 * child whose work is done. False where that is not possible (Windows, no addon): stderr stays.
 */
export function releaseStderr(): boolean {
  try {
    const release = treeAddon().releaseStderr;
    return typeof release === 'function' && release() === true;
  } catch {
    return false;
  }
}
