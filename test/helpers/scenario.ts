/**
 * Runs commands against the standard scenario (docs/conventions.md) in memory: the same engine
 * the hook uses, with the layout as data and declared symlinks in a memory file system.
 */
import { getParser, type BashParser } from '../../src/engine/parse/index.js';
import { analyzeWith, type AnalysisResult } from '../../src/engine/analyze.js';
import { evaluate, type Verdict } from '../../src/policy/policy.js';
import { memoryFs, standardEnv, standardPolicy, WORKTREE } from '../../src/policy/scenario/standard.js';
import { DEFAULT_CONFIG, type Config } from '../../src/policy/config.js';

export interface ScenarioRun {
  analysis: AnalysisResult;
  verdict: Verdict;
}

export function runScenario(
  parser: BashParser,
  cmd: string,
  opts: { cwd?: string; symlinks?: Record<string, string>; files?: Record<string, string>; config?: Config; env?: Record<string, string>; lint?: boolean } = {},
): ScenarioRun {
  const cwd = opts.cwd ?? WORKTREE;
  const fs = memoryFs(opts.symlinks ?? {}, opts.files ?? {});
  // `lint`: as lint analyzes a file (every function, no variable of the environment known, unreachable regions).
  const lint = opts.lint ? { everyFunction: true, knownEnv: Object.keys(opts.env ?? {}) } : {};
  const analysis = analyzeWith(parser, cmd, { cwd, env: { ...standardEnv(cwd), ...opts.env }, host: fs, gitToplevel: () => null, ...lint });
  const policy = standardPolicy(fs, cwd, opts.config ?? DEFAULT_CONFIG);
  const verdict: Verdict = policy ? evaluate(analysis.effects, policy) : { decision: 'allow', findings: [] };
  return { analysis, verdict };
}

export { getParser };
