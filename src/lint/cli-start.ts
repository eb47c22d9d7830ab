/**
 * `bashguard lint`'s start-up entry (dist/lint-start.cjs, loaded by bin/bashguard.js when argv
 * starts with `lint`): the CLI as one CommonJS bundle (dist/lint-cli.cjs, built from
 * src/cli/main.ts like the ESM CLI, with all of its commands) loaded through the V8 code cache
 * (src/startup/code-cache.ts), as the hook's entry does. Node 20's ESM loader (one job per chunk,
 * builtins through synthetic modules) and compiling the CLI cost a lint run ~40 ms of CPU before
 * it reads a file; CI and pre-commit run lint once per commit, often on a few files.
 */
import { loadBundle } from '../startup/code-cache.js';

/** sha256 (hex, shortened) of dist/lint-cli.cjs, set by scripts/build.mjs. */
declare const __BG_LINT_CLI_KEY__: string;

export function startLint(): Promise<void> {
  const loaded = loadBundle(__dirname, 'lint-cli.cjs', `lintcli-${__BG_LINT_CLI_KEY__}`, require, 'code cache');
  return (loaded.exports as { main(): Promise<void> }).main();
}
