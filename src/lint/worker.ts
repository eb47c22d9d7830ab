/** The child side of src/lint/isolated.ts. */
import { getParser } from '../parse/index.js';
import { Linter } from './lint.js';
import type { WorkerReply, WorkerRequest } from './isolated.js';

/**
 * Serves the parent's requests until it disconnects. Resolves with the exit code the process
 * should end with (library code never calls process.exit): 0 when the parent is done, 2 when the
 * parser cannot load (the channel is closed then, so the parent sees this process end and reports
 * it for the file it was on, instead of waiting for answers that never come).
 */
export function runLintWorker(): Promise<number> {
  return new Promise((resolve) => {
    let linter: Linter | null = null;
    let failed = false;
    let ready: Promise<void> = Promise.resolve();
    process.on('disconnect', () => resolve(failed ? 2 : 0));
    process.on('message', (m: WorkerRequest) => {
      ready = ready.then(async () => {
        if (failed) return;
        if (m.type === 'init') {
          try {
            linter = new Linter(await getParser(m.parser), { ...m.opts, fingerprints: false }, m.displayCwd);
          } catch (err) {
            process.stderr.write(`bashguard: lint worker: ${(err as Error).message.split('\n')[0]}\n`);
            failed = true;
            if (process.connected) process.disconnect();
            else resolve(2);
          }
          return;
        }
        if (!linter) return;
        const result = linter.lintFile(m.path, m.display, m.stdinText, m.stdinPath);
        const reply: WorkerReply = { type: 'result', index: m.index, result };
        process.send?.(reply);
      });
    });
  });
}
