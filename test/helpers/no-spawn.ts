/**
 * Setup of the unit project (vitest.config.ts): a unit test never starts a process, so the inner
 * loop stays fast. Every child_process function throws here; a test that needs one belongs in
 * test/system/.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';

const childProcess = createRequire(import.meta.url)('node:child_process') as Record<string, unknown>;
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[name] = () => {
    throw new Error(`unit tests start no process (child_process.${name}): move this test to test/system/`);
  };
}
syncBuiltinESMExports();
