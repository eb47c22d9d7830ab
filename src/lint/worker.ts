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
          linter = new Linter(await getParser(m.parser), m.opts, m.displayCwd);
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
