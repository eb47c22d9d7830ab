/** Shared by the layer tests: a git runner with a clean environment, an in-memory IO, the CLI, a wrapper run as the client runs it. */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './memory-io.js';
import { executable } from '../../src/layers/sandbox/client-shell.js';

/** The system zsh, where installed (a zsh user's enforcement: bashguard's helper makes the mounts). */
export const ZSH: string | null = ['/bin/zsh', '/usr/bin/zsh'].find(executable) ?? null;

/** A wrapper whose mounts bashguard's helper makes (not the client's bash itself). */
export const HELPER_MOUNTS = /^(?![\s\S]*bashguard_mounts)[\s\S]*bashguard-landlock'? --mounts /;

/** The process environment without any GIT_* variable (a test's git must not see the runner's). */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
  for (const k of Object.keys(env)) if (k.startsWith('GIT_') && !['GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_GLOBAL', 'GIT_TERMINAL_PROMPT', 'GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL'].includes(k)) delete env[k];
  return { ...env, ...extra };
}

/**
 * A Claude Code user's home under `root` for a test that runs the enforcement: `home/.claude/
 * settings.json` (an empty config), a `tmp` dir, and the environment with them as HOME and TMPDIR,
 * without the runner's XDG_* and Claude Code variables (each moves a write root the plan grants).
 */
export function clientHome(root: string): { home: string; tmp: string; env: NodeJS.ProcessEnv } {
  const home = join(root, 'home');
  mkdirSync(join(home, '.claude'), { recursive: true });
  writeFileSync(join(home, '.claude', 'settings.json'), '{}\n');
  const tmp = join(root, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const env = cleanEnv({ HOME: home, TMPDIR: tmp, SHELL: '/bin/bash' });
  for (const k of ['XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME', 'CLAUDE_CONFIG_DIR', 'CLAUDE_CODE_TMPDIR', 'CLAUDE_PROJECT_DIR']) delete env[k];
  return { home, tmp, env };
}

export function git(cwd: string, args: string[], extra: Record<string, string> = {}): string {
  return execFileSync('git', args, { cwd, env: cleanEnv(extra), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export function gitStatus(cwd: string, args: string[], extra: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('git', args, { cwd, env: cleanEnv(extra), encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process from `cwd`. */
export async function cli(argv: string[], cwd: string, env: Record<string, string | undefined> = cleanEnv()): Promise<CliResult> {
  const r = await runCli(argv, { env, cwd });
  return { code: r.code, stdout: r.out, stderr: r.err };
}

/**
 * Runs `wrapper` (an enforcement wrapper) as the client's bash runs a Bash call: after `prelude`
 * (what the client's shell snapshot defines), under `launcher` (a program that then starts that
 * bash: a process-group leader, say).
 */
export function runWrapper(wrapper: string, opts: { cwd: string; env: NodeJS.ProcessEnv; prelude?: string; launcher?: string[] }): { code: number | null; stdout: string; stderr: string } {
  const launcher = opts.launcher ?? [];
  const r = spawnSync(launcher[0] ?? '/bin/bash', [...launcher.slice(1), ...(launcher.length ? ['/bin/bash'] : []), '-c', `${opts.prelude ?? ''}\neval "$BG_W"`], { cwd: opts.cwd, env: { ...opts.env, BG_W: wrapper }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
