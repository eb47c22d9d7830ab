/**
 * `bashguard lint [options] PATH...`: the action behind the command registered in
 * src/frontends/cli/extra-commands.ts. Returns the exit code: 0 no finding at or above --fail-on,
 * 1 findings, 2 usage or I/O error (a file that could not be read, an invalid configuration).
 */
import { statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, type IO } from '../io.js';
import { getParser, useDenseParseTable, type BackendChoice } from '../../engine/parse/index.js';
import { packageVersion } from '../../util/package-root.js';
import type { Severity } from '../../policy/rules/catalog.js';
import { collectTargets, displayName } from './files.js';
import { LINT_DEFAULT_STEPS, LINT_OFF_BY_DEFAULT, Linter, regroup, SEVERITY_RANK, type FileResult } from './lint.js';
import { defaultWorkers, jobSizes, lintIsolated } from './isolated.js';
import { othersBeforePrestart } from './spawn-worker.js';
import { offeredOthers, prepareRerun } from './rerun.js';
import { trainIfWritingCache } from './training.js';
import { FORMATS, formatCheckstyle, formatGcc, formatGithub, formatJson, formatSarif, formatText, summarize, summaryLine, type Format } from './format.js';
import { pruneBaseline, readBaseline, ruleList, select, writeBaseline } from './select.js';
import type { Confidence } from '../../engine/effects/confidence.js';

/** A directory option must name a directory that exists (a typo would silently change the root). */
function existingDir(io: IO, flag: string, value: string): string {
  const abs = resolve(io.cwd, value);
  let isDir = false;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    throw new UsageError(`${flag} ${value}: no such directory`);
  }
  if (!isDir) throw new UsageError(`${flag} ${value}: not a directory`);
  return abs;
}

export interface LintCliOptions {
  format?: string;
  failOn?: string;
  root?: string;
  cwd?: string;
  reportUnusedDirectives?: boolean;
  stdinFilename?: string;
  color?: boolean;
  progress?: boolean;
  summary?: boolean;
  parser?: string;
  timeout?: string;
  jobs?: string;
  minConfidence?: string;
  maxWarnings?: string;
  baseline?: string;
  baselineWrite?: string;
  exclude?: string[];
  include?: string[];
  severity?: string;
  norc?: boolean;
  maxSteps?: string;
  incomplete?: string;
  readDisk?: boolean;
  sourcePath?: string[];
  var?: string[];
  quiet?: boolean;
  outputFile?: string;
  notes?: boolean;
  pruneBaseline?: boolean;
}

/** Exit code of a run whose only failure is a file that was not fully analyzed (`--incomplete error`). */
export const EXIT_INCOMPLETE = 3;


