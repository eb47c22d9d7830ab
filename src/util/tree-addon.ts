/**
 * bashguard's own native addon (native/tree-export.c, build/Release/bashguard_tree.node, put there
 * at install by scripts/build-native.mjs: a prebuilt binary or a build), loaded at most once per thread: the parser layer's tree
 * export (src/engine/parse/native.ts) and the hook's time limit (./time-limit.ts) share one load.
 */
import { existsSync } from 'node:fs';
import { packageRoot } from './package-root.js';
import { under } from './under.js';

/**
 * Where the loaded exports are kept: on the global object, not in this module, because two
 * bundles of one process both use the addon (lint's entry, dist/lint-start.cjs, starts its child
 * through it, and then dist/lint-cli.cjs parses with it). Loaded twice, its second init would
 * replace the instance data (the parser) the first one's functions use.
 */
const LOADED = Symbol.for('bashguard.treeAddon');
type Slot = { [LOADED]?: Record<string, unknown> };

/** The addon's exports. Throws (with the reason) when it was not built or does not load. */
export function treeAddon(): Record<string, unknown> {
  return (globalThis as Slot)[LOADED] ?? treeAddonIn(packageRoot());
}

/** The addon's exports if this process has loaded it already; null otherwise (never loads it). */
export function loadedTreeAddon(): Record<string, unknown> | null {
  return (globalThis as Slot)[LOADED] ?? null;
}

/**
 * The addon of the package at `root` (loaded now if this process has not loaded it yet). For the
 * start entries, which know their package's root before the bundle that has packageRoot is
 * loaded (src/runtime/startup/code-cache.ts reads the bundle through the addon).
 */
export function treeAddonIn(root: string): Record<string, unknown> {
  const loaded = (globalThis as Slot)[LOADED];
  if (loaded) return loaded;
  const file = under(root, 'build', 'Release', 'bashguard_tree.node');
  if (!existsSync(file)) {
    const prebuilt = loadPrebuilt(root);
    if (prebuilt) return ((globalThis as Slot)[LOADED] = prebuilt);
    throw new Error('the tree export was not installed (scripts/build-native.mjs did not run or could not build it, and no prebuilt binary loads)');
  }
  const mod = { exports: {} as Record<string, unknown> };
  process.dlopen(mod, file);
  return ((globalThis as Slot)[LOADED] = mod.exports);
}

/**
 * The prebuilt binary shipped for this platform (prebuilds/<platform>-<arch>/), for an install
 * whose install script did not run (`--ignore-scripts`, npm's allowScripts): the script normally
 * copies it to build/Release. null when none loads.
 */
function loadPrebuilt(root: string): Record<string, unknown> | null {
  for (const libc of ['glibc', 'musl']) {
    const file = under(root, 'prebuilds', `${process.platform}-${process.arch}`, `bashguard_tree.napi.${libc}.node`);
    if (!existsSync(file)) continue;
    try {
      const mod = { exports: {} as Record<string, unknown> };
      process.dlopen(mod, file);
      return mod.exports;
    } catch {
      // another libc's binary
    }
  }
  return null;
}

/**
 * treeAddonIn for the start entries' common case (src/runtime/startup/cached-load.ts): null instead of a
 * reason when the addon is not there or does not load, and no Node fs function run for it (the
 * first call of each costs a fresh process its compile).
 */
export function tryTreeAddonIn(root: string): Record<string, unknown> | null {
  const loaded = (globalThis as Slot)[LOADED];
  if (loaded) return loaded;
  try {
    const mod = { exports: {} as Record<string, unknown> };
    process.dlopen(mod, root + '/build/Release/bashguard_tree.node');
    return ((globalThis as Slot)[LOADED] = mod.exports);
  } catch {
    const prebuilt = existsSync(root + '/build/Release/bashguard_tree.node') ? null : loadPrebuilt(root);
    return prebuilt ? ((globalThis as Slot)[LOADED] = prebuilt) : null;
  }
}

/**
 * An environment as the addon's process functions take it (spawnChild, prepareRerun): execve's
 * `KEY=value` strings, the unset ones left out.
 */
export function envStrings(env: Record<string, string | undefined>): string[] {
  return Object.entries(env).flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${v}`]));
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
