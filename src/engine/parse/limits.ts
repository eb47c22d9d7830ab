/**
 * Hard limits of the parser layer. Each has a defined outcome (documented in docs/limits.md):
 * the command is reported as "could not analyze" and the hook asks (configurable), it is never
 * treated as safe.
 */
export interface ParseLimits {
  /** Largest input accepted, in UTF-16 code units (about bytes for ASCII). */
  maxInputChars: number;
  /** Deepest syntax tree accepted, in nodes from the root. */
  maxDepth: number;
  /**
   * Wall-clock budget for tree-sitter itself plus copying its tree, and the repairs' re-parses
   * (./recover.ts, ./isolate.ts), per BUDGET_CHARS of input (`budgetMs`).
   */
  timeoutMs: number;
}

export const DEFAULT_LIMITS: ParseLimits = {
  maxInputChars: 1024 * 1024,
  maxDepth: 400,
  timeoutMs: 1500,
};

/**
 * The input size `timeoutMs` is for. A parse of a larger input gets the budget once per this many
 * characters: the repairs of a 489 KB test script (socat's) re-parse it a few dozen times, and at
 * a flat 1.5 s they stopped at a point that moved with the machine's load. Small inputs (every
 * hook command) keep the flat budget, against the runaways of docs/limits.md.
 */
export const BUDGET_CHARS = 64 * 1024;

export function budgetMs(limits: ParseLimits, chars: number): number {
  return limits.timeoutMs * Math.max(1, chars / BUDGET_CHARS);
}
