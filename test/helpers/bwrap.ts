/**
 * Whether bubblewrap can create a sandbox here, for the tests that run commands under it: a probe
 * like the hook's (user and pid namespaces, `/` bound, a fresh /proc). Where it cannot, the test
 * file says why and skips, unless BASHGUARD_REQUIRE_ALL=1 (CI), where that is a failure.
 */
import { spawnSync } from 'node:child_process';
import { BWRAP_PROBE, findBwrap } from '../../src/layers/sandbox/enforce.js';
import { PLATFORM_REASONS, cannotRun, platformSkip } from './shared.js';

export interface BwrapHere {
  bwrap: string | null;
  canRun: boolean;
  why: string;
}

/**
 * `wanted: false` (the suite is switched off anyway, e.g. BASHGUARD_E2E=0): neither a failure
 * under BASHGUARD_REQUIRE_ALL nor a skip line.
 */
export function bwrapHere(skipping: string, wanted = true): BwrapHere {
  const bwrap = process.platform === 'linux' ? findBwrap(process.env) : null;
  const probe = bwrap ? spawnSync(bwrap, [...BWRAP_PROBE, '--', 'true'], { encoding: 'utf8' }) : null;
  const canRun = probe !== null && probe.status === 0;
  const why =
    process.platform !== 'linux' ? `bubblewrap needs Linux (this is ${process.platform})` : !bwrap ? 'bubblewrap (bwrap) is not installed' : !canRun ? `bwrap cannot create a sandbox here: ${probe?.stderr.trim()}` : '';
  if (!canRun && wanted) {
    if (process.platform !== 'linux') platformSkip(true, `${skipping}: ${PLATFORM_REASONS.linuxOnly}`);
    else cannotRun(`${skipping}: ${why}`);
  }
  return { bwrap, canRun, why };
}
