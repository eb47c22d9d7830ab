/**
 * OpenAI Codex CLI: PreToolUse hooks in `$CODEX_HOME/hooks.json` (default `~/.codex/hooks.json`)
 * or `<repo>/.codex/hooks.json` (trusted projects only; unmanaged hooks need review). The hook
 * runs with Codex's environment, so CODEX_HOME there names the home to protect
 * (src/policy/workspace/workspace.ts CODEX_HOME_CONTROL, src/layers/sandbox/enforce.ts).
 * Sources: developers.openai.com/codex/hooks; openai/codex PR #18391 (apply_patch emits
 * PreToolUse); openai/codex issue #18491; the shipped `@openai/codex` schemas (hook input
 * `session_id, turn_id, transcript_path, cwd, model, permission_mode, tool_name, tool_input,
 * tool_use_id`). Codex normalizes its shell tools to `tool_name: "Bash"` with
 * `tool_input.command`; `apply_patch` arrives with `tool_input.command` holding the raw patch,
 * whose `*** Add File:`, `*** Update File:`, `*** Delete File:` and `*** Move to:` lines name
 * every path it touches (each is checked).
 * Output: Claude's `hookSpecificOutput` with `permissionDecision: "deny"` (a reason is required),
 * or exit 2 with the reason on stderr. `ask` (and a bare `allow`) are "unsupported" and FAIL OPEN,
 * so every ask is rendered as a deny that says so; allow prints nothing. Checked against the
 * 0.169.0 binary (its messages "PreToolUse hook returned unsupported permissionDecision:ask",
 * "... permissionDecision:deny without a non-empty permissionDecisionReason") and in
 * test/system/e2e/codex-hook.e2e.test.ts (exec_command arrives as Bash; a deny blocks it on disk).
 *
 * Replacing the command (the OS enforcement of every allowed call, issue #38): Codex runs the
 * command of `{"permissionDecision": "allow", "updatedInput": {"command": ...}}` instead of the
 * model's `cmd`, in the same `workdir` (0.169.0: the binary's messages "PreToolUse hook returned
 * updatedInput without permissionDecision:allow" and "hook returned updatedInput without string
 * field `command`"; observed with the real binary: `exec_command {cmd, workdir: "sub"}` answered
 * with another command ran that one as `/bin/bash -lc '<it>' in <cwd>/sub`, and the hook's event
 * `cwd` is that workdir; test/system/e2e/codex-enforce.e2e.test.ts; offline only `exec_command` was
 * offered: `shell` and `shell_command` came back "unsupported call"). Every call is a fresh
 * `bash -lc`, so no cwd carries over to the next call: the wrapper's cwd file is written and
 * dropped with the shell, harmless.
 *
 * Codex's own sandbox: in `workspace-write` and `read-only` mode Codex 0.169.0 runs each command
 * under its own bubblewrap (its message "Codex's Linux sandbox uses bubblewrap ..."; the shipped
 * `codex-resources/bwrap`), with no_new_privs, a seccomp filter and no capabilities, and there a
 * second bubblewrap cannot start ("bwrap: setting up uid map: Operation not permitted", observed).
 * The hook cannot tell the mode: it runs outside that sandbox, its environment carries no sign of
 * it, and `permission_mode` follows the approval policy ("bypassPermissions" under
 * `approval_policy = "never"` in all three modes, observed). Inside, the command's environment
 * has `CODEX_SANDBOX_NETWORK_DISABLED=1` only while the network is off, and any variable can be set
 * by whatever runs before: no sign of the sandbox either. So the wrapped command decides where
 * it runs (src/layers/sandbox/held.ts, which precedes every client's wrapper): where every path outside the worktree that the wrapper keeps read-only is read-only
 * already (Codex's sandbox binds everything but its writable roots read-only) AND bubblewrap
 * cannot start, the command runs as Codex runs it, held by Codex's sandbox; anywhere else (an
 * unsandboxed run: `danger-full-access`, an approved escalation) the wrapper runs, and where
 * bubblewrap fails there the command fails with bwrap's message, never unconfined.
 */
import { absCwd, askAsDeny, field, sandboxAsAsk, type HookAnswer, type HookClient, type ParsedEvent } from '../types.js';
import { parseClaudeShaped, renderClaudeShaped } from './claude.js';

const PATCH_TOOLS = ['apply_patch'];
const PATCH_LINE = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.*)$/;

/** Every path an apply_patch envelope touches, in order (added, updated, deleted, moved to). */
export function patchPaths(patch: string): string[] {
  const out: string[] = [];
  for (const line of patch.split(/\r?\n/)) {
    const m = PATCH_LINE.exec(line);
    if (m && m[1]!.trim() !== '') out.push(m[1]!.trim());
  }
  return out;
}

function parse(event: Record<string, unknown>): ParsedEvent {
  const tool = event.tool_name;
  if (typeof tool === 'string' && PATCH_TOOLS.includes(tool)) {
    const patch = field(event.tool_input, 'command');
    if (typeof patch !== 'string') {
      return { kind: 'drift', reason: `bashguard: the ${tool} tool call has no string tool_input.command; the hook protocol may have changed, so the call is blocked (update bashguard).` };
    }
    const paths = patchPaths(patch);
    if (paths.length === 0) {
      return { kind: 'drift', reason: `bashguard: the ${tool} patch names no file (no "*** Add File:", "*** Update File:", "*** Delete File:" or "*** Move to:" line), so bashguard cannot tell what it writes; the call is blocked.` };
    }
    return { kind: 'call', call: { kind: 'write', tool, paths, cwd: absCwd(event.cwd) } };
  }
  return parseClaudeShaped(event, {}, ['Bash']);
}

function render(answer: HookAnswer | null, opts: { exitCode: boolean }) {
  // `sandbox` (a command run in `bashguard sandbox run`) stays an ask for Codex: bubblewrap cannot
  // start inside Codex's own sandbox, and there is no fallback for it here.
  return renderClaudeShaped(answer && askAsDeny(sandboxAsAsk(answer), 'Codex', 'does not support "ask" in hooks (it would run the call)'), opts);
}

export const codex: HookClient = {
  name: 'codex',
  parse,
  render,
  canReplaceCommand: true,
};
