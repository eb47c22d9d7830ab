// What the long-run tools (fuzz.mjs, escape-diff.mjs) share: the repository's paths, their
// `--name value` options, and the esbuild bundle of a TypeScript entry into node_modules/.cache,
// where tree-sitter and grammars/ resolve as they do for dist/.
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = dirname(fileURLToPath(import.meta.url));
export const root = join(here, '..', '..', '..');

const args = process.argv.slice(2);

/** The value after `--name` on the command line, else `dflt`. */
export function opt(name, dflt) {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
}

/** Whether `--name` is on the command line. */
export function flag(name) {
  return args.includes(`--${name}`);
}

/**
 * Bundles `contents` (an ESM entry whose imports are relative to the repository root) into
 * node_modules/.cache/`cacheName`/`file`; returns the cache directory and the bundle's path.
 */
export async function bundle(cacheName, file, contents) {
  const cache = join(root, 'node_modules', '.cache', cacheName);
  mkdirSync(cache, { recursive: true });
  const outfile = join(cache, file);
  await build({
    stdin: { contents, resolveDir: root, loader: 'ts' },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['tree-sitter', 'tree-sitter-bash', 'web-tree-sitter'],
    banner: { js: "import { createRequire as __bgCreateRequire } from 'node:module'; const require = __bgCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  return { cache, path: outfile };
}
