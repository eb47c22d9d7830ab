/**
 * `bashguard install|uninstall|doctor --agent codex|gemini|cursor|copilot`: each client's documented
 * config file, idempotent, other entries kept; and the installed command, run through sh and bash as the
 * client runs it (the supervised bin/bashguard-hook, built dist/), answers a deny payload in that
 * client's format.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/frontends/cli/main.js';
import type { IO } from '../../../src/frontends/io.js';
import { hookCommand } from '../../../src/frontends/cli/install.js';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';

let layout: GitLayout;
let home: string;
beforeAll(() => {
  layout = makeGitLayout('bashguard-install-agents-');
  home = join(layout.root, 'home');
  mkdirSync(home);
});
afterAll(() => layout?.cleanup());

async function cli(args: string[], cwd = layout.main) {
  const out: string[] = [];
  const err: string[] = [];
  const io: IO = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), readStdin: async () => '', env: { HOME: home, PATH: process.env.PATH }, cwd, isTTY: false };
  const code = await run(args, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const FILES: Record<string, string> = { codex: '.codex/hooks.json', gemini: '.gemini/settings.json', cursor: '.cursor/hooks.json', copilot: '.github/hooks/bashguard.json' };
const read = (agent: string) => JSON.parse(readFileSync(join(layout.main, FILES[agent]!), 'utf8')) as Record<string, any>;

/** The installed command string of each format. */
function installedCommand(agent: string): string {
  const s = read(agent);
  if (agent === 'codex') return s.hooks.PreToolUse.at(-1).hooks[0].command;
  if (agent === 'gemini') return s.hooks.BeforeTool.at(-1).hooks[0].command;
  if (agent === 'cursor') return s.hooks.beforeShellExecution.at(-1).command;
  return s.hooks.preToolUse.at(-1).bash;
}

describe.each(Object.keys(FILES))('%s', (agent) => {
  it('install writes the documented file; doctor passes; install again changes nothing; other entries kept; uninstall removes only ours', async () => {
    const file = join(layout.main, FILES[agent]!);
    expect((await cli(['doctor', '--agent', agent])).code).toBe(1);
    // Someone else's hook already there.
    mkdirSync(dirname(file), { recursive: true });
    const other = agent === 'codex' || agent === 'gemini'
      ? { hooks: { [agent === 'codex' ? 'PreToolUse' : 'BeforeTool']: [{ matcher: 'x', hooks: [{ type: 'command', command: 'other-hook' }] }] }, keep: true }
      : { version: 1, hooks: { [agent === 'cursor' ? 'beforeShellExecution' : 'preToolUse']: [agent === 'cursor' ? { command: 'other-hook' } : { type: 'command', bash: 'other-hook' }] }, keep: true };
    writeFileSync(file, JSON.stringify(other));
    const r = await cli(['install', '--agent', agent]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(file);
    const s = read(agent);
    expect(s.keep).toBe(true);
    expect(JSON.stringify(s)).toContain('other-hook');
    // Gemini CLI runs hook commands with `bash -c`: its shell reads the script (`.`); the others
    // exec it under its own #!/bin/sh.
    expect(installedCommand(agent)).toMatch(agent === 'gemini' ? new RegExp(`^set -- \\S*bashguard-hook --agent ${agent}; BASHGUARD_NODE=\\S+ \\. "\\$1"$`) : new RegExp(`exec \\S*bashguard-hook --agent ${agent}$`));
    if (agent === 'cursor' || agent === 'copilot') expect(s.version).toBe(1);
    // Cursor fails open on a hook that crashes or times out unless the entry says failClosed.
    if (agent === 'cursor') expect(s.hooks.beforeShellExecution.at(-1).failClosed).toBe(true);
    const before = readFileSync(file, 'utf8');
    expect((await cli(['install', '--agent', agent])).stdout).toMatch(/already installed/);
    expect(readFileSync(file, 'utf8')).toBe(before);
    // (Codex: its own sandbox configured, so doctor passes whether or not bubblewrap starts here)
    if (agent === 'codex') {
      mkdirSync(join(home, '.codex'), { recursive: true });
      writeFileSync(join(home, '.codex', 'config.toml'), 'sandbox_mode = "workspace-write"\n');
    }
    const d = await cli(['doctor', '--agent', agent]);
    expect(d.code, d.stdout).toBe(0);
    expect(d.stdout).toContain('✓');

    // The installed command answers a deny payload in the client's format.
    const payload = {
      codex: { session_id: 's', turn_id: 't', cwd: layout.worktree, hook_event_name: 'PreToolUse', model: 'm', tool_name: 'Bash', tool_input: { command: `echo x > ${layout.main}/README.md` }, tool_use_id: 'c' },
      gemini: { session_id: 's', cwd: layout.worktree, hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: `echo x > ${layout.main}/README.md` } },
      cursor: { hook_event_name: 'beforeShellExecution', command: `echo x > ${layout.main}/README.md`, cwd: layout.worktree },
      copilot: { timestamp: 1, cwd: layout.worktree, toolName: 'bash', toolArgs: JSON.stringify({ command: `echo x > ${layout.main}/README.md` }) },
    }[agent];
    for (const shell of ['sh', 'bash']) {
      const h = spawnSync(shell, ['-c', installedCommand(agent)], { input: JSON.stringify(payload), env: { PATH: process.env.PATH, HOME: home }, encoding: 'utf8', timeout: 30_000 });
      expect(h.status, h.stderr).toBe(0);
      const answer = JSON.parse(h.stdout) as Record<string, any>;
      const decision = { codex: answer.hookSpecificOutput?.permissionDecision, gemini: answer.decision, cursor: answer.permission, copilot: answer.permissionDecision }[agent];
      expect(decision, shell).toBe('deny');
    }

    expect((await cli(['uninstall', '--agent', agent])).code).toBe(0);
    expect(JSON.stringify(read(agent))).not.toContain('bashguard');
    expect(JSON.stringify(read(agent))).toContain('other-hook');
    expect(existsSync(file)).toBe(true);
  }, 60_000);
});

