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
import { createRequire } from 'node:module';
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

/**
 * Null when `ok`, else why the test cannot run here, recorded through cannotRun (so a failure under
 * BASHGUARD_REQUIRE_ALL=1): for `describe.skipIf(unless(...) !== null)` and `ctx.skip(...)`.
 */
export function unless(ok: boolean, reason: string): string | null {
  return ok ? null : cannotRun(reason);
}

/** bashguard's tree export, where npm's install puts it (scripts/build-native.mjs). */
export const ADDON_FILE = join(REPO_ROOT, 'build', 'Release', 'bashguard_tree.node');

/**
 * Null when the tree export is installed, else why `what` cannot run (a platform skip on Windows,
 * which has no addon; elsewhere through cannotRun: npm's install always puts one there).
 */
export function addonOrSkip(what: string): string | null {
  if (process.platform === 'win32') return platformSkip(true, `${what}: ${PLATFORM_REASONS.noAddonOnWindows}`);
  return unless(existsSync(ADDON_FILE), `${what}: the tree export is not built (${ADDON_FILE}; npm ci runs scripts/build-native.mjs)`);
}

/**
 * The only reasons a test may skip in CI: where it runs (the platform, the user, Node's version),
 * never a missing program, package or build. A skipped test's title names one of them (in the
 * words given here), and scripts/check-skips.mjs, run by .ci/run over the JSON report, fails on
 * any other skip.
 */
export const PLATFORM_REASONS = {
  asNonRoot: 'as a non-root user',
  asRoot: 'as root',
  linuxOnly: 'Linux only',
  notWindows: 'not on Windows',
  macOSOnly: 'macOS only',
  linuxX64Glibc: 'linux-x64 with glibc only',
  noAddonOnWindows: 'no tree export on Windows',
  nodeBefore24: 'Node 20, 22 or 24 (V8 flags pay there)',
  node24On: 'a Node after 24 (V8 14 and later: V8 flags not measured there)',
  node22On: 'Node 22 and later (ArrayBuffer transfer)',
} as const;

/**
 * `skip` when the platform rules the test out (never a failure, even in CI): prints the reason
 * once, as cannotRun does, and returns it for the title; null when the test runs.
 */
export function platformSkip(skip: boolean, reason: string): string | null {
  if (!skip) return null;
  process.stderr.write(`[skipped] ${reason} (platform)\n`);
  return reason;
}

let bindingLoads: boolean | undefined;

/**
 * Null when tree-sitter's own binding loads, else why `what` cannot run (through cannotRun). It is
 * an optional dependency: npm drops it, without a word, where it cannot build it (no C++ compiler,
 * make or python3, or no Node headers); bashguard then parses with its shipped tree export or WASM.
 */
export function bindingOrSkip(what: string): string | null {
  if (bindingLoads === undefined) {
    try {
      createRequire(join(REPO_ROOT, 'package.json'))('tree-sitter');
      bindingLoads = true;
    } catch {
      bindingLoads = false;
    }
  }
  return unless(bindingLoads, `${what}: tree-sitter's own binding (an optional dependency) is not installed: npm leaves it out where it cannot be built (no compiler, make, python3 or Node headers)`);
}
