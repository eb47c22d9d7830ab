/**
 * An allow from the Claude Code hook: nothing on stdout, or (with the OS enforcement of allowed
 * calls, src/layers/sandbox/enforce.ts) `permissionDecision: "allow"` with the command replaced by the
 * wrapped one, which still runs the original command.
 */
export function isAllowOutput(stdout: string, command?: string): boolean {
  if (stdout.trim() === '') return true;
  try {
    const h = (JSON.parse(stdout) as { hookSpecificOutput?: { permissionDecision?: string; updatedInput?: { command?: unknown } } }).hookSpecificOutput;
    if (h?.permissionDecision !== 'allow' || typeof h.updatedInput?.command !== 'string') return false;
    // (A command without single quotes appears as it is in the wrapper.)
    return command === undefined || h.updatedInput.command.includes(command);
  } catch {
    return false;
  }
}
