/** The child side of src/lint/isolated.ts. */
import { getParser } from '../parse/index.js';
import { Linter } from './lint.js';
import type { WorkerReply, WorkerRequest } from './isolated.js';

export function runLintWorker(): Promise<void> {
  return new Promise((resolve) => {
    let linter: Linter | null = null;
    let ready: Promise<void> = Promise.resolve();
    process.on('disconnect', () => resolve());
    process.on('message', (m: WorkerRequest) => {
      ready = ready.then(async () => {
        if (m.type === 'init') {
          try {
            linter = new Linter(await getParser(m.parser), m.opts, m.displayCwd);
          } catch (err) {
            // Never idle without a parser: the parent reports the exit for the file it was on.
            process.stderr.write(`bashguard: lint worker: ${(err as Error).message.split('\n')[0]}\n`);
            process.exit(2);
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
