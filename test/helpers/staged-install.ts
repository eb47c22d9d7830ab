/**
 * Package installs into a shared cache (the real clients, the Agent SDK's types) go to a staging
 * directory first and are moved into place whole, so a half-finished install is never taken for a
 * finished one and parallel test processes do not write into each other's tree.
 */
import { renameSync, rmSync } from 'node:fs';

/** Moves a finished install from `staging` to `prefix` unless `prefix` is already complete (another process won the race). */
export function promoteStaging(staging: string, prefix: string, complete: (dir: string) => boolean): void {
  if (complete(prefix)) return;
  rmSync(prefix, { recursive: true, force: true });
  try {
    renameSync(staging, prefix);
  } catch {
    // Lost a race to another installer: the caller checks `prefix` afterwards.
  }
}
