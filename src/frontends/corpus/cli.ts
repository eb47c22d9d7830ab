/**
 * `bashguard corpus add` and `bashguard corpus check`: the corpus workflow outside vitest.
 * Cases run against the standard scenario (docs/conventions.md), not the machine's real layout.
 */
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { getParser } from '../../engine/parse/index.js';
import { UsageError, type IO } from '../io.js';
import { resolveRuleRef } from '../../policy/rules/catalog.js';
import { caseKey, casePath, CorpusError, parseCorpus, type CorpusCase, type Expect } from './schema.js';
import { compareCase, corpusFiles, describeFailure, loadCorpus, runCase } from './run.js';
import { findDuplicates } from './schema.js';
import { CLAUDE_WT, COMMON, HOME, MAIN, OUTSIDE, SIBLING, WORKTREE } from '../../policy/scenario/standard.js';

/** The directories of the standard scenario (docs/conventions.md): where a case can start. */
const SCENARIO_DIRS = new Set([
  '/', '/home', HOME, OUTSIDE, '/tmp', '/var', '/var/tmp', COMMON, `${MAIN}/.builders`, `${MAIN}/.claude`, `${MAIN}/.claude/worktrees`,
  ...[MAIN, WORKTREE, SIBLING, CLAUDE_WT].flatMap((r) => [r, `${r}/src`, `${r}/docs`]),
]);

/** A case the schema rejects, as the option that caused it: `--tool: must be one of ...`. */
function probeError(err: CorpusError): UsageError {
  const m = /^\(new case\):\d+: (\w+): (.*)$/.exec(err.message);
  if (!m) return new UsageError(err.message);
  const option = m[1] === 'cmd' ? 'the command' : `--${m[1]}`;
  return new UsageError(`${option}: ${m[2]}`);
}

/** The corpus directory: `corpus/` under the cwd or one of its parents. */
function findCorpusDir(cwd: string): string {
  let dir = cwd;
  for (;;) {
    const c = join(dir, 'corpus');
    if (existsSync(c) && statSync(c).isDirectory()) return c;
    const up = resolve(dir, '..');
    if (up === dir) throw new UsageError('no corpus/ directory here or above (give --file or FILE arguments)');
    dir = up;
  }
}

/** A YAML flow scalar: plain when safe, else double-quoted JSON (valid YAML). */
function yamlScalar(s: string): string {
  if (/^[A-Za-z0-9_./@+-][A-Za-z0-9_./@+ -]*$/.test(s) && !/\s$/.test(s) && !/^(true|false|null|yes|no|on|off|~)$/i.test(s) && !/^[-+]?[0-9.]/.test(s)) return s;
  return JSON.stringify(s);
}

export interface AddOptions {
  expect: string;
  file?: string;
  cwd?: string;
  tool?: string;
  note?: string;
}

export async function corpusAdd(io: IO, command: string, opts: AddOptions): Promise<number> {
  if (!['allow', 'ask', 'deny'].includes(opts.expect)) throw new UsageError(`--expect must be allow, ask or deny (got ${opts.expect})`);
  const file = opts.file ? resolve(io.cwd, opts.file) : join(findCorpusDir(io.cwd), 'added.yaml');
  const tool = opts.tool ?? 'Bash';
  if (opts.cwd !== undefined && !SCENARIO_DIRS.has(casePath(opts.cwd))) {
    throw new UsageError(`--cwd ${opts.cwd}: not a directory of the standard scenario (docs/conventions.md): use the worktree ${WORKTREE} (default), ${MAIN}, ${SIBLING}, ${OUTSIDE}, their src/ or docs/, /tmp ...`);
  }
  let probe: CorpusCase;
  try {
    probe = parseCorpus(`- ${JSON.stringify({ cmd: command, expect: opts.expect, ...(opts.cwd ? { cwd: opts.cwd } : {}), ...(tool !== 'Bash' ? { tool } : {}) })}`, '(new case)')[0]!;
  } catch (err) {
    if (err instanceof CorpusError) throw probeError(err);
    throw err;
  }
  if (existsSync(file)) {
    const dup = parseCorpus(readFileSync(file, 'utf8'), opts.file ?? file).find((c) => caseKey(c) === caseKey(probe));
    if (dup) throw new UsageError(`${dup.file}:${dup.line} already has this case`);
  }
  const parser = await getParser();
  const r = runCase(parser, probe);
  const rules = [...new Set(r.findings.map((f) => f.rule))];
  const fields = [`cmd: ${yamlScalar(command)}`];
  if (tool !== 'Bash') fields.push(`tool: ${tool}`);
  if (opts.cwd) fields.push(`cwd: ${yamlScalar(opts.cwd)}`);
  fields.push(`expect: ${opts.expect}`);
  if (rules.length === 1) fields.push(`rule: ${rules[0]}`);
  else if (rules.length > 1) fields.push(`rules: [${rules.join(', ')}]`);
  if (opts.note) fields.push(`note: ${yamlScalar(opts.note)}`);
  const line = `- {${fields.join(', ')}}\n`;
  let prefix = '';
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8');
    if (text.length > 0 && !text.endsWith('\n')) prefix = '\n';
  }
  appendFileSync(file, prefix + line);
  // Re-validate the whole file so a bad append is caught at once.
  const all = parseCorpus(readFileSync(file, 'utf8'), opts.file ?? file);
  const added = all[all.length - 1]!;
  io.stdout(`added to ${opts.file ?? file}:${added.line}\n  ${line.trim()}\n`);
  if (r.decision !== opts.expect) {
    io.stdout(`note: bashguard currently decides ${r.decision}, not ${opts.expect}: the case fails until the engine (or the label) is fixed\n`);
  }
  io.stdout(`review the rule(s) above: they are what bashguard finds now${rules.length === 0 ? ' (none)' : ''}\n`);
  return 0;
}

export async function corpusCheck(io: IO, files: string[], opts: { verbose?: boolean }): Promise<number> {
  let paths: string[];
  let base: string;
  if (files.length === 0) {
    const dir = findCorpusDir(io.cwd);
    paths = corpusFiles(dir);
    base = resolve(dir, '..');
  } else {
    paths = files.map((f) => (isAbsolute(f) ? f : resolve(io.cwd, f)));
    base = io.cwd;
  }
  let cases: CorpusCase[];
  try {
    cases = loadCorpus(paths, base);
  } catch (err) {
    // A file that cannot be read is a usage error (exit 2); an invalid case fails the check (exit 1).
    const e = err as NodeJS.ErrnoException;
    if (e.code && e.path) throw new UsageError(`cannot read ${e.path}: ${e.code === 'ENOENT' ? 'no such file' : e.code}`);
    if (err instanceof CorpusError) throw new UsageError(e.message, 1);
    throw err;
  }
  const parser = await getParser();
  let failed = 0;
  for (const c of cases) {
    const r = runCase(parser, c);
    const problems = compareCase(c, r);
    if (problems.length > 0) {
      failed++;
      io.stdout(`FAIL ${describeFailure(c, r, problems)}\n\n`);
    } else if (opts.verbose) io.stdout(`pass ${c.file}:${c.line} ${c.cmd.replace(/\n/g, '\\n')}\n`);
  }
  const dups = findDuplicates(cases);
  for (const d of dups) io.stdout(`DUPLICATE ${d}\n`);
  io.stdout(`${cases.length - failed} passed, ${failed} failed${dups.length ? `, ${dups.length} duplicates` : ''} (${cases.length} cases in ${paths.length} files)\n`);
  return failed > 0 || dups.length > 0 ? 1 : 0;
}

export { casePath, resolveRuleRef, type Expect };
