/** The child side of src/frontends/lint/isolated.ts (the channel: ./spawn-worker.ts). */
import { readSync } from 'node:fs';
import { getParser, useDenseParseTable } from '../../engine/parse/index.js';
import { releaseStderr } from '../../util/tree-addon.js';
import { framedSource, Linter } from './lint.js';
import { trainIfWritingCache, writesCodeCache } from './training.js';
import type { WorkerReply, WorkerRequest } from './isolated.js';
import { LineSplitter, REPLY_FD, writeWhole } from './spawn-worker.js';

/**
 * The requests on `fd`, one JSON object per line, read with blocking reads until the end of the
 * input (the parent is done, or gone). The analysis is synchronous anyway, and blocking reads
 * need none of Node's stream machinery.
 */
function* requests(fd: number): Generator<WorkerRequest> {
  const chunk = Buffer.allocUnsafe(1 << 16);
  const lines = new LineSplitter();
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') {
        // A non-blocking descriptor (not what the parent gives): wait a little, read again.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      if ((err as NodeJS.ErrnoException).code === 'EOF') return;
      throw err;
    }
    if (n === 0) return;
    for (const line of lines.push(chunk.subarray(0, n))) if (line.trim()) yield JSON.parse(line) as WorkerRequest;
  }
}

function reply(fd: number, msg: WorkerReply): void {
  writeWhole(fd, JSON.stringify(msg) + '\n');
}

/**
 * Serves the parent's requests until its input ends. Resolves with the exit code the process
 * should end with (library code never calls process.exit): 0 when the parent is done, 2 when the
 * parser cannot load or the channel fails (the parent sees this process end and reports it for
 * the file it was on, instead of waiting for answers that never come).
 */
export async function runLintWorker(input = 0, output = REPLY_FD): Promise<number> {
  let linter: Linter | null = null;
  try {
    for (const m of requests(input)) {
      if (m.type === 'init') {
        // Whole scripts: the native parser's dense table (src/engine/parse/native.ts).
        useDenseParseTable();
        linter = new Linter(await getParser(m.parser), { ...m.opts, fingerprints: false }, m.displayCwd);
        reply(output, { type: 'ready', writesCodeCache: writesCodeCache() });
        continue;
      }
      if (!linter) continue;
      const result = linter.lintFile(m.path, m.display, m.stdinText, m.stdinPath);
      // The parent needs of the text only what code frames and fingerprints read.
      reply(output, { type: 'result', index: m.index, result: { ...result, source: framedSource(result.source, result.findings) } });
    }
    // The parent has every answer, and ends without waiting for this process (src/frontends/cli/lint-main.ts).
    // Its stderr is the parent's, and so the caller's: a caller that reads it through a pipe (a CI
    // runner, spawnSync) would wait for this process's exit too, so it is let go now; what is left
    // here writes nothing a reader needs.
    releaseStderr();
    // A child that will write the code cache as it exits first lints the training script
    // (./training.ts), so that the cache covers more than this run needed.
    if (linter) trainIfWritingCache(linter);
    return 0;
  } catch (err) {
    process.stderr.write(`bashguard: lint worker: ${(err as Error).message.split('\n')[0]}\n`);
    return 2;
  }
}
