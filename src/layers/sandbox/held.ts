/**
 * A wrapped command that first looks at where it runs. Inside another OS sandbox (Codex's own,
 * Claude Code's) a second one cannot start: bubblewrap cannot map its uid or mount its /proc there,
 * and macOS refuses a second Seatbelt profile ("sandbox-exec: sandbox_apply: Operation not permitted",
 * exit 71: Seatbelt does not nest). Where every path the wrapper keeps read-only outside the
 * worktree is already unwritable AND the sandbox program cannot start, the command runs as the
 * client runs it, held by the sandbox around it; anywhere else the wrapper runs, and where the
 * sandbox program fails there, the command fails with its message, never unconfined.
 */
import { afterDefinition, commandDefinition, shellJoin, shellQuote } from '../../util/quote.js';

export interface Held {
  /** Paths outside the worktree the wrapper keeps read-only. */
  readOnly: readonly string[];
  /** A command that succeeds where the wrapper's sandbox can start. */
  probe: readonly string[];
}

export function heldOrWrapped(original: string, wrapped: string, held: Held): string {
  if (held.readOnly.length === 0) return wrapped;
  const writable = held.readOnly.map((p) => `[ -w ${shellQuote(p)} ]`).join(' || ');
  // (`wrapped` starts with the command's definition: the command appears once)
  return `${commandDefinition(original)}if ! { ${writable}; } && ! ${shellJoin([...held.probe])} </dev/null >/dev/null 2>&1; then eval "$__bg_c"; else ${afterDefinition(original, wrapped)}; fi`;
}
