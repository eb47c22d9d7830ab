/**
 * bashguard's library API: the stable, curated export list (`import { ... } from 'bashguard'`).
 * Importing it has no side effects: nothing is spawned, loaded or read until a function is called.
 * Nothing is read from `process.env`: every function that needs an environment takes `env`.
 *
 * Stable:
 * - `createGuard({ worktree, env })`: checkBash / checkPath / checkToolUse with the hook's decision,
 *   findings and reason, under a time limit that holds for a run-away parse (an analysis process);
 * - `bashguardHook({ worktree, env })` and `BASHGUARD_MATCHER`: the Claude Agent SDK PreToolUse callback.
 * Engine (for tools built on the analysis; shapes may grow): getParser, openWorkspace / Workspace,
 * analyzeWith, writeRootViolations, RULES, displayPath (effect paths hold U+0000 where a value is
 * unknown: print them through displayPath).
 */
export {
  createGuard,
  BashguardWorktreeError,
  type WorktreeProblem,
  DEFAULT_TIMEOUT_MS,
  type Guard,
  type GuardOptions,
  type GuardResult,
  type GuardDecision,
  type GuardFinding,
  type GuardEvidence,
  type CheckOptions,
} from './frontends/library/guard.js';
export type { ToolCall } from './frontends/tool-call.js';
export { bashguardHook, BASHGUARD_MATCHER, type AgentHookCallback, type AgentHookInput, type AgentHookOutput, type BashguardHookOptions } from './frontends/library/sdk.js';
export { ConfigError, type Config, type Decision } from './policy/config.js';
export type { Confidence } from './engine/effects/confidence.js';
export type { Severity } from './policy/rules/catalog.js';

// Engine
export { analyzeWith, type AnalyzeOptions, type AnalysisResult } from './engine/analyze.js';
export type { BashParser, BackendChoice } from './engine/parse/index.js';
import { getParser as loadParser, type BackendChoice, type BashParser } from './engine/parse/index.js';
/** The tree-sitter parser: "auto" (default: native, else the WASM build), "native" or "wasm". Loaded once per backend. */
export function getParser(backend: BackendChoice = 'auto'): Promise<BashParser> {
  return loadParser(backend);
}
export { openWorkspace, type Workspace, type WorkspaceOptions, type CommandCheck } from './policy/workspace/index.js';
export type { Env } from './policy/workspace/config.js';
export type { Finding, Verdict } from './policy/policy.js';
export { writeRootViolations, type WriteRootOptions } from './policy/write-roots.js';
export type { Effect, WriteEffect, GitEffect, GitWrite, RefSpace, FileState, ProblemEffect, Evidence } from './engine/effects/types.js';
export { RULES } from './policy/rules/catalog.js';
export { displayPath } from './engine/shell/paths.js';
