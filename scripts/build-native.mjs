// npm's `install`: puts bashguard's tree export (native/tree-export.c, binding.gyp) at
// build/Release/bashguard_tree.node, where everything that uses it looks. It never fails the
// install: without the addon the parser layer uses tree-sitter's own binding (the same trees,
// slower) or, where that did not build either, the WASM parser
// (grammars/tree-sitter-bash.wasm), and `bashguard doctor` says which one is in use and why.
//
// Where it comes from, in order (node-gyp-build's rule: a prebuilt binary for this platform,
// architecture and libc, N-API so one binary serves every Node >= 20; else a build):
//   1. prebuilds/<platform>-<arch>/bashguard_tree.napi.<glibc|musl>.node, shipped in the package,
//      when its recorded sources (prebuilds/<platform>-<arch>/SOURCES) are this checkout's and
//      it loads in a child process. No compiler, no Node headers, no network.
//   2. node-gyp rebuild (needs make, a C compiler, python3 and Node's headers).
// BASHGUARD_NATIVE_BUILD=0 skips both; =source, or npm's --build-from-source, skips the
// prebuilt binary. Every line it prints goes to stderr (`$(npm pack --silent ...)` reads stdout).
//
// `--sources` prints what SOURCES would say for this checkout.
//
// Then, on Linux, the Landlock helper (native/landlock-exec.c, src/layers/sandbox/landlock.ts) at
// build/Release/bashguard-landlock, by the same rule: the shipped static binary
// prebuilds/<platform>-<arch>/bashguard-landlock when SOURCES.landlock records this checkout's
// source and it runs here; else compiled with $CC or cc (statically where the libc allows).
// Without it the enforcement uses bubblewrap alone (`bashguard doctor` says so). Beside it, the bash
// builtin bashguard-landlock.so (native/landlock-builtin.c), shipped and built with it; without it
// the Landlock wrapper starts the helper.
// `node scripts/build-native.mjs --prebuild` (in a checkout) builds from source and writes the
// result and its SOURCES into prebuilds/ for this platform (test/prebuilds.test.ts checks that
// the shipped ones match the sources).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (msg) => process.stderr.write(`bashguard: ${msg}\n`);
const target = join(root, 'build', 'Release', 'bashguard_tree.node');

/** The libc tag of this Linux (node-gyp-build's rule: musl where Node's report names no glibc). */
function libcTag() {
  if (process.platform !== 'linux') return null;
  const header = process.report?.getReport?.().header;
  return header?.glibcVersionRuntime ? 'glibc' : 'musl';
}

/** This platform's prebuilt binary and its SOURCES file. */
function prebuiltPaths(dir = root) {
  const tuple = `${process.platform}-${process.arch}`;
  const libc = libcTag();
  const name = `bashguard_tree.napi${libc ? `.${libc}` : ''}.node`;
  return { tuple, file: join(dir, 'prebuilds', tuple, name), sources: join(dir, 'prebuilds', tuple, 'SOURCES') };
}

/**
 * What a prebuilt binary was built from: the hashes of the addon's own sources and the versions of
 * the tree-sitter packages whose C sources binding.gyp compiles in. One line per input.
 */
function sourcesManifest(dir = root) {
  const files = ['binding.gyp', 'scripts/tree-sitter-runtime.mjs', ...['bash-parser.c', 'bash-scanner.c', 'dense-table.c', 'file-io.c', 'tree-export.c', 'tree-sitter-runtime.c'].map((f) => `native/${f}`)];
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const deps = { ...pkg.dependencies, ...pkg.optionalDependencies };
  const lines = files.map((f) => `${createHash('sha256').update(readFileSync(join(dir, f))).digest('hex')}  ${f}`);
  for (const name of ['tree-sitter', 'tree-sitter-bash']) lines.push(`${name}@${deps[name]}`);
  return lines.join('\n') + '\n';
}

