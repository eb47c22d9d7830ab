/** The interpreter's Host on the real disk: realpath for `cd -P`, small files for `source`, stat for `[ -d X ]`. */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import type { Host } from '../interpret/interpreter.js';

const MAX_SOURCE_BYTES = 64 * 1024;

export const nodeHost: Host = {
  realpath(p) {
    try {
      return realpathSync(p);
    } catch {
      return null;
    }
  },
  stat(p) {
    try {
      // (a missing path without an exception: Node builds an Error with a stack for each)
      const s = statSync(p, { throwIfNoEntry: false });
      if (!s) return 'missing';
      return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other';
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : null;
    }
  },
  readFile(p) {
    try {
      if (statSync(p).size > MAX_SOURCE_BYTES) return null;
      return readFileSync(p, 'utf8');
    } catch {
      return null;
    }
  },
};
