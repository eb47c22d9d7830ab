/**
 * A copy of the package's install inputs (no node_modules), as npm unpacks them, and its install
 * script run with no compiler, make or python on PATH and no Node headers: what a user without a
 * toolchain gets (test/system/runtime/prebuilds*.test.ts). Call `removeInstallCopies` in afterAll.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './shared.js';

const scratch: string[] = [];

export function packageCopy(prefix = 'bashguard-prebuilt-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  for (const f of ['package.json', 'binding.gyp', 'native', 'scripts', 'prebuilds']) cpSync(join(REPO_ROOT, f), join(dir, f), { recursive: true });
  return dir;
}

/** The install script in `dir`, with PATH an empty directory unless `env` gives one. */
export function installScript(dir: string, env: Record<string, string> = {}) {
  const bin = mkdtempSync(join(tmpdir(), 'bashguard-nopath-'));
  scratch.push(bin);
  return spawnSync(process.execPath, [join(dir, 'scripts', 'build-native.mjs')], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: bin, HOME: dir, npm_config_nodedir: join(dir, 'no-such-nodedir'), ...env },
    timeout: 120_000,
  });
}

export function removeInstallCopies(): void {
  for (const d of scratch.splice(0)) rmSync(d, { recursive: true, force: true });
}
