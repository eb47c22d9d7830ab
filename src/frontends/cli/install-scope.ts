/**
 * Where a project-level install or uninstall reaches, said before and after it, for every client
 * alike: a project install outside any git checkout guards nothing (the hook allows every call
 * there), one inside a linked worktree writes a file only that worktree's sessions read, and a
 * project uninstall leaves a user-level hook running.
 */
import { existsSync } from 'node:fs';
import { discoverLayout } from '../../policy/layout/discover.js';
import { UsageError, type IO } from '../io.js';
import { readSettings, removeHook, settingsPath } from './install.js';
import { AGENT_CONFIGS, agentConfigPath, removeAgentHook } from './install-agents.js';

/** The project file of `agent`, relative to the checkout's root. */
function projectFile(agent: string): string {
  return agent === 'claude' ? '.claude/settings.json' : AGENT_CONFIGS[agent]!.project;
}

function hasUserScope(agent: string): boolean {
  return agent === 'claude' || AGENT_CONFIGS[agent]!.user !== null;
}

/**
 * Refuses a project install outside a git checkout; in a linked worktree, refuses it without an
 * explicit `--project` and says where each choice reaches (with it: does it, and says the same).
 */
export function projectInstallCheck(io: IO, agent: string, explicit: boolean, dryRun: boolean): void {
  const found = discoverLayout(io.cwd);
  const file = projectFile(agent);
  const user = hasUserScope(agent) ? `\`bashguard install${agent === 'claude' ? '' : ` --agent ${agent}`} --user\` covers every checkout` : null;
  if (!found.ok || !found.layout.current.root) {
    throw new UsageError(
      `${io.cwd} is not inside a git checkout: a project install would write ${io.cwd}/${file}, and the hook allows every call outside a checkout. ` +
        `Run it in the checkout to guard${user ? `, or ${user}` : ''}.`,
    );
  }
  if (found.layout.current.kind !== 'linked-worktree') return;
  const wt = found.layout.current.root;
  const main = found.layout.main?.root ?? null;
  const where =
    `this is the linked worktree ${wt}${main ? ` of ${main}` : ''}. A project install writes ${wt}/${file} (untracked), ` +
    `read only by sessions in this worktree: NOT by ${main ? `the main checkout ${main}, ` : ''}other worktrees, or worktrees made later` +
    (user ? `. ${user} (what orchestrated worktrees need)` : '');
  if (!explicit) throw new UsageError(`${where}; pass --project to write the worktree's file anyway.`);
  if (!dryRun) io.stderr(`bashguard: note: ${where}.\n`);
}

/** After a project uninstall: the user-level file that still holds bashguard's hook (it stays active everywhere), or null. */
export function userHookLeft(io: IO, agent: string): string | null {
  if (!hasUserScope(agent)) return null;
  try {
    const file = agent === 'claude' ? settingsPath(io, 'user') : agentConfigPath(io, agent, 'user');
    if (!existsSync(file)) return null;
    const s = readSettings(file);
    const without = agent === 'claude' ? removeHook(s) : removeAgentHook(agent, s);
    return JSON.stringify(without) === JSON.stringify(s) ? null : file;
  } catch {
    // No HOME, an unreadable or invalid file: doctor says what is wrong with it.
    return null;
  }
}
