/**
 * `bashguard lint`'s start-up entry (dist/lint-start.cjs, loaded by bin/bashguard.js when argv
 * starts with `lint`): the CLI's root program with only the lint command as one CommonJS bundle
 * (dist/lint-cli.cjs, built from ./cli-main.ts) loaded through the V8 code cache
 * (src/runtime/startup/code-cache.ts), as the hook's entry does. Node 20's ESM loader (one job per chunk,
 * builtins through synthetic modules) and compiling the CLI cost a lint run ~40 ms of CPU before
 * it reads a file, and the other commands' modules ~2 ms more (~5 ms for `lint --help`); CI and
 * pre-commit run lint once per commit, often on a few files.
 */
import { existsSync } from 'node:fs';
import { CODE_CACHE_REQUIRE_WARM_UP, loadStartBundle, v8FlagSetter, nativeIO } from '../../runtime/index.js';
import { analyzesInProcess, defaultWorkers, dropPrestarted, analyzersWithThisProcess, othersRunning, prestartCount, prestartWorkers, saturates, totalBytes, workerV8Flags, type WorkersFor } from './spawn-worker.js';
import { ISOLATE_ENV, offerRerun } from './rerun.js';

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
  const argv = process.argv.slice(3);
  // (The operands' sizes, for the share of work: a directory counts as 0 bytes here, and the
  // run decides again on the files it finds, starting a child then if it needs one.)
  const workers: WorkersFor = (files, operands) => defaultWorkers(files, undefined, (others ??= othersRunning()), totalBytes(operands));
  // By default this process analyzes too, in place of one of the children, and restarts itself
  // with children only if one of its files runs past the limit (./rerun.ts): the command line of
  // that restart is known only here.
  const analyzers = process.env[ISOLATE_ENV] ? 0 : analyzersWithThisProcess(argv, workers);
  const n = analyzers > 0 ? analyzers - 1 : prestartCount(argv, workers);
  if (n > 0 && existsSync(worker)) prestartWorkers(process.env, worker, n, others, saturates(Math.max(n, analyzers)));
  if (analyzers > 0) offerRerun(process.execPath, [process.argv0, ...process.execArgv, ...process.argv.slice(1)], process.env, others);
  // `--timeout 0`, or a run in which this process analyzes as above: this process then gets the
  // V8 flags a lint child gets (workerV8Flags), set before the CLI is compiled. V8 refuses code
  // cached under other flags, so the CLI's cache for such runs is a file of its own.
  const alone = analyzesInProcess(argv);
  const analyzesHere = alone || analyzers > 0;
  // The streams of stdout and stderr (the report goes through them) are made before V8's flags
  // change: Node's own modules behind them (node:stream, node:net for a pipe) come from Node's
  // embedded code cache only under the flags it was made with, and compile from source after.
  // Made after, they cost a one-file lint ~6 ms (CPU profile: `main` 8.0 against 2.3 ms). Until
  // now node:v8, loaded to set the flags, had brought node:stream in first; node:net still came
  // after (one file through pipes, medians of 40: 41.1 -> 39.3 ms with both changes).
  // (Not where the report is written through the addon, without the streams: src/frontends/io.ts directIO.)
  if (analyzesHere && !nativeIO()) void [process.stdout, process.stderr];
  const flags = alone ? setAnalysisFlags(false) : analyzers > 0 ? setAnalysisFlags(saturates(analyzers)) : '';
  // The cache of a run that analyzes here is written only after its training run (../lint/training.ts):
  // one that ended in a usage error first would have left a cache without the analysis.
  if (analyzesHere) (globalThis as Record<symbol, unknown>)[CODE_CACHE_REQUIRE_WARM_UP] = true;
  let streams = true;
  try {
    const loaded = loadStartBundle(__dirname, 'lint-cli.cjs', `lintcli-${__BG_LINT_CLI_KEY__}${flags}`, require, 'code cache');
    streams = (await (loaded.exports as { main(): Promise<{ streams: boolean }> }).main()).streams;
  } finally {
    // Children started here that the run did not take (a usage error, --help).
    dropPrestarted();
  }
  // The report is out. Ending here, as the hook does (src/frontends/cli/hook-main.ts), instead of letting Node wind
  // down saves this process's teardown and the wait for its children's exit: they have every
  // answer sent, their input ends with this process, and they let go of stderr first
  // (src/frontends/lint/worker.ts). 'exit' handlers (the code cache) still run. A report larger than the
  // pipe's buffer (64 KiB on Linux) is still being written when the run returns: the end waits
  // for it, not for everything else Node would wait for.
  // The bench's 50-file batches, caller reading stdout and stderr through pipes: ~8-20 ms per run.
  // (A report written through the addon is out whole already, and then the streams were never made.)
  if (streams) await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(process.exitCode);
}

/** Resolves once everything written to `stream` so far has been handed to the system (or failed). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.writableLength === 0) return Promise.resolve();
  // A write's callback runs after the writes queued before it (an error, EPIPE say, included).
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/**
 * Sets the lint child's V8 flags in this process (measured on the bench's 7 batches of 50
 * scripts with `--timeout 0`, Node 20: 3.05 -> 1.96 s of CPU, 2.04 -> 1.80 s wall). Returns the
 * suffix for the code cache key ('' when there are none for this V8, or they cannot be set).
 */
function setAnalysisFlags(saturated: boolean): string {
  const flags = workerV8Flags(process.versions.v8, saturated);
  if (flags.length === 0) return '';
  // (Another set of flags, another file.)
  const suffix = saturated && flags.length > workerV8Flags(process.versions.v8, false).length ? '-analysis-saturated' : '-analysis';
  try {
    // Through the v8 binding where Node still has it (src/runtime/startup/v8-flags.ts): node:v8 itself
    // costs this process ~2 ms (Node 20: 1.9-2.0 against 0.4 ms, node:stream comes with it).
    const set = v8FlagSetter();
    for (const f of flags) set(f);
  } catch {
    return '';
  }
  return suffix;
}
