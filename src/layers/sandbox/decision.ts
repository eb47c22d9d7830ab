/**
 * The `sandbox` decision (issue #14): instead of asking about a command static analysis cannot
 * decide, run it inside `bashguard sandbox run`, so whatever it does, it cannot write outside the
 * worktree. Client-neutral: this module only builds the wrapped command line, or says why the
 * command cannot be sandboxed here; each hook client renders it (Claude Code: allow with
 * `updatedInput.command`) or falls back to ask.
 */
import type { Workspace } from '../../policy/workspace/index.js';
import { packagePath } from '../../util/package-root.js';
import { bwrapAvailable } from './run.js';
import { shellJoin, shellQuote } from '../../util/quote.js';

export type SandboxWrap = { ok: true; command: string } | { ok: false; reason: string };

/** How the wrapped command calls bashguard: this node and this package's CLI, by absolute path. */
export function bashguardCommand(): string[] {
  return [process.execPath, packagePath('bin', 'bashguard.js')];
}

/**
 * The command line that runs the bash `command` in the sandbox of the worktree `root`, from the
 * shell's current directory: `<bashguard> sandbox run -C <root> -- bash -c '<command>'`. Every
 * word is single-quoted (see shellQuote), so the original reaches `bash -c` byte for byte.
 */
export function wrapInSandbox(command: string, root: string, bashguard: readonly string[] = bashguardCommand()): string {
  return `${shellJoin(bashguard)} sandbox run -C ${shellQuote(root)} -- bash -c ${shellQuote(command)}`;
}

/** Whether this command can be sandboxed for this workspace here, and the wrapped command if so. */
export function sandboxDecision(ws: Workspace, command: string, env: Record<string, string | undefined>, bashguard?: readonly string[]): SandboxWrap {
  if (!ws.root || !ws.layout) return { ok: false, reason: 'there is no worktree to confine it to' };
  if (command.includes('\0')) return { ok: false, reason: 'the command contains a NUL byte, which cannot be passed to bash -c' };
  const avail = bwrapAvailable(env);
  if (!avail.ok) return { ok: false, reason: avail.reason };
  return { ok: true, command: wrapInSandbox(command, ws.root, bashguard) };
}
