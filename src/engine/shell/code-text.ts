/**
 * Text that runs code when bash expands it. Where the analysis holds as text something bash
 * expands later (a prompt string for `${x@P}` or PS4 under `set -x`, an array subscript in a
 * value evaluated as arithmetic), this says whether there is code in it to run.
 */

/**
 * Whether `text` may run a command substitution when expanded: `$(` (also `$((`, whose operands
 * may hold one) or a backquote. Process substitution is not among them: in prompt strings and
 * array subscripts bash leaves `<(cmd)` and `>(cmd)` as text, cmd never runs (bash 5.2: a
 * subscript reports an arithmetic syntax error, a prompt prints the text).
 */
export function mayRunCommandSubstitution(text: string): boolean {
  return text.includes('$(') || text.includes('`');
}
