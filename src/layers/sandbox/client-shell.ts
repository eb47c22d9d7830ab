/**
 * The shell the client runs a Bash call with: a client fact, needed by the enforcement's wrapper
 * (./enforce.ts) and by the hook's check of what bash would read of a command tree-sitter could
 * not (src/frontends/decide.ts `judgeBash`), which should not load the enforcement for it.
 */
import { accessSync, constants } from 'node:fs';
import type { Env } from '../../policy/workspace/config.js';
import { nativeIO, STAT } from '../../runtime/index.js';

/** Whether this process may execute `p` (access(2) X_OK). */
export function executable(p: string): boolean {
  // (a missing name answered by the addon where the process has loaded it: Node's accessSync
  // throws an error, stack and all, for each, and the shell search meets several per call)
  const k = nativeIO(false)?.statKind(p, true);
  if (k === STAT.ENOENT || k === STAT.ENOTDIR) return false;
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The shell Claude Code runs commands with, as 2.1.330's shipped cli picks it: CLAUDE_CODE_SHELL,
 * then SHELL, where they name bash or zsh; then, when SHELL's basename is bash, bash (PATH first,
 * then /bin, /usr/bin, /usr/local/bin, /opt/homebrew/bin) before zsh (those dirs, then PATH);
 * otherwise zsh before bash the same way (zsh first where SHELL is unset). The first that can be
 * executed. The wrapper's inner shell is the same one, so the command means the same thing inside.
 * `client`: another client's own rule where it has one (Codex).
 */
export function clientShell(env: Env, client = 'claude'): string {
  // (Codex runs the model's `bash -lc`: bash where SHELL names no shell)
  if (client === 'codex' && env.SHELL === undefined) return clientShell({ ...env, SHELL: '/bin/bash' });
  const fromEnv = [env.CLAUDE_CODE_SHELL, env.SHELL].filter((s): s is string => !!s && s.startsWith('/') && (s.includes('bash') || s.includes('zsh')));
  const bashFirst = (env.SHELL ?? '').split('/').pop() === 'bash';
  const [first, second] = bashFirst ? ['bash', 'zsh'] : ['zsh', 'bash'];
  const dirs = ['/bin', '/usr/bin', '/usr/local/bin', '/opt/homebrew/bin'];
  // (in this order, each looked up only when those before it fail: a PATH walk is an access(2)
  // and, in Node, a thrown error per directory, on every allowed call)
  const candidates: (() => string | null)[] = [
    ...fromEnv.map((s) => () => s),
    () => onPath(first, env),
    ...[first, second].flatMap((n) => dirs.map((d) => () => `${d}/${n}`)),
    () => onPath(second, env),
  ];
  for (const c of candidates) {
    const s = c();
    if (s && executable(s)) return s;
  }
  return '/bin/bash';
}

/** `name` as PATH finds it (absolute entries only), or null. */
function onPath(name: string, env: Env): string | null {
  for (const d of (env.PATH ?? '').split(':')) if (d.startsWith('/') && executable(`${d}/${name}`)) return `${d}/${name}`;
  return null;
}
