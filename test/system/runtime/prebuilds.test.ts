/**
 * The prebuilt tree export shipped in prebuilds/ (scripts/build-native.mjs): it is built from this
 * checkout's sources, it loads and parses like a fresh build, the install script picks it without
 * a toolchain, and falls back with a clear message when it cannot be used.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PLATFORM_REASONS, REPO_ROOT, platformSkip } from '../../helpers/shared.js';
import { installScript, packageCopy as copyPackage, removeInstallCopies } from '../../helpers/install-copy.js';

const TUPLE = `${process.platform}-${process.arch}`;
const PREBUILT_DIR = join(REPO_ROOT, 'prebuilds', TUPLE);
const prebuilt = existsSync(PREBUILT_DIR) ? readdirSync(PREBUILT_DIR).find((f) => /^bashguard_tree\.napi\.(glibc|musl)\.node$/.test(f)) : undefined;
const glibc = process.platform === 'linux' && !!(process.report?.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime;

afterAll(removeInstallCopies);
const packageCopy = (): string => copyPackage('bashguard-prebuilt-');

describe.skipIf(platformSkip(TUPLE !== 'linux-x64', PLATFORM_REASONS.linuxX64Glibc) !== null)(`the shipped linux-x64 prebuilt binary (${PLATFORM_REASONS.linuxX64Glibc})`, () => {
  it('exists for glibc and records the sources it was built from, which are this checkout\'s', () => {
    expect(prebuilt).toBe('bashguard_tree.napi.glibc.node');
    const now = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'build-native.mjs'), '--sources'], { encoding: 'utf8' });
    expect(now.status).toBe(0);
    expect(now.stdout).toMatch(/native\/tree-export\.c\n/);
    // A mismatch means native/, binding.gyp or the tree-sitter versions changed without
    // `node scripts/build-native.mjs --prebuild`.
    expect(readFileSync(join(PREBUILT_DIR, 'SOURCES'), 'utf8')).toBe(now.stdout);
  });

  it.skipIf(platformSkip(!glibc, PLATFORM_REASONS.linuxX64Glibc) !== null)(`loads and exports the same trees as the tree export built from source (${PLATFORM_REASONS.linuxX64Glibc})`, () => {
    const fresh = join(REPO_ROOT, 'build', 'Release', 'bashguard_tree.node');
    const probe = `
      const load = (f) => { const m = { exports: {} }; process.dlopen(m, f); return m.exports; };
      const x = load(process.argv[1]);
      const out = new Uint32Array(1 << 16);
      const texts = ['a=1 b', 'cd ../.. && touch "$HOME/x" | tee >(cat) <<EOF\\nhi\\nEOF\\n', 'if [[ -f x ]]; then echo \${a:-b}; fi'];
      console.log(JSON.stringify({ v: x.formatVersion, trees: texts.map((t) => { const n = x.parse(t, out); return [n, Array.from(out.subarray(0, n * 5))]; }) }));`;
    const run = (file: string) => spawnSync(process.execPath, ['-e', probe, file], { encoding: 'utf8' });
    const a = run(join(PREBUILT_DIR, prebuilt!));
    expect(a.stderr).toBe('');
    const got = JSON.parse(a.stdout) as { v: number; trees: [number, number[]][] };
    expect(got.v).toBe(2);
    for (const [n] of got.trees) expect(n).toBeGreaterThan(1);
    if (existsSync(fresh)) expect(got).toEqual(JSON.parse(run(fresh).stdout));
  });

  it.skipIf(platformSkip(!glibc, PLATFORM_REASONS.linuxX64Glibc) !== null)(`the install script installs it with no toolchain and no Node headers (${PLATFORM_REASONS.linuxX64Glibc})`, () => {
    const dir = packageCopy();
    const r = installScript(dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`installed the prebuilt tree export (prebuilds/${TUPLE}/bashguard_tree.napi.glibc.node)`);
    const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');
    expect(sha(join(dir, 'build', 'Release', 'bashguard_tree.node'))).toBe(sha(join(PREBUILT_DIR, prebuilt!)));
  });

  it('a prebuilt binary from other sources is not used; without a build the script says WASM and succeeds', () => {
    const dir = packageCopy();
    writeFileSync(join(dir, 'native', 'tree-export.c'), readFileSync(join(dir, 'native', 'tree-export.c'), 'utf8') + '\n/* changed */\n');
    const r = installScript(dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('building the tree export from source (the prebuilt binary was built from other sources');
    expect(r.stderr).toMatch(/could not build the tree export \(.*\); the parser will use WASM/);
    expect(existsSync(join(dir, 'build', 'Release', 'bashguard_tree.node'))).toBe(false);
  });

  it('--build-from-source skips the prebuilt binary; BASHGUARD_NATIVE_BUILD=0 skips both', () => {
    const dir = packageCopy();
    const r = installScript(dir, { npm_config_build_from_source: 'true' });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('building the tree export from source (--build-from-source)');
    const off = installScript(dir, { BASHGUARD_NATIVE_BUILD: '0' });
    expect(off.status).toBe(0);
    expect(off.stderr).toContain('BASHGUARD_NATIVE_BUILD=0: tree export not installed; the parser will use WASM');
  });

  it.skipIf(platformSkip(!glibc, PLATFORM_REASONS.linuxX64Glibc) !== null)(`without the install script (--ignore-scripts) the runtime loads the prebuilt binary from prebuilds/ (${PLATFORM_REASONS.linuxX64Glibc})`, async () => {
    const dir = packageCopy();
    const { build } = await import('esbuild');
    const src = `import { treeAddonIn } from ${JSON.stringify(join(REPO_ROOT, 'src', 'util', 'tree-addon.ts'))};\nconsole.log(treeAddonIn(process.argv[2]).formatVersion);`;
    await build({ stdin: { contents: src, resolveDir: dir, loader: 'ts' }, bundle: true, platform: 'node', format: 'cjs', outfile: join(dir, 'probe.cjs'), logLevel: 'silent' });
    expect(existsSync(join(dir, 'build'))).toBe(false);
    const r = spawnSync(process.execPath, [join(dir, 'probe.cjs'), dir], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('2');
    // With no prebuilt binary either, the reason names both.
    rmSync(join(dir, 'prebuilds'), { recursive: true });
    const none = spawnSync(process.execPath, [join(dir, 'probe.cjs'), dir], { encoding: 'utf8' });
    expect(none.status).not.toBe(0);
    expect(none.stderr).toContain('the tree export was not installed');
  });
});
