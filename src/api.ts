/**
 * The library API for in-process use (SDK orchestrators, tests): the same engine as the CLI.
 */
export { analyze, analyzeWith, parseScript, type AnalyzeOptions, type AnalysisResult } from './analyze.js';
export { getParser, type BashParser, type BackendChoice, DEFAULT_LIMITS, type ParseLimits } from './parse/index.js';
export { checkCommand, checkPath, scopeFor, type Scope, type CommandCheck } from './guard.js';
export { evaluate, classify, regionsFor, type Finding, type Verdict, type PolicyContext } from './policy/policy.js';
export { writeRootViolations, type WriteRootOptions } from './policy/write-roots.js';
export { parseConfig, loadConfig, DEFAULT_CONFIG, type Config, type Decision } from './policy/config.js';
export { discoverLayout } from './layout/discover.js';
export type { Layout, Checkout } from './layout/types.js';
export type { Effect, WriteEffect, GitEffect, ProblemEffect, Evidence } from './effects/types.js';
export type { Confidence } from './effects/confidence.js';
export { RULES, resolveRuleRef } from './rules/catalog.js';
