/**
 * Where the user's shared data lives: `../shared` beside the repository (as in CI), or
 * BASHGUARD_SHARED; and how a test says it cannot run here.
 *
 * A fresh clone must pass its own tests wherever it sits, without ../shared and without the
 * optional programs `.ci/run` installs: what cannot run prints why and is skipped. `.ci/run` sets
 * BASHGUARD_REQUIRE_ALL=1 for its own suite, where a missing piece is a failure instead: data and
 * programs the tests depend on are never skipped silently in CI.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Set by .ci/run: nothing may be skipped for a missing program or missing data. */
export const REQUIRE_ALL = process.env.BASHGUARD_REQUIRE_ALL === '1';

/**
 * Records that something cannot run here: prints the reason once on stderr and returns it (for a
 * test title or `ctx.skip(reason)`). Under BASHGUARD_REQUIRE_ALL=1 it throws instead.
 */
export function cannotRun(reason: string): string {
  if (REQUIRE_ALL) throw new Error(`${reason} (BASHGUARD_REQUIRE_ALL=1: CI runs everything)`);
  process.stderr.write(`[skipped] ${reason}\n`);
  return reason;
}

function sharedCandidate(): string {
  return process.env.BASHGUARD_SHARED ?? join(REPO_ROOT, '..', 'shared');
}

/** The shared data directory; throws when it is missing (use sharedDirOrSkip in tests that can skip). */
export function sharedDir(): string {
  const dir = sharedCandidate();
  if (!existsSync(join(dir, 'corpora'))) {
    throw new Error(`shared data not found at ${dir} (expected ../shared beside the repository, or set BASHGUARD_SHARED)`);
  }
  return dir;
}

/** The shared data directory, or why it is missing (printed via cannotRun). */
export function sharedDirOrSkip(): { dir: string; skip: null } | { dir: null; skip: string } {
  const dir = sharedCandidate();
  if (existsSync(join(dir, 'corpora'))) return { dir, skip: null };
  return { dir: null, skip: cannotRun(`shared data not found at ${dir} (../shared beside the repository, or BASHGUARD_SHARED): tests that read it are skipped`) };
}
