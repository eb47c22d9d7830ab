/**
 * The library API for in-process use (SDK orchestrators, tests): the same engine as the CLI.
 */
export { analyze, analyzeWith, parseScript, type AnalyzeOptions, type AnalysisResult } from './analyze.js';
export { getParser, type BashParser, type BackendChoice, DEFAULT_LIMITS, type ParseLimits } from './parse/index.js';
export { openWorkspace, workspaceFromLayout, Workspace, type WorkspaceOptions, type CommandCheck, type Region, type RegionKind } from './workspace/index.js';
export { evaluate, type Finding, type Verdict, type PolicyContext } from './policy/policy.js';
export { writeRootViolations, type WriteRootOptions } from './policy/write-roots.js';
export { parseConfig, DEFAULT_CONFIG, type Config, type Decision } from './policy/config.js';
export { loadTrustedConfig } from './workspace/config.js';
export { discoverLayout } from './layout/discover.js';
export type { Layout, Checkout } from './layout/types.js';
export type { Effect, WriteEffect, GitEffect, ProblemEffect, Evidence } from './effects/types.js';
export type { Confidence } from './effects/confidence.js';
export { RULES, resolveRuleRef } from './rules/catalog.js';
