/**
 * The pinned WASM grammar and backend selection: the checksum recorded in grammars/README.md, the
 * same tree-sitter-bash version on both backends, the .wasm rebuilt from source byte for byte, `BASHGUARD_PARSER=wasm` forcing the fallback,
 * and the fallback taking over when the native binding cannot load (simulated in a subprocess
 * with a `--require` preload that makes `require('tree-sitter')` throw).
 *
 * The subprocesses run a bundle of the current src/ built with esbuild into .tmp/ (git-ignored)
 * with the same options as scripts/build.mjs, so they never test a stale dist/.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getParser } from '../../src/engine/parse/index.js';
import { loadWasm, grammarPath } from '../../src/engine/parse/wasm.js';
import { bindingOrSkip, cannotRun, REPO_ROOT } from '../helpers/shared.js';

const require = createRequire(import.meta.url);
const README = readFileSync(join(REPO_ROOT, 'grammars', 'README.md'), 'utf8');
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
/** The installed version, or the lockfile's where npm left an optional dependency out (it could not build it). */
const pkgVersion = (name: string) => {
  const installed = join(REPO_ROOT, 'node_modules', name, 'package.json');
  if (existsSync(installed)) return (JSON.parse(readFileSync(installed, 'utf8')) as { version: string }).version;
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string; optional?: boolean }> };
  const entry = lock.packages[`node_modules/${name}`];
  if (!entry?.optional) throw new Error(`${name} is not installed and is not an optional dependency in package-lock.json`);
  return entry.version;
};

describe('pinned grammar', () => {
  it('grammars/tree-sitter-bash.wasm has the sha256 recorded in grammars/README.md', () => {
    const recorded = /`tree-sitter-bash\.wasm`[^\n]*`([0-9a-f]{64})`/.exec(README);
    expect(recorded, 'README table row with the checksum').not.toBeNull();
    expect(sha256(grammarPath())).toBe(recorded![1]);
  });

  it('the README records the versions installed for both backends', () => {
    const row = /`tree-sitter-bash\.wasm`\s*\|[^|]*\|\s*([0-9.]+)\s*\|/.exec(README);
    expect(row).not.toBeNull();
    expect(pkgVersion('tree-sitter-bash')).toBe(row![1]);
    expect(README).toContain(`web-tree-sitter\` ${pkgVersion('web-tree-sitter')}`);
    expect(README).toContain(`\`tree-sitter\` ${pkgVersion('tree-sitter')}`);
    // An optional dependency (a failed native build of it must not fail the install: docs/install.md).
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { optionalDependencies: Record<string, string> };
    expect(pkg.optionalDependencies['tree-sitter-bash']).toBe(row![1]);
  });

  it('the pinned .wasm is what scripts/build-grammar.mjs builds from the installed tree-sitter-bash sources', (ctx) => {
    // Needs the Debian packages clang-14, lld-14 and wasi-libc (.ci/run installs them).
    const missing = [
      ...[process.env.CLANG ?? 'clang-14', process.env.WASM_LD ?? 'wasm-ld-14'].filter((t) => spawnSync('sh', ['-c', 'command -v "$1"', 'sh', t]).status !== 0),
      ...(existsSync(join(process.env.WASI_INCLUDE ?? '/usr/include/wasm32-wasi', 'wctype.h')) ? [] : ['wasi-libc headers']),
    ];
    if (missing.length > 0) return ctx.skip(cannotRun(`the grammar rebuild needs ${missing.join(', ')} (.ci/run installs clang-14 lld-14 wasi-libc)`));
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'build-grammar.mjs'), '--check'], { encoding: 'utf8', timeout: 180_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(sha256(grammarPath()));
    const meta = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', 'tree-sitter-bash', 'tree-sitter.json'), 'utf8')) as { metadata: { version: string } };
    expect(meta.metadata.version).toBe(pkgVersion('tree-sitter-bash'));
  }, 180_000);

  it('the WASM grammar takes no character class from the runtime (web-tree-sitter\'s libc is Unicode-aware)', () => {
    const imports = WebAssembly.Module.imports(new WebAssembly.Module(readFileSync(grammarPath())));
    const functions = imports.filter((i) => i.kind === 'function').map((i) => i.name);
    expect(functions).toContain('malloc'); // the list is real
    expect(functions.filter((n) => /^(isw|tow)/.test(n))).toEqual([]);
    // npm's prebuilt tree-sitter-bash.wasm imports them: that is the build this replaced.
    const shipped = WebAssembly.Module.imports(new WebAssembly.Module(readFileSync(join(REPO_ROOT, 'node_modules', 'tree-sitter-bash', 'tree-sitter-bash.wasm'))));
    expect(shipped.map((i) => i.name)).toContain('iswalpha');
  });

  it('every named node type of the native grammar exists in the WASM grammar', async () => {
    const bash = require('tree-sitter-bash') as { nodeTypeInfo: { type: string; named: boolean }[] };
    // Supertypes (`_statement`, ...) are not concrete node kinds, so they are not in the parse table.
    const named = bash.nodeTypeInfo.filter((t) => t.named && !t.type.startsWith('_')).map((t) => t.type);
    expect(named.length).toBeGreaterThan(50);
    // The same (CommonJS) instance of web-tree-sitter that src/engine/parse/wasm.ts loads and initialises.
    const { Language } = require('web-tree-sitter') as { Language: { load(b: Uint8Array): Promise<{ types: string[] }> } };
    await loadWasm();
    const lang = await Language.load(readFileSync(grammarPath()));
    const wasmTypes = new Set(lang.types);
    expect(named.filter((t) => !wasmTypes.has(t))).toEqual([]);
  });
});

