// Builds grammars/tree-sitter-bash.wasm, the WASM fallback's grammar, from the C sources of the
// pinned tree-sitter-bash package, with grammars/ascii-ctype.h force-included so the scanner
// classifies characters like the native build (see that header for why).
//
//   node scripts/build-grammar.mjs           write grammars/tree-sitter-bash.wasm
//   node scripts/build-grammar.mjs --check   rebuild in a temp dir; exit 1 unless byte-identical
//
// Toolchain (Debian packages clang-14 lld-14 wasi-libc): clang-14 compiles for the Emscripten
// triple, the only wasm triple LLVM 14 emits position-independent code for, using WASI libc's
// headers (declarations only: malloc, memcpy, ... stay imports that web-tree-sitter provides).
// wasm-ld-14 links an Emscripten-style side module (a dylink.0 section) like tree-sitter's own
// `build --wasm`. Override the tools with CLANG, WASM_LD and WASI_INCLUDE.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const GRAMMAR_VERSION = '0.25.1';
const out = join(root, 'grammars', 'tree-sitter-bash.wasm');
const check = process.argv.includes('--check');

function fail(message) {
  process.stderr.write(`build-grammar: ${message}\n`);
  process.exit(1);
}

const pkgDir = join(root, 'node_modules', 'tree-sitter-bash');
let version;
try {
  version = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version;
} catch {
  fail('node_modules/tree-sitter-bash is missing: run npm ci first');
}
if (version !== GRAMMAR_VERSION) fail(`expected tree-sitter-bash ${GRAMMAR_VERSION}, found ${version}: update GRAMMAR_VERSION and grammars/README.md together`);

const clang = process.env.CLANG ?? 'clang-14';
const wasmLd = process.env.WASM_LD ?? 'wasm-ld-14';
const wasiInclude = process.env.WASI_INCLUDE ?? '/usr/include/wasm32-wasi';

function run(tool, args, cwd) {
  try {
    execFileSync(tool, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    if (e.code === 'ENOENT') fail(`${tool} not found: install the Debian packages clang-14 lld-14 wasi-libc`);
    fail(`${tool} failed: ${String(e.stderr ?? e.message).trim().split('\n')[0]}`);
  }
}

const work = mkdtempSync(join(tmpdir(), 'bashguard-grammar-'));
try {
  // Compiled from inside the source directory with relative names, so the one path the output
  // holds (__FILE__ in the scanner's assert messages) is `scanner.c` wherever the clone lives.
  const src = join(pkgDir, 'src');
  const cflags = [
    '--target=wasm32-unknown-emscripten',
    '-D__wasi__', // WASI libc's headers refuse other triples; only its declarations are used
    '-isystem', wasiInclude,
    '-nostdlib', '-fPIC', '-Os', '-fno-exceptions', '-fvisibility=hidden',
    '-include', join(root, 'grammars', 'ascii-ctype.h'),
    '-I', '.',
  ];
  run(clang, [...cflags, '-c', 'parser.c', '-o', join(work, 'parser.o')], src);
  run(clang, [...cflags, '-c', 'scanner.c', '-o', join(work, 'scanner.o')], src);
  run(wasmLd, ['--experimental-pic', '-shared', '--no-entry', '--export=tree_sitter_bash', '--allow-undefined', '--strip-all', 'parser.o', 'scanner.o', '-o', 'grammar.wasm'], work);
  const built = readFileSync(join(work, 'grammar.wasm'));

  // The point of the build: no character class may come from the runtime's (Unicode) libc.
  const imported = WebAssembly.Module.imports(new WebAssembly.Module(built)).filter((i) => i.kind === 'function' && /^(isw|tow)/.test(i.name)).map((i) => i.name);
  if (imported.length) fail(`the scanner still imports ${imported.join(', ')}: add it to grammars/ascii-ctype.h`);

  const sha = createHash('sha256').update(built).digest('hex');
  if (check) {
    const committed = createHash('sha256').update(readFileSync(out)).digest('hex');
    if (committed !== sha) fail(`grammars/tree-sitter-bash.wasm (${committed.slice(0, 12)}) is not what its sources build (${sha.slice(0, 12)})`);
    process.stdout.write(`build-grammar: grammars/tree-sitter-bash.wasm is reproducible (sha256 ${sha})\n`);
  } else {
    writeFileSync(out, built);
    process.stdout.write(`build-grammar: wrote grammars/tree-sitter-bash.wasm (${built.length} bytes, sha256 ${sha}); record it in grammars/README.md\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
