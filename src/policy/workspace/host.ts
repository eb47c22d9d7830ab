/** The interpreter's Host on the real disk: realpath for `cd -P`, small files for `source`, stat for `[ -d X ]`, search permission for whether a `cd` succeeds. */
import { accessSync, constants, statSync } from 'node:fs';
import { readRegularFile } from '../../util/safe-read.js';
import { physicalPath } from '../../util/physical-path.js';
import type { Host } from '../../engine/interpret/interpreter.js';
import { nativeIO, STAT, statName } from '../../runtime/index.js';

const MAX_SOURCE_BYTES = 64 * 1024;

export const nodeHost: Host = {
  realpath: physicalPath,
  stat(p) {
    // Through the addon where it is built: one system call, and no Node fs function run cold in
    // the hook's fresh process (src/util/native-io.ts).
    const native = nativeIO();
    if (native) {
      const name = statName(native.statKind(p, true));
      return name === 'error' ? null : name;
    }
    try {
      // Missing is the common answer: no exception for it (building one costs more than the stat).
      const s = statSync(p, { throwIfNoEntry: false });
      if (s === undefined) return 'missing';
      return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other';
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : null;
    }
  },
  searchable(p) {
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  readFile(p) {
    try {
      const k = nativeIO()?.statKind(p, true);
      // Through the addon, a directory, a missing file or a large one has nothing to read;
      // anything else it finds (a FIFO, a device) is left to Node's own stat, as before.
      if (k === undefined || k === STAT.OTHER) {
        if (statSync(p).size > MAX_SOURCE_BYTES) return null;
      } else if (k < 0 || k > MAX_SOURCE_BYTES) return null;
      // Never blocks on a FIFO put where a sourced file is expected (src/util/safe-read.ts).
      const r = readRegularFile(p, { maxBytes: MAX_SOURCE_BYTES });
      return r.ok ? r.text : null;
    } catch {
      return null;
    }
  },
};
