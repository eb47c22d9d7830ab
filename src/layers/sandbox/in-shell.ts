/**
 * Enforcement in the client's own shell (native/landlock-builtin.c): where the client runs its Bash
 * call in bash, the wrapper loads a builtin that confines that very shell (`bashguard_landlock`:
 * the Landlock rules; `bashguard_mounts`: the bubblewrap plan's mounts in new user and mount
 * namespaces, under a Landlock domain) and runs the command there as unwrapped: no process is
 * started, the command keeps the shell's functions and aliases, its `cd` and `$$`. Where the
 * builtin cannot load or declines (before changing anything), `fallback` (the helper's or bwrap's
 * wrapper) runs instead. The shell stays confined until the call ends, when Claude Code writes its
 * cwd file in its temp dir (`clientTmpDir`): the caller uses this only where that stays writable.
 * `more`: the builtin's further words (`--seccomp HEX`, the Unix-socket filter of ./seccomp.ts).
 */
import { basename } from 'node:path';
import { physicalPath } from '../../util/physical-path.js';
import type { Env } from '../../policy/workspace/config.js';
import { afterDefinition, commandDefinition, shellQuote } from '../../util/quote.js';
import { landlockBuiltin } from './probes.js';

export type Builtin = 'bashguard_landlock' | 'bashguard_mounts';

/**
 * The wrapper (the command defined once: `fallback` starts with the same definition); `enable` and
 * the builtin are called through `builtin`, so a function of the same name (from the client's shell
 * snapshot) is not run instead.
 */
export function inShellWrapper(command: string, so: string, builtin: Builtin, text: string, fallback: string, more: readonly string[] = []): string {
  const option = builtin === 'bashguard_landlock' ? '--rules' : '--mounts';
  return `${commandDefinition(command)}if builtin enable -f ${shellQuote(so)} ${builtin} 2>/dev/null && builtin ${builtin} ${option} ${shellQuote(text)}${more.map((w) => ` ${shellQuote(w)}`).join('')}; then eval "$__bg_c"; else ${afterDefinition(command, fallback)}; fi`;
}

/** The builtins' shared object where the client's shell is bash and it is installed beside the Landlock helper; else null. */
export function inShellBuiltin(shell: string, helper: string | null): string | null {
  return helper && /^bash[0-9.]*$/.test(basename(shell)) ? landlockBuiltin(helper) : null;
}

/**
 * The directory Claude Code creates its cwd file in after the command (`pwd -P >| <dir>/claude-<id>-cwd`,
 * 2.1.330's shipped cli: CLAUDE_CODE_TMPDIR, else the OS temp dir), physical; null when it cannot be resolved.
 */
export function clientTmpDir(env: Env): string | null {
  return physicalPath(env.CLAUDE_CODE_TMPDIR || (env.TMPDIR?.startsWith('/') ? env.TMPDIR.replace(/\/+$/, '') || '/' : '/tmp'));
}
