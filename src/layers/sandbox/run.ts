/**
 * `bashguard sandbox run -- CMD...`: runs a command under bubblewrap with the worktree's grants.
 * Where bwrap is missing or cannot create its namespaces (user namespaces off, a container
 * without the privileges), says so in one line instead of running the command unconfined.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { constants as osConstants } from 'node:os';
import type { Workspace } from '../../policy/workspace/index.js';
import { sandboxPlan } from './grants.js';
import { bwrapArgs, bwrapBase } from './render.js';

export type Availability = { ok: true; bwrap: string } | { ok: false; reason: string };

/** bwrap on PATH (or BASHGUARD_BWRAP), checked by setting up an empty sandbox with the same namespaces and mounts. */
export function bwrapAvailable(env: Record<string, string | undefined>): Availability {
  const bwrap = env.BASHGUARD_BWRAP ?? findOnPath('bwrap', env.PATH ?? '');
  if (!bwrap) return { ok: false, reason: 'bubblewrap (bwrap) is not installed (Debian/Ubuntu: apt-get install bubblewrap)' };
  const probe = spawnSync(bwrap, [...bwrapBase(process.getuid?.() === 0), '--', 'true'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000, encoding: 'utf8' });
  if (probe.error) return { ok: false, reason: `bubblewrap (${bwrap}) cannot be run: ${probe.error.message}` };
  if (probe.status !== 0) {
    const why = (probe.stderr ?? '').trim().split('\n')[0] || `exit ${probe.status}`;
    return { ok: false, reason: `bubblewrap cannot create a sandbox here (user namespaces disabled or not permitted?): ${why}` };
  }
  return { ok: true, bwrap };
}

function findOnPath(name: string, path: string): string | null {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // next
    }
  }
  return null;
}

export interface RunOptions {
  env: Record<string, string | undefined>;
  /** Where the command starts (default: the workspace's cwd). */
  cwd?: string;
  stdio?: 'inherit' | 'pipe';
}

export interface RunResult {
  /** The command's exit status (128+n for a signal), or null when the sandbox could not start. */
  status: number | null;
  /** Why the command did not run. */
  error?: string;
  stdout?: string;
  stderr?: string;
}

/** Runs `command` in the sandbox of the workspace's worktree. Never runs it unconfined. */
export function runSandboxed(ws: Workspace, command: readonly string[], opts: RunOptions): RunResult {
  if (command.length === 0) return { status: null, error: 'no command given (bashguard sandbox run -- CMD...)' };
  const avail = bwrapAvailable(opts.env);
  if (!avail.ok) return { status: null, error: avail.reason };
  const plan = sandboxPlan(ws);
  const args = bwrapArgs(plan, command, { cwd: opts.cwd ?? ws.cwd, root: process.getuid?.() === 0 });
  // bwrap's status descriptor (--json-status-fd) gets an "exit-code" line only when the command
  // ran; a setup or exec failure (a missing program, a cwd it cannot enter) ends bwrap with its
  // own exit 1, which would pass for the command's.
  const stdio = opts.stdio === 'pipe' ? (['ignore', 'pipe', 'pipe', 'pipe'] as const) : (['inherit', 'inherit', 'inherit', 'pipe'] as const);
  const r = spawnSync(avail.bwrap, ['--json-status-fd', '3', ...args], { stdio: [...stdio], env: opts.env as NodeJS.ProcessEnv, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) return { status: null, error: `bubblewrap failed to start: ${r.error.message}` };
  if (!/"exit-code"/.test(String(r.output?.[3] ?? ''))) {
    const why = String(r.stderr ?? '').trim().split('\n').filter((l) => l.startsWith('bwrap:')).pop();
    return { status: null, error: `the sandbox could not start ${JSON.stringify(command[0])} (bubblewrap exited ${r.status ?? r.signal} before running it${why ? `: ${why}` : '; its message is above'})`, stdout: r.stdout ?? undefined, stderr: r.stderr ?? undefined };
  }
  const status = r.status ?? (r.signal ? 128 + (osConstants.signals[r.signal] ?? 0) : 1);
  return { status, stdout: r.stdout ?? undefined, stderr: r.stderr ?? undefined };
}
