/**
 * `bashguard lint` and its hidden child command: registered by the full CLI (./extra-commands.ts)
 * and by lint's own entry (src/frontends/cli/lint-main.ts), which has no other command.
 */
import type { Command } from 'commander';
import type { IO } from '../io.js';
import { chosenFormat } from './format-option.js';

const collect = (v: string, prev: string[]): string[] => [...prev, v];

export function registerLint(program: Command, io: IO, setExit: (code: number) => void): void {
  program
    .command('lint')
    .description('lint shell scripts: writes outside their checkout, git commands on other checkouts (exit 0 clean, 1 findings, 2 error, 3 a file not fully analyzed)')
    .argument('<paths...>', 'files, directories (*.sh, *.bash, sh/bash shebangs), or - for stdin')
    .option('-f, --format <format>', 'text, json, sarif, github, gcc or checkstyle (default: text)')
    .option('--json', 'same as --format json')
    .option('--fail-on <severity>', 'lowest severity that makes the exit code 1: error, warning, info or none', 'error')
    .option('--min-confidence <confidence>', 'findings below it (certain, likely, possible) are reported as notes and never fail', 'likely')
    .option('--max-warnings <n>', 'exit 1 when there are more warnings than this')
    .option('-e, --exclude <rules>', 'rules to leave out (ids or names, comma-separated; repeatable)', collect, [] as string[])
    .option('-i, --include <rules>', 'report only these rules (ids or names, comma-separated; repeatable)', collect, [] as string[])
    .option('-S, --severity <severity>', 'report only findings of this severity or higher: error, warning or info', 'info')
    .option('--baseline <file>', 'accept the findings recorded in this baseline file; report only new ones')
    .option('--baseline-write <file>', 'record every current finding in this baseline file and exit 0')
    .option('--norc', 'read no configuration file (user, project or nested .bashguard.json)')
    .option('--root <dir>', 'the root writes must stay in (default: the git checkout containing each script)')
    .option('--cwd <dir>', 'the directory scripts start in (default: the root; `script`: each script\'s own directory)')
    .option('--report-unused-directives', 'report `# bashguard disable=` comments that suppress nothing (BG0004)')
    .option('--stdin-filename <path>', 'the path of the script read from stdin (for its root, $0 and messages)')
    .option('--color', 'colour the text output even when stdout is not a terminal')
    .option('--no-color', 'never colour the text output')
    .option('--progress', 'show progress on stderr even when stdout is not a terminal')
    .option('--no-progress', 'never show progress')
    .option('--no-summary', 'omit the summary line')
    .option('--parser <backend>', 'native, wasm or auto')
    .option('--timeout <seconds>', 'stop the analysis of a file after this long and report BG0002 for it (0: no limit, analyze in this process)', '60')
    .option('--max-steps <n>', 'interpreter steps per file before its analysis stops and it is reported as not fully analyzed (BG0002)', '400000')
    .option('--incomplete <level>', 'a file not fully analyzed (BG0002): error (exit 3 when nothing else fails), warn or ignore', 'error')
    .option('--source-path <dir>', 'a directory sourced files are looked for in when their own path is unknown (repeatable; as `# bashguard source-path=DIR`)', collect, [] as string[])
    .option('--var <name=value>', 'a variable\'s value where every script starts (repeatable; as `# bashguard var NAME=value`)', collect, [] as string[])
    .option('-q, --quiet', 'print only errors, and no summary line')
    .option('-o, --output-file <file>', 'write the report to this file instead of stdout')
    .option('--notes', 'text output: list every finding (default: errors and warnings, notes only counted)')
    .option('--prune-baseline', 'with --baseline: rewrite the baseline file without the entries no current finding matches')
    .option('--read-disk', 'answer file tests, `cd -P` and symlinks outside the checkout from this machine\'s disk (default: only the checkout is read)')
    .option('-j, --jobs <n>', 'child processes analyzing files at the same time (default: one process per 80 KiB of scripts, this one included, up to the number of CPUs and 4; one on a busy machine)')
    .action(async (paths: string[], opts: Record<string, unknown>) => {
      // --json is --format json; the format itself is checked by runLint (its own message).
      if (opts.json) opts.format = chosenFormat(opts as { format?: string; json?: boolean }, ['json'] as const, 'json');
      opts.format ??= 'text';
      delete opts.json;
      const { runLint } = await import('../lint/command.js');
      setExit(await runLint(paths, opts, io));
    });

  // The child process of `lint --timeout` (src/frontends/lint/isolated.ts): analyzes the files its parent
  // sends on its stdin, one at a time, and sends each result back (src/frontends/lint/spawn-worker.ts).
  program
    .command('__lint-worker', { hidden: true })
    .action(async () => {
      const { runLintWorker } = await import('../lint/worker.js');
      setExit(await runLintWorker());
    });
}