/** Why the prebuilt binary cannot be used here, or null when it loads and is this checkout's. */
function prebuiltProblem(p) {
  if (!existsSync(p.file)) return `no prebuilt binary for ${p.tuple}${libcTag() ? ` (${libcTag()})` : ''}`;
  let recorded = '';
  try {
    recorded = readFileSync(p.sources, 'utf8');
  } catch {
    return `${relative(root, p.sources)} is missing`;
  }
  if (recorded !== sourcesManifest()) return `the prebuilt binary was built from other sources (${relative(root, p.sources)})`;
  // Loaded in a child: a binary for another libc or a newer glibc must not take this process down.
  const probe = "const m={exports:{}};process.dlopen(m,process.argv[1]);if(m.exports.formatVersion!==2)throw new Error('format '+m.exports.formatVersion)";
  const r = spawnSync(process.execPath, ['-e', probe, p.file], { encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) return `the prebuilt binary does not load here (${(r.stderr || r.error?.message || '').trim().split('\n').find((l) => /Error|error/.test(l)) ?? `exit ${r.status}`})`;
  return null;
}

function nodeGyp() {
  // npm gives its scripts the node-gyp it bundles.
  const fromNpm = process.env.npm_config_node_gyp;
  if (fromNpm && existsSync(fromNpm)) return fromNpm;
  try {
    return createRequire(join(root, 'package.json')).resolve('node-gyp/bin/node-gyp.js');
  } catch {
    // next guess: the npm next to this node
  }
  const beside = join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  return existsSync(beside) ? beside : null;
}

/** Builds from source; null when it worked, else why not. */
function build() {
  const gyp = nodeGyp();
  if (!gyp) return 'node-gyp not found';
  for (const pkg of ['tree-sitter', 'tree-sitter-bash']) {
    try {
      createRequire(join(root, 'package.json')).resolve(`${pkg}/package.json`);
    } catch {
      // An optional dependency whose own install failed is removed by npm: its C sources with it.
      return `the ${pkg} package (whose C sources the build compiles) is not installed`;
    }
  }
  const args = [gyp, 'rebuild'];
  // Node's own headers when this Node has them (no download): N-API is stable across Node
  // versions, so the addon built here loads in any later one.
  const prefix = join(dirname(process.execPath), '..');
  if (!process.env.npm_config_nodedir && existsSync(join(prefix, 'include', 'node', 'node_api.h'))) args.push(`--nodedir=${prefix}`);
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
  if (r.status === 0 && existsSync(target)) return null;
  const why = r.error ? r.error.message : `node-gyp exited with ${r.status ?? r.signal}`;
  const tail = `${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n').filter((l) => /error|ERR!/i.test(l)).slice(0, 3);
  // A half-made build must not be picked up.
  rmSync(target, { force: true });
  return [why, ...tail.map((l) => `  ${l.trim()}`)].join('\n');
}

/** What the parser falls back to without the tree export. */
function fallback() {
  try {
    const dir = dirname(createRequire(join(root, 'package.json')).resolve('tree-sitter/package.json'));
    if (existsSync(join(dir, 'build', 'Release', 'tree_sitter_runtime_binding.node'))) return "the parser will use tree-sitter's own binding (same results, slower)";
  } catch {
    // not installed
  }
  return 'the parser will use WASM (grammars/tree-sitter-bash.wasm: same results, slower); `bashguard doctor` says so';
}

function treeExport() {
  const mode = process.env.BASHGUARD_NATIVE_BUILD;
  if (process.argv.includes('--prebuild-landlock') || process.argv.includes('--landlock-sources')) return;
  if (process.argv.includes('--sources')) {
    process.stdout.write(sourcesManifest());
    return;
  }
  if (process.argv.includes('--prebuild')) {
    const problem = build();
    if (problem) {
      say(`could not build the tree export: ${problem}`);
      process.exit(1);
    }
    const p = prebuiltPaths();
    mkdirSync(dirname(p.file), { recursive: true });
    copyFileSync(target, p.file);
    // Debug symbols are not shipped (a quarter of the file); where strip is missing they stay.
    spawnSync('strip', ['--strip-unneeded', p.file], { stdio: 'ignore' });
    writeFileSync(p.sources, sourcesManifest());
    say(`wrote ${relative(root, p.file)} and ${relative(root, p.sources)}`);
    return;
  }
  if (mode === '0') {
    say(`BASHGUARD_NATIVE_BUILD=0: tree export not installed; ${fallback()}`);
    return;
  }
  const fromSource = mode === 'source' || process.env.npm_config_build_from_source === 'true';
  let why = fromSource ? (mode === 'source' ? 'BASHGUARD_NATIVE_BUILD=source' : '--build-from-source') : prebuiltProblem(prebuiltPaths());
  if (!why) {
    const p = prebuiltPaths();
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(p.file, target);
    say(`installed the prebuilt tree export (${relative(root, p.file)})`);
    return;
  }
  say(`building the tree export from source (${why})`);
  const problem = build();
  if (!problem) {
    say('built the tree export (build/Release/bashguard_tree.node)');
    return;
  }
  const [first, ...rest] = problem.split('\n');
  say(`could not build the tree export (${first}); ${fallback()}`);
  for (const l of rest) say(l);
}

const LANDLOCK_SOURCE = 'native/landlock-exec.c';
const LANDLOCK_BUILTIN_SOURCE = 'native/landlock-builtin.c';
const LANDLOCK_SOURCES = [LANDLOCK_SOURCE, 'native/landlock-core.h', 'native/mounts-core.h', 'native/reserve-core.h', 'native/seccomp-core.h', LANDLOCK_BUILTIN_SOURCE];
/** The compiler flags, recorded in SOURCES.landlock with the sources' hashes (a static, stripped binary). */
const LANDLOCK_FLAGS = ['-std=c11', '-Os', '-s', '-Wall', '-Wextra'];
/** The bash builtin's (a shared object bash loads with `enable -f`; it uses the libc of the bash that loads it). */
const LANDLOCK_BUILTIN_FLAGS = ['-std=c11', '-Os', '-s', '-Wall', '-Wextra', '-shared', '-fPIC'];
const landlockTarget = join(root, 'build', 'Release', 'bashguard-landlock');
const builtinOf = (helper) => `${helper}.so`;
const landlockPrebuilt = (dir = root) => ({ file: join(dir, 'prebuilds', `${process.platform}-${process.arch}`, 'bashguard-landlock'), sources: join(dir, 'prebuilds', `${process.platform}-${process.arch}`, 'SOURCES.landlock') });
const landlockManifest = () =>
  `${LANDLOCK_SOURCES.map((f) => `${createHash('sha256').update(readFileSync(join(root, f))).digest('hex')}  ${f}`).join('\n')}\ncc -static ${LANDLOCK_FLAGS.join(' ')}\ncc ${LANDLOCK_BUILTIN_FLAGS.join(' ')}\n`;

/** Compiles the helper to `out` and the builtin beside it; null when the helper built (the builtin is optional: without it the wrapper uses the helper), else why not. */
function buildLandlock(out, staticOnly = false) {
  const cc = process.env.CC || 'cc';
  mkdirSync(dirname(out), { recursive: true });
  let r = null;
  // Static first (one binary for any libc, no loader at start); where the libc has no static
  // archive, dynamic.
  for (const extra of staticOnly ? [['-static']] : [['-static'], []]) {
    r = spawnSync(cc, [...extra, ...LANDLOCK_FLAGS, '-o', out, join(root, LANDLOCK_SOURCE)], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    if (r.status === 0 && existsSync(out)) break;
  }
  if (!(r.status === 0 && existsSync(out))) {
    rmSync(out, { force: true });
    rmSync(builtinOf(out), { force: true });
    return r.error ? `${cc}: ${r.error.code === 'ENOENT' ? 'no C compiler' : r.error.message}` : `${cc} exited with ${r.status}: ${(r.stderr ?? '').trim().split('\n')[0]}`;
  }
  const b = spawnSync(cc, [...LANDLOCK_BUILTIN_FLAGS, '-o', builtinOf(out), join(root, LANDLOCK_BUILTIN_SOURCE)], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  if (b.status !== 0) {
    rmSync(builtinOf(out), { force: true });
    say(`no Landlock builtin for bash (${cc} exited with ${b.status}: ${(b.stderr ?? '').trim().split('\n')[0]}); the wrapper will start the helper`);
  }
  return null;
}

/** Whether the helper runs here: `--probe` exits 0 (Landlock on) or 121 (off), nothing else. */
function landlockRuns(file) {
  const r = spawnSync(file, ['--probe'], { encoding: 'utf8', timeout: 10_000 });
  return r.status === 0 || r.status === 121 ? null : `it does not run here (${r.error?.message ?? `exit ${r.status}`})`;
}

function landlockHelper() {
  if (process.platform !== 'linux') return;
  const mode = process.env.BASHGUARD_NATIVE_BUILD;
  if (process.argv.includes('--landlock-sources')) {
    process.stdout.write(landlockManifest());
    return;
  }
  if (process.argv.includes('--prebuild') || process.argv.includes('--prebuild-landlock')) {
    const p = landlockPrebuilt();
    const problem = buildLandlock(p.file, true);
    if (problem) {
      say(`could not build the Landlock helper: ${problem}`);
      process.exit(1);
    }
    writeFileSync(p.sources, landlockManifest());
    say(`wrote ${relative(root, p.file)} and ${relative(root, p.sources)}`);
    return;
  }
  if (process.argv.includes('--sources')) return;
  if (mode === '0') return;
  const p = landlockPrebuilt();
  const fromSource = mode === 'source' || process.env.npm_config_build_from_source === 'true';
  let why = fromSource ? 'building from source' : !existsSync(p.file) ? `no prebuilt helper for ${process.platform}-${process.arch}` : !existsSync(p.sources) || readFileSync(p.sources, 'utf8') !== landlockManifest() ? `the prebuilt helper was built from other sources (${relative(root, p.sources)})` : landlockRuns(p.file);
  if (!why) {
    mkdirSync(dirname(landlockTarget), { recursive: true });
    copyFileSync(p.file, landlockTarget);
    if (existsSync(builtinOf(p.file))) copyFileSync(builtinOf(p.file), builtinOf(landlockTarget));
    else rmSync(builtinOf(landlockTarget), { force: true });
    say(`installed the prebuilt Landlock helper (${relative(root, p.file)})`);
    return;
  }
  const problem = buildLandlock(landlockTarget) ?? landlockRuns(landlockTarget);
  if (!problem) say(`built the Landlock helper (build/Release/bashguard-landlock${fromSource ? '' : `: ${why}`})`);
  else {
    rmSync(landlockTarget, { force: true });
    rmSync(builtinOf(landlockTarget), { force: true });
    say(`no Landlock helper (${why}; could not build it: ${problem}); the enforcement will use bubblewrap alone`);
  }
}

treeExport();
landlockHelper();
