/**
 * `bashguard lint [options] PATH...`: the action behind the command registered in
 * src/cli/extra-commands.ts. Returns the exit code: 0 no finding at or above --fail-on,
 * 1 findings, 2 usage or I/O error (a file that could not be read, an invalid configuration).
 */
import { resolve } from 'node:path';
import { UsageError, type IO } from '../cli/io.js';
import { getParser, type BackendChoice } from '../parse/index.js';
import { packageVersion } from '../util/package-root.js';
import type { Severity } from '../rules/catalog.js';
import { collectTargets, displayName } from './files.js';
import { Linter, SEVERITY_RANK, type FileResult } from './lint.js';
import { lintIsolated } from './isolated.js';
import { FORMATS, formatGithub, formatJson, formatSarif, formatText, summarize, summaryLine, type Format } from './format.js';

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
}


export async function runLint(paths: string[], opts: LintCliOptions, io: IO): Promise<number> {
  const t0 = performance.now();
  const format = (opts.format ?? 'text') as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')} (got ${opts.format})`);
  const failOn = opts.failOn ?? 'error';
  if (!['error', 'warning', 'info', 'none'].includes(failOn)) throw new UsageError(`--fail-on must be error, warning, info or none (got ${failOn})`);
  const parserChoice = opts.parser;
  if (parserChoice !== undefined && !['native', 'wasm', 'auto'].includes(parserChoice)) throw new UsageError(`--parser must be native, wasm or auto (got ${parserChoice})`);
  if (paths.length === 0) throw new UsageError('lint: give at least one PATH (a file, a directory, or - for stdin)');
  const limit = Number(opts.timeout ?? '0');
  if (!Number.isFinite(limit) || limit < 0) throw new UsageError(`--timeout takes a number of seconds, 0 for no limit (got ${opts.timeout})`);

  const root = opts.root ? resolve(io.cwd, opts.root) : undefined;
  // `--cwd script` starts each script in its own directory (test and helper scripts often assume it).
  const cwd = opts.cwd === 'script' ? 'script' : opts.cwd ? resolve(io.cwd, opts.cwd) : undefined;
  const parser = await getParser(parserChoice as BackendChoice | undefined);
  const linterOpts = { root, cwd, env: io.env, reportUnusedDirectives: Boolean(opts.reportUnusedDirectives) };
  const linter = new Linter(parser, linterOpts, io.cwd);

  const { targets, errors } = collectTargets(paths, io.cwd, (abs, isDir) => linter.isIgnored(abs, isDir));
  for (const e of errors) io.stderr(`bashguard: ${e}\n`);

  const stdinPath = opts.stdinFilename ? resolve(io.cwd, opts.stdinFilename) : undefined;
  const stdinText = targets.some((t) => t.path === '-') ? await io.readStdin() : undefined;
  const progress = (opts.progress ?? io.isTTY) && targets.length > 1;
  const jobs = targets.map((t) => ({ path: t.path, display: t.path === '-' && stdinPath ? displayName(stdinPath, io.cwd) : t.display, stdinText: t.path === '-' ? stdinText : undefined, stdinPath }));
  const onStart = (i: number) => {
    if (progress) io.stderr(`\r\x1b[K[${i + 1}/${targets.length}] ${targets[i]!.display.length > 70 ? '...' + targets[i]!.display.slice(-67) : targets[i]!.display}`);
  };
  let results: FileResult[];
  if (limit > 0 && jobs.length > 0) {
    results = await lintIsolated(jobs, { parser: parserChoice as BackendChoice | undefined, opts: linterOpts, displayCwd: io.cwd }, linter, limit, io.env, onStart);
  } else {
    results = jobs.map((j, i) => {
      onStart(i);
      return linter.lintFile(j.path, j.display, j.stdinText, j.stdinPath);
    });
  }
  if (progress) io.stderr('\r\x1b[K');

  const summary = summarize(results, performance.now() - t0);
  const color = opts.color ?? (io.isTTY && !io.env.NO_COLOR);
  switch (format) {
    case 'text':
      io.stdout(formatText(results, { color, frames: true }));
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
  }
  if (opts.summary !== false) {
    const line = summaryLine(summary);
    if (format === 'text') io.stdout(`${line}\n`);
    else io.stderr(`bashguard: ${line}\n`);
  }
  if (errors.length > 0 || summary.failed > 0) return 2;
  if (failOn === 'none') return 0;
  const threshold = SEVERITY_RANK[failOn as Severity];
  return results.some((r) => r.findings.some((f) => SEVERITY_RANK[f.severity] >= threshold)) ? 1 : 0;
}
