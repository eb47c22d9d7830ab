/**
 * parse -> syntax -> interpret: the analysis of one command or script from a known cwd.
 * Pure given its inputs (the host is only asked about symlinks and sourced files).
 */
import { DEFAULT_LIMITS, getParser, type BashParser, type ParseLimits } from './parse/index.js';
import { buildScript } from './syntax/build.js';
import { pointFinder } from './parse/tree.js';
import type { Script } from './syntax/ir.js';
import { Interpreter, type Analysis, type Host } from './interpret/interpreter.js';
import type { Effect } from './effects/types.js';

export interface AnalyzeOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  host?: Host;
  limits?: Partial<ParseLimits>;
  gitToplevel?(dir: string): string | null;
  maxShellDepth?: number;
  /**
   * Wall-clock budget for the whole analysis, nested `eval`/`bash -c` parses included. Past it
   * the rest is an analysis limit (ask), so no input can keep the hook busy past its timeout.
   */
  budgetMs?: number;
  /**
   * Lint: no wall clock decides anything (no time budget, no parse timeout); the interpreter's
   * step budget (`maxSteps`) bounds the work instead, so a result never depends on the load.
   */
  deterministic?: boolean;
  /** Budget of interpreter steps (default: the interpreter's own). */
  maxSteps?: number;
  /** Lint: the script's path (effects in other files get an Origin) and every function analyzed. */
  file?: string;
  everyFunction?: boolean;
  sourceHints?: { at: Map<number, string>; dirs: string[] };
  /** The variables of `env` a condition may be decided on (AnalyzeContext#knownEnv). */
  knownEnv?: readonly string[];
  /** false: Analysis#commands stays empty (the traces `bashguard explain` shows; a decision needs none). */
  commandTraces?: boolean;
}

/** The default analysis budget: well under Claude Code's hook timeout (the install sets 30 s). */
export const DEFAULT_BUDGET_MS = 2000;

export interface AnalysisResult extends Analysis {
  script: Script | null;
  backend: 'native' | 'wasm';
}

const EMPTY_RANGE = { start: 0, end: 0, line: 1, column: 1, endLine: 1, endColumn: 1 };

export function parseScript(parser: BashParser, source: string, limits?: Partial<ParseLimits>): Script | { error: string; kind: string; at?: number } {
  const parsed = parser.parse(source, limits);
  if (!parsed.ok) return { error: parsed.message, kind: parsed.kind, ...(parsed.at !== undefined ? { at: parsed.at } : {}) };
  return buildScript(parsed);
}

/** The range of the line holding `at` (a parse failure about one place), else the input's start. */
function failureRange(source: string, at: number | undefined): Effect['range'] {
  if (at === undefined) return { ...EMPTY_RANGE, end: Math.min(source.length, 120) };
  const lineStart = source.lastIndexOf('\n', at - 1) + 1;
  const nl = source.indexOf('\n', at);
  const lineEnd = Math.min(nl < 0 ? source.length : nl, lineStart + 120);
  const { row, column } = pointFinder(source)(lineStart);
  const end = pointFinder(source)(Math.max(lineStart, lineEnd));
  return { start: lineStart, end: Math.max(lineStart, lineEnd), line: row + 1, column: column + 1, endLine: end.row + 1, endColumn: end.column + 1 };
}

/** Analyzes with an already-loaded parser (synchronous: the hook's hot path). */
export function analyzeWith(parser: BashParser, source: string, opts: AnalyzeOptions): AnalysisResult {
  const deadline = opts.deterministic ? Infinity : performance.now() + (opts.budgetMs ?? DEFAULT_BUDGET_MS);
  // Each parse gets what is left of the budget (and never more than its own parse limit).
  const limitsNow = (): Partial<ParseLimits> => {
    if (opts.deterministic) return { ...opts.limits, timeoutMs: Infinity };
    const timeoutMs = Math.max(1, Math.min(opts.limits?.timeoutMs ?? DEFAULT_LIMITS.timeoutMs, deadline - performance.now()));
    return opts.limits ? { ...opts.limits, timeoutMs } : { timeoutMs };
  };
  const script = parseScript(parser, source, limitsNow());
  if ('error' in script) {
    const range = failureRange(source, script.at);
    const effect: Effect = {
      kind: 'problem',
      category: script.kind === 'parser-error' ? 'syntax' : 'analysis-limit',
      reason: script.error,
      text: source.slice(range.start, range.end),
      range,
      via: [],
    };
    return { effects: [effect], timeline: [], commands: [], script: null, backend: parser.backend };
  }
  const interp = new Interpreter({
    cwd: opts.cwd,
    env: opts.env ?? {},
    host: opts.host,
    gitToplevel: opts.gitToplevel,
    maxShellDepth: opts.maxShellDepth,
    deadline: opts.deterministic ? undefined : deadline,
    maxSteps: opts.maxSteps,
    file: opts.file,
    everyFunction: opts.everyFunction,
    sourceHints: opts.sourceHints,
    knownEnv: opts.knownEnv,
    commandTraces: opts.commandTraces,
    parse: (src) => {
      if (performance.now() > deadline) return { error: 'analysis stopped at its time budget', limit: true };
      const s = parseScript(parser, src, limitsNow());
      return 'error' in s ? { error: s.error, limit: s.kind !== 'parser-error' } : s;
    },
  });
  const analysis = interp.run(script);
  // Written out: a spread of the result cost ~4% of a check.
  return { effects: analysis.effects, timeline: analysis.timeline, commands: analysis.commands, unreachable: analysis.unreachable, script, backend: parser.backend };
}

export async function analyze(source: string, opts: AnalyzeOptions, parser?: BashParser): Promise<AnalysisResult> {
  return analyzeWith(parser ?? (await getParser()), source, opts);
}
