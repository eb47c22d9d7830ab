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

await build({ ...common, entryPoints: { bashguard: 'src/cli/main.ts', api: 'src/api.ts', 'guard-child': 'src/library/child.ts' }, outdir: 'dist', splitting: true, chunkNames: 'chunks/[name]-[hash]', minifySyntax: true });

// The hook runs as a fresh process on every tool call, so it gets its own single-file CommonJS
// bundle (bin/bashguard.js routes `bashguard hook` to it). CommonJS because Node 20's ESM loader
// costs ~7 ms more per process here: one loader job per chunk, builtins imported through
// synthetic modules (importing node:fs evaluates all of its lazy getters, streams included).
// Numbers in bench/README.md. Anything but the hook goes on to the ESM CLI bundle, unchanged.
const programShim = {
  name: 'hook-program-shim',
  setup(b) {
    b.onResolve({ filter: /^\.\/program\.js$/ }, (args) =>
      args.importer.endsWith(join('src', 'cli', 'main.ts')) ? { path: 'program', namespace: 'bg-hook-shim' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'bg-hook-shim' }, () => ({
      contents: "export async function runProgram(argv, io) { const m = await import('./bashguard.js'); return m.run(argv, io); }",
      loader: 'js',
    }));
  },
};
await build({
  ...common,
  entryPoints: { hook: 'src/cli/main.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  external: [...common.external, './bashguard.js'],
  define: { 'import.meta.url': '__bgImportMetaUrl' },
  banner: { js: "const __bgImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [programShim],
  minifySyntax: true,
});
console.log('build: dist/bashguard.js, dist/api.js, dist/guard-child.js, dist/hook.cjs');
