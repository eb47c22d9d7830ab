/**
 * Where the user's shared data lives: `../shared` beside the repository (as in CI), or
 * BASHGUARD_SHARED. A test that needs it fails with this message when it is missing: data the
 * tests depend on must never be skipped silently.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function sharedDir(): string {
  const dir = process.env.BASHGUARD_SHARED ?? join(REPO_ROOT, '..', 'shared');
  if (!existsSync(join(dir, 'corpora'))) {
    throw new Error(`shared data not found at ${dir} (expected ../shared beside the repository, or set BASHGUARD_SHARED)`);
  }
  return dir;
}