export async function runLint(paths: string[], opts: LintCliOptions, io0: IO): Promise<number> {
  // `-o FILE`: the report goes to the file, written once at the end (progress and errors stay on stderr).
  let report = '';
  const io: IO = opts.outputFile ? { ...io0, stdout: (t) => void (report += t), isTTY: false } : io0;
  const code = await lintRun(paths, opts, io);
  if (opts.outputFile) {
    try {
      writeFileSync(resolve(io0.cwd, opts.outputFile), report);
    } catch (err) {
      throw new UsageError(`--output-file ${opts.outputFile}: cannot write (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }
  return code;
}

async function lintRun(paths: string[], opts: LintCliOptions, io: IO): Promise<number> {
  const t0 = performance.now();
  const { format, failOn, parserChoice, limit, workers, maxSteps, incomplete, minConfidence, minSeverity, maxWarnings, vars, include, exclude, baseline } = lintSettings(paths, opts, io);

  const root = opts.root ? existingDir(io, '--root', opts.root) : undefined;
  // `--cwd script` starts each script in its own directory (test and helper scripts often assume it).
  const cwd = opts.cwd === 'script' ? 'script' : opts.cwd ? existingDir(io, '--cwd', opts.cwd) : undefined;
  // With a time limit the files are analyzed in child processes (./isolated.ts), which load the
  // parser themselves: this process then loads none (two dlopens and a check parse, ~2 ms of CPU
  // per run), unless --parser names one, which is checked here and reported once.
  const isolated = limit > 0;
  // Lint parses whole scripts: the native parser's dense table, where it parses (here or there).
  useDenseParseTable();
  const parser = isolated && parserChoice === undefined ? null : await getParser(parserChoice as BackendChoice | undefined);
  const linterOpts = { root, cwd, env: io.env, reportUnusedDirectives: Boolean(opts.reportUnusedDirectives), noConfig: Boolean(opts.norc), maxSteps, readDisk: Boolean(opts.readDisk), sourcePath: (opts.sourcePath ?? []).map((d) => existingDir(io, '--source-path', d)), vars, optIn: [...(include ?? [])].filter((r) => LINT_OFF_BY_DEFAULT.has(r)) };
  const linter = new Linter(parser, linterOpts, io.cwd);

  const { targets, errors } = collectTargets(paths, io.cwd, (abs, isDir) => linter.isIgnored(abs, isDir));
  for (const e of errors) io.stderr(`bashguard: ${e}\n`);
  // Nothing readable was named: the errors above are the whole answer (no "0 files linted" report),
  // except in the formats a CI tool reads its errors from.
  if (targets.length === 0 && errors.length > 0 && format !== 'sarif' && format !== 'github') return 2;
  if (targets.length === 0 && errors.length === 0) {
    // As ESLint and ShellCheck: nothing to lint is an error, not a clean run.
    throw new UsageError(`lint: no shell scripts found in ${paths.join(' ')} (*.sh, *.bash, or a sh/bash shebang; or all of them are ignored)`);
  }

  const stdinPath = opts.stdinFilename ? resolve(io.cwd, opts.stdinFilename) : undefined;
  const stdinText = targets.some((t) => t.path === '-') ? await io.readStdin() : undefined;
  const progress = (opts.progress ?? io.isTTY) && targets.length > 1;
  const jobs = targets.map((t) => ({ path: t.path, display: t.path === '-' && stdinPath ? displayName(stdinPath, io.cwd) : t.display, stdinText: t.path === '-' ? stdinText : undefined, stdinPath }));
  // Counts files started (the children take them largest first, not in order).
  let started = 0;
  const onStart = (i: number) => {
    started++;
    if (progress) io.stderr(`\r\x1b[K[${started}/${targets.length}] ${targets[i]!.display.length > 70 ? '...' + targets[i]!.display.slice(-67) : targets[i]!.display}`);
  };
  let results: FileResult[];
  // (The files' bytes count as work; stdin, which never goes to this process's share, as none.)
  const sizes = jobSizes(jobs);
  const bytes = sizes.reduce((sum, n, i) => (jobs[i]!.stdinText === undefined ? sum + n : sum), 0);
  const children = workers ?? defaultWorkers(jobs.length, undefined, othersBeforePrestart() ?? offeredOthers() ?? undefined, bytes);
  // By default this process analyzes too, in place of one of the children, under the kernel's
  // timer (./rerun.ts), when the executable's entry offered the restart that timer needs.
  const rerun = limit > 0 && workers === null && stdinText === undefined && jobs.length > 0 ? prepareRerun(limit) : null;
  if (limit === 0 || rerun !== null) {
    if (!linter.hasParser()) linter.useParser(await getParser(parserChoice as BackendChoice | undefined));
  }
  const init = { parser: parserChoice as BackendChoice | undefined, opts: linterOpts, displayCwd: io.cwd };
  if (rerun !== null && children > 1) {
    const own = { lint: (i: number) => linter.lintFile(jobs[i]!.path, jobs[i]!.display), arm: rerun.arm, disarm: rerun.disarm };
    results = await lintIsolated(jobs, init, linter, limit, io.env, onStart, children - 1, own, sizes);
    trainIfWritingCache(linter);
  } else if (limit > 0 && rerun === null) {
    results = await lintIsolated(jobs, init, linter, limit, io.env, onStart, children, null, sizes);
  } else {
    results = jobs.map((j, i) => {
      onStart(i);
      rerun?.arm();
      const r = linter.lintFile(j.path, j.display, j.stdinText, j.stdinPath);
      rerun?.disarm();
      return r;
    });
    trainIfWritingCache(linter);
  }
  if (progress) io.stderr('\r\x1b[K');
  results = regroup(results, io.cwd);
  // A file not fully analyzed is a fact about the run, not a guess: never demoted by
  // --min-confidence; its severity is --incomplete's.
  const incompleteSeverity: Severity = incomplete === 'error' ? 'error' : incomplete === 'warn' ? 'warning' : 'info';
  for (const r of results) {
    r.findings = r.findings.map((f) => (f.rule === 'BG0002' ? { ...f, confidence: 'certain', severity: incompleteSeverity } : f));
  }

  if (opts.baselineWrite) {
    const { results: all } = select(results, { minConfidence, include, exclude, minSeverity: 'info', baseline: null });
    const n = writeBaseline(resolve(io.cwd, opts.baselineWrite), all);
    io.stderr(`bashguard: wrote ${n} finding${n === 1 ? '' : 's'} to the baseline ${opts.baselineWrite}; later runs with --baseline ${opts.baselineWrite} report only new ones\n`);
    return errors.length > 0 || all.some((r) => r.error) ? 2 : 0;
  }
  const selected = select(results, { minConfidence, include, exclude, minSeverity, baseline });
  if (opts.pruneBaseline && opts.baseline) {
    const { kept, dropped } = pruneBaseline(resolve(io.cwd, opts.baseline), selected.matched);
    io.stderr(`bashguard: pruned the baseline ${opts.baseline}: ${dropped} stale entr${dropped === 1 ? 'y' : 'ies'} removed, ${kept} kept\n`);
  }
  results = selected.results;
  const summary = { ...summarize(results, performance.now() - t0), baselined: selected.baselined };
  const color = opts.color ?? (io.isTTY && !io.env.NO_COLOR);
  printReport(format, results, summary, errors, color, opts, io);
  if (opts.summary !== false && !opts.quiet) {
    const line = summaryLine(summary);
    if (format === 'text' || format === 'gcc') io.stdout(`${line}\n`);
    else io.stderr(`bashguard: ${line}\n`);
  }
  if (errors.length > 0 || summary.failed > 0) return 2;
  if (maxWarnings >= 0 && summary.warnings > maxWarnings) {
    io.stderr(`bashguard: ${summary.warnings} warnings, more than --max-warnings ${maxWarnings}\n`);
    return 1;
  }
  const notFull = incomplete === 'error' && results.some((r) => r.findings.some((f) => f.rule === 'BG0002'));
  if (failOn === 'none') return notFull ? EXIT_INCOMPLETE : 0;
  const threshold = SEVERITY_RANK[failOn as Severity];
  if (results.some((r) => r.findings.some((f) => f.rule !== 'BG0002' && SEVERITY_RANK[f.severity] >= threshold))) return 1;
  return notFull ? EXIT_INCOMPLETE : 0;
}

/** The options checked (a usage error names the first wrong one) and given their defaults. */
function lintSettings(paths: string[], opts: LintCliOptions, io: IO) {
  const format = (opts.format ?? 'text') as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')} (got ${opts.format})`);
  const failOn = opts.failOn ?? 'error';
  if (!['error', 'warning', 'info', 'none'].includes(failOn)) throw new UsageError(`--fail-on must be error, warning, info or none (got ${failOn})`);
  const parserChoice = opts.parser;
  if (parserChoice !== undefined && !['native', 'wasm', 'auto'].includes(parserChoice)) throw new UsageError(`--parser must be native, wasm or auto (got ${parserChoice})`);
  if (paths.length === 0) throw new UsageError('lint: give at least one PATH (a file, a directory, or - for stdin)');
  const limit = Number(opts.timeout ?? '0');
  if (!Number.isFinite(limit) || limit < 0) throw new UsageError(`--timeout takes a number of seconds, 0 for no limit (got ${opts.timeout})`);
  const workers = opts.jobs === undefined ? null : Number(opts.jobs);
  if (workers !== null && (!Number.isInteger(workers) || workers < 1)) throw new UsageError(`--jobs takes a whole number of processes, 1 or more (got ${opts.jobs})`);

  const maxSteps = Number(opts.maxSteps ?? LINT_DEFAULT_STEPS);
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new UsageError(`--max-steps takes a whole number of steps, 1 or more (got ${opts.maxSteps})`);
  const incomplete = opts.incomplete ?? 'error';
  if (!['error', 'warn', 'ignore'].includes(incomplete)) throw new UsageError(`--incomplete must be error, warn or ignore (got ${opts.incomplete})`);
  const minConfidence = (opts.minConfidence ?? 'likely') as Confidence;
  if (!['certain', 'likely', 'possible'].includes(minConfidence)) throw new UsageError(`--min-confidence must be certain, likely or possible (got ${opts.minConfidence})`);
  const minSeverity = (opts.quiet ? 'error' : opts.severity ?? 'info') as Severity;
  if (!['error', 'warning', 'info'].includes(minSeverity)) throw new UsageError(`--severity must be error, warning or info (got ${opts.severity})`);
  const maxWarnings = opts.maxWarnings === undefined ? -1 : Number(opts.maxWarnings);
  if (!Number.isInteger(maxWarnings) || maxWarnings < -1) throw new UsageError(`--max-warnings takes a whole number (got ${opts.maxWarnings})`);
  if (opts.pruneBaseline && !opts.baseline) throw new UsageError('--prune-baseline needs --baseline FILE');
  const vars: Record<string, string> = {};
  for (const v of opts.var ?? []) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(v);
    if (!m) throw new UsageError(`--var takes NAME=VALUE (got ${v})`);
    vars[m[1]!] = m[2]!;
  }
  if (opts.baseline && opts.baselineWrite) throw new UsageError('--baseline and --baseline-write cannot be used together');
  const include = ruleList(opts.include, '--include');
  const exclude = ruleList(opts.exclude, '--exclude') ?? new Set();
  const baseline = opts.baseline ? readBaseline(resolve(io.cwd, opts.baseline)) : null;

  return { format, failOn, parserChoice, limit, workers, maxSteps, incomplete, minConfidence, minSeverity, maxWarnings, vars, include, exclude, baseline };
}

/** The report in `format` on stdout. */
function printReport(format: Format, results: FileResult[], summary: Parameters<typeof formatJson>[1], errors: string[], color: boolean, opts: LintCliOptions, io: IO): void {
  switch (format) {
    case 'text':
      io.stdout(formatText(results, { color, frames: true, notes: Boolean(opts.notes) }));
      break;
    case 'json':
      io.stdout(formatJson(results, summary, packageVersion()));
      break;
    case 'sarif':
      io.stdout(formatSarif(results, { cwd: io.cwd, version: packageVersion(), notifications: errors }));
      break;
    case 'github':
      io.stdout(formatGithub(results));
      for (const e of errors) io.stdout(`::error title=bashguard::${e.replace(/%/g, '%25').replace(/\n/g, '%0A')}\n`);
      break;
    case 'gcc':
      io.stdout(formatGcc(results));
      break;
    case 'checkstyle':
      io.stdout(formatCheckstyle(results));
      break;
  }
}