it.each(['codex', 'gemini', 'cursor', 'copilot'])('%s: install then uninstall into a fresh checkout leaves no file and no directory behind', async (agent) => {
  const fresh = makeGitLayout(`bg-agent-trace-${agent}-`);
  try {
    const before = readdirSync(fresh.main).sort();
    expect((await cli(['install', '--agent', agent], fresh.main)).code).toBe(0);
    expect(existsSync(join(fresh.main, FILES[agent]!))).toBe(true);
    const r = await cli(['uninstall', '--agent', agent], fresh.main);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/held nothing else and was deleted/);
    expect(readdirSync(fresh.main).sort()).toEqual(before);
  } finally {
    fresh.cleanup();
  }
});

it('copilot has no user-level file: a usage error', async () => {
  const r = await cli(['install', '--agent', 'copilot', '--user']);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/no user-level hook file/);
});

it('doctor takes the form an older install wrote for a client as working, and says which form install writes now', async () => {
  const file = join(layout.main, FILES.gemini!);
  expect((await cli(['install', '--agent', 'gemini'])).code).toBe(0);
  const s = read('gemini');
  const current = s.hooks.BeforeTool.at(-1).hooks[0].command as string;
  const older = hookCommand(['--agent', 'gemini'], 'exec');
  expect(older).not.toBe(current);
  s.hooks.BeforeTool.at(-1).hooks[0].command = older;
  writeFileSync(file, JSON.stringify(s));
  const d = await cli(['doctor', '--agent', 'gemini']);
  expect(d.code, d.stdout).toBe(0);
  expect(d.stdout).toContain(`runs ${older}`);
  expect(d.stdout).toContain(current);
  // install replaces it with the current form.
  expect((await cli(['install', '--agent', 'gemini'])).code).toBe(0);
  expect(read('gemini').hooks.BeforeTool.at(-1).hooks[0].command).toBe(current);
  // Anything else is still a problem.
  s.hooks.BeforeTool.at(-1).hooks[0].command = older.replace('--agent gemini', '--agent codex');
  writeFileSync(file, JSON.stringify(s));
  expect((await cli(['doctor', '--agent', 'gemini'])).code).toBe(1);
  expect((await cli(['uninstall', '--agent', 'gemini'])).code).toBe(0);
}, 60_000);
