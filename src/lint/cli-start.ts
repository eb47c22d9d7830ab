/**
 * `bashguard lint`'s start-up entry (dist/lint-start.cjs, loaded by bin/bashguard.js when argv
 * starts with `lint`): the CLI as one CommonJS bundle (dist/lint-cli.cjs, built from
 * src/cli/main.ts like the ESM CLI, with all of its commands) loaded through the V8 code cache
 * (src/startup/code-cache.ts), as the hook's entry does. Node 20's ESM loader (one job per chunk,
 * builtins through synthetic modules) and compiling the CLI cost a lint run ~40 ms of CPU before
 * it reads a file; CI and pre-commit run lint once per commit, often on a few files.
 */
import { existsSync } from 'node:fs';
import { loadBundle } from '../startup/code-cache.js';
import { defaultWorkers, dropPrestarted, othersRunning, prestartCount, prestartWorkers } from './spawn-worker.js';

/** sha256 (hex, shortened) of dist/lint-cli.cjs, set by scripts/build.mjs. */
declare const __BG_LINT_CLI_KEY__: string;

export async function startLint(): Promise<void> {
  // The analysis children start now and boot while this process loads the CLI (~30 ms of wall
  // time per run on a 2-core machine); ./isolated.ts takes them. Those the run does not use are
  // ended when the run is.
  const worker = `${__dirname}/lint-worker-start.cjs`;
  // The run queue is read only when the default number of children is wanted (not for --help,
  // --timeout 0 or --jobs N), and before any child starts.
  let others: number | null = null;
  const n = prestartCount(process.argv.slice(3), (files) => defaultWorkers(files, undefined, (others ??= othersRunning())));
  if (n > 0 && existsSync(worker)) prestartWorkers(process.env, worker, n, others);
  try {
    const loaded = loadBundle(__dirname, 'lint-cli.cjs', `lintcli-${__BG_LINT_CLI_KEY__}`, require, 'code cache');
    await (loaded.exports as { main(): Promise<void> }).main();
  } finally {
    dropPrestarted();
  }
}