describe('backend selection in-process', () => {
  it("getParser('wasm') is the WASM backend and says why", async () => {
    const p = await getParser('wasm');
    expect(p.backend).toBe('wasm');
    expect(p.fallbackReason).toMatch(/forced/);
    const r = p.parse('echo hi > f');
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.backend).toBe('wasm');
  });

  it("getParser('native') is the native backend with no fallback reason", async () => {
    const p = await getParser('native');
    expect(p.backend).toBe('native');
    expect(p.fallbackReason).toBeNull();
  });
});

// ---- subprocesses -------------------------------------------------------------------------------

const WORK = join(REPO_ROOT, '.tmp', `grammar-test-${process.pid}`);
const BUNDLE = join(WORK, 'bashguard.mjs');
const PRELOAD = join(WORK, 'no-native.cjs');
const NO_EXPORT = join(WORK, 'no-export.cjs');

function baseEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('BASHGUARD_') && k !== 'NODE_OPTIONS' && !k.startsWith('VITEST')) env[k] = v;
  return { ...env, NO_COLOR: '1', ...extra };
}

function cli(args: string[], env: NodeJS.ProcessEnv, cwd = WORK): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BUNDLE, ...args], { env, cwd, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(async () => {
  mkdirSync(WORK, { recursive: true });
  const entry = join(WORK, 'entry.ts');
  writeFileSync(entry, `import { main } from ${JSON.stringify(join(REPO_ROOT, 'src', 'frontends', 'cli', 'main.ts'))};\nmain();\n`);
  await build({
    entryPoints: [entry],
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['tree-sitter', 'tree-sitter-bash', 'web-tree-sitter'],
    logLevel: 'silent',
    absWorkingDir: REPO_ROOT,
    banner: { js: "import { createRequire as __bgCreateRequire } from 'node:module'; const require = __bgCreateRequire(import.meta.url);" },
  });
  // Makes the native binding unloadable, as a missing or ABI-incompatible prebuild would: both
  // through require (tree-sitter's own loader) and through process.dlopen (src/engine/parse/native.ts
  // loads the addons directly first).
  // Makes only bashguard's tree export unloadable (an install that could not build it).
  writeFileSync(NO_EXPORT, `const dlopen = process.dlopen;
process.dlopen = function (module, file, ...rest) {
  if (/bashguard_tree\\.node$/.test(String(file))) throw new Error('simulated: tree export not built');
  return dlopen.call(this, module, file, ...rest);
};
`);
  writeFileSync(
    PRELOAD,
    `const Module = require('module');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'tree-sitter') throw new Error('simulated: native tree-sitter binding unavailable');
  return load.call(this, request, ...rest);
};
const dlopen = process.dlopen;
process.dlopen = function (module, file, ...rest) {
  if (/tree[-_]sitter_runtime|tree-sitter\\.node$|bashguard_tree\\.node$/.test(String(file))) throw new Error('simulated: native tree-sitter binding unavailable');
  return dlopen.call(this, module, file, ...rest);
};
`,
  );
}, 60_000);

afterAll(() => {
  rmSync(WORK, { recursive: true, force: true });
});

interface ExplainJson {
  parser: string;
  decision: string;
  ir: unknown;
  effects: unknown;
}

describe('backend selection in a real process', () => {
  const CMD = 'echo hi > out.txt && cat <<EOF | tee log\n$HOME\nEOF';

  it('the default is the native backend', () => {
    const r = cli(['explain', '--json', CMD], baseEnv());
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as ExplainJson).parser).toBe('native');
  });

  /** `explain --json` under `env` must run on WASM and answer exactly as the native parser does. */
  function expectWasmSameAsNative(env: NodeJS.ProcessEnv): void {
    const native = JSON.parse(cli(['explain', '--json', CMD], baseEnv()).stdout) as ExplainJson;
    const r = cli(['explain', '--json', CMD], env);
    expect(r.code, r.stderr).toBe(0);
    const wasm = JSON.parse(r.stdout) as ExplainJson;
    expect(wasm.parser).toBe('wasm');
    expect(wasm.ir).toEqual(native.ir);
    expect(wasm.effects).toEqual(native.effects);
    expect(wasm.decision).toBe(native.decision);
  }

  it('BASHGUARD_PARSER=wasm forces the fallback, with the same IR, effects and decision', () => {
    expectWasmSameAsNative(baseEnv({ BASHGUARD_PARSER: 'wasm' }));
  });

  it.skipIf(bindingOrSkip('the binding standing in for the tree export') !== null)("without bashguard's tree export, the native parser is tree-sitter's binding: same answer, and doctor says why", () => {
    const native = JSON.parse(cli(['explain', '--json', CMD], baseEnv()).stdout) as ExplainJson;
    const r = cli(['explain', '--json', CMD], baseEnv({ NODE_OPTIONS: `--require ${NO_EXPORT}` }));
    expect(r.code, r.stderr).toBe(0);
    const viaBinding = JSON.parse(r.stdout) as ExplainJson;
    expect(viaBinding.parser).toBe('native');
    expect([viaBinding.ir, viaBinding.effects, viaBinding.decision]).toEqual([native.ir, native.effects, native.decision]);
    const d = cli(['doctor'], baseEnv({ NODE_OPTIONS: `--require ${NO_EXPORT}` }));
    expect(d.stdout).toMatch(/^ok\s+parser native\s+loads and parses \(tree-sitter's binding; bashguard's faster tree export is not in use: simulated: tree export not built\)/m);
  });

  it('when require("tree-sitter") fails, explain uses WASM and gives the same answer', () => {
    expectWasmSameAsNative(baseEnv({ NODE_OPTIONS: `--require ${PRELOAD}` }));
  });

  it('when require("tree-sitter") fails, doctor reports native unavailable and WASM working, exit 0', () => {
    const home = join(WORK, 'home');
    mkdirSync(home, { recursive: true });
    // doctor fails when no bashguard hook is effective where it runs (#12): install one first.
    expect(cli(['install', '--user'], baseEnv({ HOME: home })).code).toBe(0);
    const r = cli(['doctor'], baseEnv({ NODE_OPTIONS: `--require ${PRELOAD}`, HOME: home }));
    expect(r.stdout).toMatch(/parser native\s+not available, the WASM fallback will be used: .*simulated/);
    expect(r.stdout).toMatch(/^ok\s+parser wasm\s+loads and parses/m);
    expect(r.stdout).toMatch(/^ok\s+self-test/m);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('--parser native fails with a one-line error when the binding cannot load (no silent fallback)', () => {
    const r = cli(['check', '--parser', 'native', 'echo hi'], baseEnv({ NODE_OPTIONS: `--require ${PRELOAD}` }));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/simulated: native tree-sitter binding unavailable/);
  });

  it('the hook still answers with the fallback: deny for a write into the main checkout', () => {
    // A real worktree layout: main checkout with a linked worktree at .builders/b1.
    const root = join(WORK, 'repo');
    const gitEnv = baseEnv({ HOME: join(WORK, 'home'), GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' });
    mkdirSync(root, { recursive: true });
    const git = (...a: string[]) => execFileSync('git', a, { cwd: root, env: gitEnv, stdio: 'pipe' });
    git('init', '-q', '-b', 'main');
    writeFileSync(join(root, 'README.md'), 'hi\n');
    git('add', '.');
    git('commit', '-qm', 'init');
    git('worktree', 'add', '-q', '-b', 'b1', join(root, '.builders', 'b1'));
    const wt = join(root, '.builders', 'b1');
    const event = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', cwd: wt, tool_input: { command: `echo x > ${root}/README.md` } });
    const r = spawnSync(process.execPath, [BUNDLE, 'hook'], { env: baseEnv({ NODE_OPTIONS: `--require ${PRELOAD}`, HOME: join(WORK, 'home') }), cwd: wt, input: event, encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string } };
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
  });
});
