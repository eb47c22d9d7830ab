/**
 * Entry of the lint child process (dist/lint-worker.cjs, started by ./spawn-worker.ts): a single
 * CommonJS file with only what analyzing files needs, so the child starts in a fraction of the
 * time the full CLI (ESM, commander, every command) takes. The exit code comes from runLintWorker.
 * Every reply is written synchronously, so the child ends as soon as its input does (its 'exit'
 * handlers still write the code cache), without Node's wind-down (see src/frontends/cli/hook-main.ts exitAfterHook).
 */
import { runLintWorker } from './worker.js';

void runLintWorker().then(
  (code) => process.exit(code),
  () => process.exit(2),
);
