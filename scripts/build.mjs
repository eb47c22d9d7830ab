// Build: rule catalog, then one bundled ESM file for the CLI (fast hook start-up) and one for the
// library API. Native and WASM tree-sitter stay external: they are loaded from node_modules.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { specsInOneModule } from './gen-commands.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Progress goes to stderr: `$(npm pack --silent git+URL)` captures stdout, which must be the tarball's name alone.
execFileSync(process.execPath, [join(root, 'scripts/gen-rules.mjs')], { stdio: ['ignore', 2, 2] });
execFileSync(process.execPath, [join(root, 'scripts/gen-commands.mjs')], { stdio: ['ignore', 2, 2] });

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

// Chunk names carry a content hash: the last build's are removed first, or an old chunk no entry
// imports any more would stay in dist/ and go into the package.
rmSync(join(root, 'dist', 'chunks'), { recursive: true, force: true });
await build({ ...common, entryPoints: { bashguard: 'src/frontends/cli/main.ts', api: 'src/api.ts', 'guard-child': 'src/frontends/library/child.ts' }, outdir: 'dist', splitting: true, chunkNames: 'chunks/[name]-[hash]', minifySyntax: true, plugins: [specsInOneModule()] });

// The hook runs as a fresh process on every tool call, so it gets its own single-file CommonJS
// bundle (bin/bashguard.js routes `bashguard hook` to it). CommonJS because Node 20's ESM loader
// costs ~7 ms more per process here: one loader job per chunk, builtins imported through
// synthetic modules (importing node:fs evaluates all of its lazy getters, streams included).
// Numbers in docs/history/performance.md. Anything but the hook goes on to the ESM CLI bundle, unchanged.
const programShim = {
  name: 'hook-program-shim',
  setup(b) {
    b.onResolve({ filter: /^\.\/program\.js$/ }, (args) =>
      args.importer.endsWith(join('src', 'frontends', 'cli', 'hook-main.ts')) ? { path: 'program', namespace: 'bg-hook-shim' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'bg-hook-shim' }, () => ({
      contents: "export async function runProgram(argv, io) { const m = await import('./bashguard.js'); return m.run(argv, io); }",
      loader: 'js',
    }));
  },
};
// Builtins the hook path rarely calls, loaded on first call instead of at the top (node:module
// costs a fresh process ~0.5 ms; createRequire is only used by fallbacks: WASM, the packages'
// own loaders, a terminal on stdin).
const lazyBuiltinsWith = (extra) => ({
  name: 'lazy-builtins',
  setup(b) {
    const shims = {
      ...extra,
      'node:module': "export function createRequire(p) { return require('node:module').createRequire(p); }",
      'node:url': "export function fileURLToPath(u) { return require('node:url').fileURLToPath(u); }\nexport function pathToFileURL(p) { return require('node:url').pathToFileURL(p); }",
      // node:os (~0.4 ms per process): the hook's enforcement uses it only off Linux (macOS's boot
      // time, Seatbelt's scratch dir) and in `sandbox run` (signal numbers).
      'node:os': [
        ...['uptime', 'tmpdir', 'homedir', 'availableParallelism', 'loadavg'].map((f) => `export function ${f}(...a) { return require('node:os').${f}(...a); }`),
        "export const constants = new Proxy({}, { get: (_, k) => require('node:os').constants[k] });",
      ].join('\n'),
      // node:child_process pulls in node:net and node:stream (~8 ms per hook process); the hook
      // spawns git only for the rare git-control check (src/policy/workspace/git-state.ts).
      'node:child_process': ['execFileSync', 'spawnSync', 'spawn', 'fork']
        .map((f) => `export function ${f}(...a) { return require('node:child_process').${f}(...a); }`)
        .join('\n'),
    };
    const names = Object.keys(shims).map((n) => n.slice('node:'.length)).join('|');
    b.onResolve({ filter: new RegExp(`^node:(${names})$`) }, (args) =>
      args.namespace === 'bg-lazy-builtin' ? { path: args.path, external: true } : { path: args.path, namespace: 'bg-lazy-builtin' },
    );
    b.onLoad({ filter: /.*/, namespace: 'bg-lazy-builtin' }, (args) => ({ contents: shims[args.path], loader: 'js' }));
  },
});
const lazyBuiltins = lazyBuiltinsWith({});
// node:crypto (~3.5 ms to load and hash once; ~6 ms in a child): the lint bundles use only
// createHash, for the findings' fingerprints where bashguard's addon is not built
// (src/util/sha256.ts), so a run (or a child) that does not need it never loads it.
const lazyCrypto = lazyBuiltinsWith({ 'node:crypto': "export function createHash(...a) { return require('node:crypto').createHash(...a); }" });
// The bundles loaded through a V8 code cache (src/runtime/startup/code-cache.ts): one CommonJS file each,
// made ASCII, then a small start entry that knows the file's content hash (its cache key).
const cjs = { ...common, outdir: 'dist', outExtension: { '.js': '.cjs' }, format: 'cjs', minifySyntax: true };
// import.meta.url without node:url's URL machinery on POSIX (~0.5 ms per process).
const IMPORT_META_URL = "const __bgImportMetaUrl = process.platform === 'win32' ? require('node:url').pathToFileURL(__filename).href : 'file://' + __filename.split('/').map(encodeURIComponent).join('/');";
// `performance` is a lazy global: its first use loads perf_hooks internals (~2 ms per process).
// The bundles only take differences of performance.now() (deadlines): a stand-in on hrtime serves.
const PERFORMANCE = 'const performance = { now() { const t = process.hrtime(); return t[0] * 1e3 + t[1] / 1e6; } };';

