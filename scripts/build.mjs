// Build: rule catalog, then one bundled ESM file for the CLI (fast hook start-up) and one for the
// library API. Native and WASM tree-sitter stay external: they are loaded from node_modules.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
execFileSync(process.execPath, [join(root, 'scripts/gen-rules.mjs')], { stdio: 'inherit' });

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['tree-sitter', 'tree-sitter-bash', 'web-tree-sitter'],
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: root,
  // esbuild's ESM output has no `require`; the native binding is loaded through createRequire.
  banner: { js: "import { createRequire as __bgCreateRequire } from 'node:module'; const require = __bgCreateRequire(import.meta.url);" },
};

await build({ ...common, entryPoints: { bashguard: 'src/cli/main.ts', api: 'src/api.ts' }, outdir: 'dist', splitting: true, chunkNames: 'chunks/[name]-[hash]', minifySyntax: true });
console.log('build: dist/bashguard.js, dist/api.js');
