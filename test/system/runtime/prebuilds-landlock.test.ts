/**
 * The Landlock helper (native/landlock-exec.c) and its bash builtin (native/landlock-builtin.c) as
 * scripts/build-native.mjs installs them: the shipped linux-x64 binary records the sources it was
 * built from (SOURCES.landlock), is static (no dynamic loader: it runs on glibc and musl alike),
 * the builtin loads into bash, and both are installed without a toolchain; changed sources
 * are compiled where a compiler is present, and without one the install still succeeds and says
 * that the enforcement will use bubblewrap alone.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PLATFORM_REASONS, REPO_ROOT, platformSkip, unless } from '../../helpers/shared.js';
import { installScript, packageCopy as copyPackage, removeInstallCopies } from '../../helpers/install-copy.js';

const TUPLE = `${process.platform}-${process.arch}`;
const DIR = join(REPO_ROOT, 'prebuilds', TUPLE);
afterAll(removeInstallCopies);
const packageCopy = (): string => copyPackage('bashguard-prebuilt-ll-');

/** Whether an ELF file asks for a dynamic loader (a PT_INTERP program header). */
function hasInterpreter(file: string): boolean {
  const b = readFileSync(file);
  expect(b.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
  expect(b[4]).toBe(2); // 64-bit
  const phoff = Number(b.readBigUInt64LE(0x20));
  const phentsize = b.readUInt16LE(0x36);
  const phnum = b.readUInt16LE(0x38);
  for (let i = 0; i < phnum; i++) if (b.readUInt32LE(phoff + i * phentsize) === 3) return true;
  return false;
}

const cc = spawnSync('cc', ['--version'], { encoding: 'utf8' }).status === 0;

describe.skipIf(platformSkip(TUPLE !== 'linux-x64', PLATFORM_REASONS.linuxX64Glibc) !== null)(`the shipped linux-x64 Landlock helper (${PLATFORM_REASONS.linuxX64Glibc})`, () => {
  it('records the source it was built from, which is this checkout\'s; static; runs', () => {
    const now = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'build-native.mjs'), '--landlock-sources'], { encoding: 'utf8' });
    expect(now.status).toBe(0);
    expect(now.stdout).toMatch(/^[0-9a-f]{64} {2}native\/landlock-exec\.c\n[0-9a-f]{64} {2}native\/landlock-core\.h\n[0-9a-f]{64} {2}native\/mounts-core\.h\n[0-9a-f]{64} {2}native\/reserve-core\.h\n[0-9a-f]{64} {2}native\/seccomp-core\.h\n[0-9a-f]{64} {2}native\/landlock-builtin\.c\ncc -static .*\ncc .*-shared/);
    // A mismatch means a native/landlock-* or native/mounts-core.h or native/reserve-core.h source changed without `node scripts/build-native.mjs --prebuild-landlock`.
    expect(readFileSync(join(DIR, 'SOURCES.landlock'), 'utf8')).toBe(now.stdout);
    expect(hasInterpreter(join(DIR, 'bashguard-landlock'))).toBe(false);
    const r = spawnSync(join(DIR, 'bashguard-landlock'), ['--probe'], { encoding: 'utf8' });
    expect([0, 121]).toContain(r.status);
    const loaded = spawnSync('bash', ['-c', `builtin enable -f ${join(DIR, 'bashguard-landlock.so')} bashguard_landlock && type -t bashguard_landlock && builtin bashguard_landlock; echo "status $?"`], { encoding: 'utf8' });
    // (no arguments: declined, with the usage status, before anything is done)
    expect(loaded.stdout).toBe('builtin\nstatus 2\n');
  });

  it('the install script installs it with no toolchain', () => {
    const dir = packageCopy();
    const r = installScript(dir, { BASHGUARD_NATIVE_BUILD: '0' });
    expect(r.status).toBe(0);
    // (BASHGUARD_NATIVE_BUILD=0 skips both)
    expect(existsSync(join(dir, 'build', 'Release', 'bashguard-landlock'))).toBe(false);
    const ok = installScript(dir);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toBe('');
    expect(ok.stderr).toContain(`installed the prebuilt Landlock helper (prebuilds/${TUPLE}/bashguard-landlock)`);
    const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');
    expect(sha(join(dir, 'build', 'Release', 'bashguard-landlock'))).toBe(sha(join(DIR, 'bashguard-landlock')));
    expect(sha(join(dir, 'build', 'Release', 'bashguard-landlock.so'))).toBe(sha(join(DIR, 'bashguard-landlock.so')));
  });

  const changedCopy = () => {
    const dir = packageCopy();
    writeFileSync(join(dir, 'native', 'landlock-exec.c'), readFileSync(join(dir, 'native', 'landlock-exec.c'), 'utf8') + '\n/* changed */\n');
    return dir;
  };

  it('changed sources without a compiler: no helper, said, and the install succeeds', () => {
    const dir = changedCopy();
    const none = installScript(dir);
    expect(none.status).toBe(0);
    expect(none.stderr).toMatch(/no Landlock helper \(the prebuilt helper was built from other sources .*; could not build it: cc: no C compiler\); the enforcement will use bubblewrap alone/);
    expect(existsSync(join(dir, 'build', 'Release', 'bashguard-landlock'))).toBe(false);
    expect(existsSync(join(dir, 'build', 'Release', 'bashguard-landlock.so'))).toBe(false);
  });

  it.skipIf(unless(cc, 'the Landlock helper built from changed sources: no C compiler (cc) on PATH') !== null)('changed sources with a compiler: compiled, and it runs', () => {
    const dir = changedCopy();
    const built = installScript(dir, { PATH: process.env.PATH ?? '/usr/bin:/bin' });
    expect(built.status).toBe(0);
    expect(built.stderr).toContain('built the Landlock helper (build/Release/bashguard-landlock: the prebuilt helper was built from other sources');
    const r = spawnSync(join(dir, 'build', 'Release', 'bashguard-landlock'), ['--probe'], { encoding: 'utf8' });
    expect([0, 121]).toContain(r.status);
    expect(existsSync(join(dir, 'build', 'Release', 'bashguard-landlock.so'))).toBe(true);
  });
});
