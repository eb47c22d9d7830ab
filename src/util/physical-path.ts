import { realpathSync } from 'node:fs';

/**
 * The path as the kernel resolves it (every symlink followed), or null where it cannot be resolved
 * (gone, unreadable). realpath(3) in one call: the JS realpathSync lstats every component and
 * scans the string in a loop (both show in the hook's start-up profile).
 */
export function physicalPath(p: string): string | null {
  try {
    return realpathSync.native(p);
  } catch {
    return null;
  }
}
