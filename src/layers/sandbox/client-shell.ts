/**
 * The shell the client runs a Bash call with: a client fact, needed by the enforcement's wrapper
 * (./enforce.ts) and by the hook's check of what bash would read of a command tree-sitter could
 * not (src/frontends/decide.ts `judgeBash`), which should not load the enforcement for it.
 */
import { accessSync, constants } from 'node:fs';
import type { Env } from '../../policy/workspace/config.js';

/** Whether this process may execute `p` (access(2) X_OK). */
export function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The shell Claude Code runs commands with: CLAUDE_CODE_SHELL or SHELL when it names bash or zsh,
 * else bash (2.1.330's shipped cli: the shell-candidates function filters `[CLAUDE_CODE_SHELL,
 * SHELL]` on `includes("bash") || includes("zsh")`, then tries bash and zsh in /bin, /usr/bin,
 * /usr/local/bin, /opt/homebrew/bin). The inner shell is the same one, so the command means the
 * same thing inside.
 */
export function clientShell(env: Env): string {
  for (const s of [env.CLAUDE_CODE_SHELL, env.SHELL]) if (s && s.startsWith('/') && (s.includes('bash') || s.includes('zsh')) && executable(s)) return s;
  for (const s of ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash']) if (executable(s)) return s;
  return '/bin/bash';
}
