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
  /** Wall-clock budget for tree-sitter itself plus copying its tree. */
  timeoutMs: number;
}

export const DEFAULT_LIMITS: ParseLimits = {
  maxInputChars: 1024 * 1024,
  maxDepth: 400,
  timeoutMs: 1500,
};
