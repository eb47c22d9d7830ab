/**
 * Entry of the lint child process (dist/lint-worker.cjs, forked by ./isolated.ts): a single
 * CommonJS file with only what analyzing files needs, so the child starts in a fraction of the
 * time the full CLI (ESM, commander, every command) takes. The exit code comes from runLintWorker.
 */
import { runLintWorker } from './worker.js';

void runLintWorker().then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = 2;
  },
);
