/**
 * Runs corpus cases through the real engine against the standard scenario (docs/conventions.md),
 * the way the hook would decide them: in a linked worktree the worktree is enforced; in the main
 * checkout (a plain checkout) or outside any checkout the hook stays out of the way unless the
 * case's config says otherwise. Used by test/unit/frontends/corpus.test.ts and `bashguard corpus check|add`.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { BashParser } from '../../engine/parse/index.js';
import { analyzeWith } from '../../engine/analyze.js';
import { evaluate, type Finding, type Verdict } from '../../policy/policy.js';
import { DEFAULT_CONFIG } from '../../policy/config.js';
import { memoryFs, standardEnv, standardWorkspace, WORKTREE } from '../../policy/scenario/standard.js';
import { normalizeLogical } from '../../engine/shell/paths.js';
import type { WriteEffect } from '../../engine/effects/types.js';
import type { Decision } from '../../policy/config.js';
import { loadCorpusFile, type CorpusCase } from './schema.js';

export interface CaseResult {
  decision: Decision;
  findings: Finding[];
  /** Why the hook would not enforce here (plain checkout, outside any checkout), or null. */
  skipped: string | null;
}

const RANK = { possible: 0, likely: 1, certain: 2 } as const;

/** Decides one case as the hook would. */
export function runCase(parser: BashParser, c: Pick<CorpusCase, 'cmd' | 'cwd' | 'symlinks' | 'files' | 'env' | 'config' | 'tool'>): CaseResult {
  const cwd = c.cwd ?? WORKTREE;
  const config = c.config ?? DEFAULT_CONFIG;
  const fs = memoryFs(c.symlinks, c.files);
  const ws = standardWorkspace(fs, cwd, config);
  const skipped = ws.skipped;
  const verdict: Verdict = c.tool !== 'Bash' ? ws.judgeWrite(c.cmd, { tool: c.tool }).verdict : ws.check(parser, c.cmd, { env: c.env }).verdict;
  return { decision: verdict.decision, findings: verdict.findings, skipped };
}

/** What differs between a case's labels and the engine's result; empty when the case passes. */
export function compareCase(c: CorpusCase, r: CaseResult): string[] {
  const problems: string[] = [];
  if (r.decision !== c.expect) problems.push(`decision: expected ${c.expect}, got ${r.decision}`);
  const got = [...new Set(r.findings.map((f) => f.rule))].sort();
  if (c.rules) {
    const want = [...c.rules].sort();
    if (want.join(',') !== got.join(',')) problems.push(`rules: expected [${want.join(', ')}], got [${got.join(', ')}]`);
  } else if (c.expect === 'allow' && got.length > 0) {
    problems.push(`rules: expected no finding, got [${got.join(', ')}]`);
  }
  for (const ef of c.findings) {
    const match = r.findings.some((f) => f.rule === ef.rule && (ef.path === undefined || f.path === ef.path) && (ef.confidence === undefined || f.confidence === ef.confidence));
    if (!match) problems.push(`finding: expected {rule: ${ef.rule}${ef.path ? `, path: ${ef.path}` : ''}${ef.confidence ? `, confidence: ${ef.confidence}` : ''}}, not found`);
  }
  if (c.confidence) {
    const best = r.findings.reduce<Finding['confidence'] | null>((b, f) => (b === null || RANK[f.confidence] > RANK[b] ? f.confidence : b), null);
    if (best !== c.confidence) problems.push(`confidence: expected ${c.confidence}, got ${best ?? 'no finding'}`);
  }
  return problems;
}

/** Findings as readable lines: `BG1002 deny certain /home/dev/repo/x: message`. */
export function describeFindings(findings: Finding[]): string {
  if (findings.length === 0) return '    (no findings)';
  return findings.map((f) => `    ${f.rule} ${f.name} [${f.decision}, ${f.confidence}] ${f.path ?? '-'}\n      ${f.message}`).join('\n');
}

/** A readable failure report for one case. */
export function describeFailure(c: CorpusCase, r: CaseResult, problems: string[]): string {
  const want = [`expect: ${c.expect}`];
  if (c.rules) want.push(`rules: [${c.rules.join(', ')}]`);
  if (c.confidence) want.push(`confidence: ${c.confidence}`);
  for (const f of c.findings) want.push(`finding: ${JSON.stringify(f)}`);
  return [
    `${c.file}:${c.line}  ${c.cmd}${c.cwd ? `   (cwd ${c.cwd})` : ''}${c.tool !== 'Bash' ? `   (tool ${c.tool})` : ''}`,
    ...problems.map((p) => `  - ${p}`),
    `  expected: ${want.join('; ')}`,
    `  actual:   decision ${r.decision}${r.skipped ? ` (hook not enforcing: ${r.skipped})` : ''}`,
    describeFindings(r.findings),
  ].join('\n');
}

/** The corpus files under a directory, sorted. */
export function corpusFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort()
    .map((f) => join(dir, f));
}

/** Loads every case of the given files; file names in messages are relative to `base`. */
export function loadCorpus(files: string[], base: string): CorpusCase[] {
  return files.flatMap((f) => loadCorpusFile(f, relative(base, f) || f));
}