/**
 * Builds `dist/<name>.cjs` from `entry` and its start entry `dist/<startName>.cjs` from
 * `startEntry`, which gets the bundle's sha256 (shortened) as the constant `keyName`.
 */
async function cachedBundle({ name, entry, startName, startEntry, keyName, banner, plugins, external = common.external, minify = false, define = {} }) {
  await build({ ...cjs, minify, entryPoints: { [name]: entry }, external, define: { 'import.meta.url': '__bgImportMetaUrl', ...define }, banner: { js: banner }, plugins: [...(plugins ?? []), specsInOneModule()] });
  // ASCII only (esbuild escapes strings, not the comments it keeps): the loader can then decode it
  // as latin1 into a one-byte string, ~0.7 ms less per process than UTF-8 decoding.
  const file = join(root, 'dist', `${name}.cjs`);
  const text = readFileSync(file, 'utf8');
  const ascii = text.replace(/[^\x00-\x7f]/gu, (c) => [...c].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''));
  if (ascii !== text) writeFileSync(file, ascii);
  // Built after the bundle so the hash is of the final file.
  const key = createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 32);
  // (import.meta.url as in the bundle: lint's entry finds bashguard's addon through it, src/util/tree-addon.ts.)
  // (A start entry may set module.exports by hand, as src/runtime/startup/hook-start.ts does.)
  await build({ ...cjs, entryPoints: { [startName]: startEntry }, banner: { js: IMPORT_META_URL }, define: { [keyName]: JSON.stringify(key), 'import.meta.url': '__bgImportMetaUrl' }, plugins: [lazyBuiltins], minify: true, logOverride: { 'commonjs-variable-in-esm': 'silent' } });
  dropUnusedBanner(join(root, 'dist', `${startName}.cjs`));
}

/** Takes IMPORT_META_URL off a start entry that does not use it: every hook process runs its entry's top level. */
function dropUnusedBanner(file) {
  const text = readFileSync(file, 'utf8');
  const body = text.slice(IMPORT_META_URL.length);
  if (text.startsWith(IMPORT_META_URL) && !body.includes('__bgImportMetaUrl')) writeFileSync(file, body.replace(/^\n/, ''));
}

// The loader beyond the start entries' common case (src/runtime/startup/full-load.ts): the hook's entry
// requires it only when the cache is not a plain hit (src/runtime/startup/cached-load.ts).
await build({ ...cjs, entryPoints: { 'code-cache': 'src/runtime/startup/full-load.ts' }, banner: { js: IMPORT_META_URL }, define: { 'import.meta.url': '__bgImportMetaUrl' }, plugins: [lazyBuiltins], minify: true });

await cachedBundle({
  name: 'hook',
  entry: 'src/frontends/cli/hook-main.ts',
  startName: 'hook-start',
  startEntry: 'src/runtime/startup/hook-start.ts',
  keyName: '__BG_HOOK_KEY__',
  banner: `${IMPORT_META_URL}\n${PERFORMANCE}`,
  plugins: [programShim, lazyBuiltins],
  external: [...common.external, './bashguard.js'],
  // Whitespace and local names too (460 -> 280 KB): less to read and compare, fewer and shorter
  // names for V8 to deserialize and intern. Deny, medians of 120-150 alternated: Node 20 -0.3 ms,
  // Node 22 and 24 -0.1 ms; peak RSS -0.3 MiB on Node 24. The
  // lint bundles stay as they were: the same change made no difference a lint batch could show.
  minify: true,
  // The version (src/util/package-root.ts packageVersion), not read from package.json per call.
  define: { __BG_PACKAGE_VERSION__: JSON.stringify(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version) },
});

// The lint child process (src/frontends/lint/isolated.ts): one CommonJS file with only the analysis, with
// the hook bundle's start-up treatment (no URL parser, lazy builtins, `performance` on hrtime,
// ASCII for latin1 decoding), loaded through the V8 code cache by dist/lint-worker-start.cjs.
await cachedBundle({
  name: 'lint-worker',
  entry: 'src/frontends/lint/worker-main.ts',
  startName: 'lint-worker-start',
  startEntry: 'src/frontends/lint/worker-start.ts',
  keyName: '__BG_LINT_WORKER_KEY__',
  banner: `${IMPORT_META_URL}\n${PERFORMANCE}`,
  // node:crypto (~6 ms per child): the child leaves the findings' fingerprints to the parent.
  plugins: [lazyCrypto],
});
// `bashguard lint` (bin/bashguard.js routes argv `lint ...` here): the CLI's root program with only
// the lint command (src/frontends/cli/lint-main.ts) as one CommonJS file, loaded through the V8 code cache
// by dist/lint-start.cjs (src/frontends/lint/cli-start.ts): ~40 ms of CPU less per lint run than the ESM CLI,
// and without the other commands ~5 ms less again.
await cachedBundle({
  name: 'lint-cli',
  entry: 'src/frontends/cli/lint-main.ts',
  startName: 'lint-start',
  startEntry: 'src/frontends/lint/cli-start.ts',
  keyName: '__BG_LINT_CLI_KEY__',
  // `performance` on hrtime too: the run's and each file's time are differences of now().
  banner: `${IMPORT_META_URL}\n${PERFORMANCE}`,
  plugins: [lazyCrypto],
});
console.error('build: dist/bashguard.js, dist/api.js, dist/guard-child.js, dist/code-cache.cjs, dist/hook.cjs, dist/hook-start.cjs, dist/lint-worker.cjs, dist/lint-worker-start.cjs, dist/lint-cli.cjs, dist/lint-start.cjs');
// docs/usage.md's flags table, from the CLI just built (its own definitions).
execFileSync(process.execPath, [fileURLToPath(new URL('./gen-flags-table.mjs', import.meta.url))], { stdio: 'inherit' });
