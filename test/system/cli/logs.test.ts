/** The decision log: appending, rotation at the cap, `bashguard logs --since/--json`. */
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { appendDecision, decisionLogFile, isoTime, parseSince, readDecisions, type DecisionRecord } from '../../../src/layers/log/decisions.js';
import { runCli } from '../../helpers/memory-io.js';
import { makeGitLayout } from '../../helpers/git-layout.js';

const T = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-logs-')));
afterAll(() => rmSync(T, { recursive: true, force: true }));

const rec = (time: string, command: string): DecisionRecord => ({ time, session: 's', cwd: '/w', tool: 'Bash', command, decision: 'deny', rules: ['BG1002'], reason: 'r', entrypoint: 'sdk-cli', attended: '0' });

async function cli(argv: string[], env: Record<string, string>) {
  const r = await runCli(argv, { env, cwd: T });
  return { code: r.code, stdout: r.out, stderr: r.err };
}

describe('decision log', () => {
  it('defaults to ~/.local/state/bashguard/decisions.jsonl, XDG_STATE_HOME wins', () => {
    expect(decisionLogFile({ HOME: '/h' })).toBe('/h/.local/state/bashguard/decisions.jsonl');
    expect(decisionLogFile({ HOME: '/h', XDG_STATE_HOME: '/s' })).toBe('/s/bashguard/decisions.jsonl');
    expect(decisionLogFile({})).toBeNull();
  });

  it('rotates to one .1 file past the cap, keeping both readable', () => {
    const env = { XDG_STATE_HOME: join(T, 'rot') };
    for (let i = 0; i < 30; i++) expect(appendDecision(env, rec(new Date(1e12 + i * 1000).toISOString(), `cmd ${i} ${'x'.repeat(100)}`), 2000)).toBeNull();
    const file = decisionLogFile(env)!;
    expect(statSync(file).size).toBeLessThanOrEqual(2000);
    expect(existsSync(`${file}.1`)).toBe(true);
    expect(existsSync(`${file}.2`)).toBe(false);
    const { records } = readDecisions(env);
    // the newest records survive, in order
    expect(records.at(-1)!.command).toMatch(/^cmd 29 /);
    expect(records.map((r) => r.time)).toEqual([...records.map((r) => r.time)].sort());
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean).every((l) => JSON.parse(l).decision === 'deny')).toBe(true);
  });

  it('parses --since durations and ISO times', () => {
    expect(parseSince('2h', 10_000_000)).toBe(10_000_000 - 7_200_000);
    expect(parseSince('2026-11-23T10:00:00Z', 0)).toBe(Date.parse('2026-11-23T10:00:00Z'));
    expect(parseSince('yesterday', 0)).toBeNull();
  });

  it('`bashguard logs` prints, filters with --since and --json', async () => {
    const env = { XDG_STATE_HOME: join(T, 'cli'), HOME: T };
    const old = new Date(Date.now() - 3 * 3600e3).toISOString();
    const recent = new Date(Date.now() - 60e3).toISOString();
    appendDecision(env, rec(old, 'echo old > /main/x'));
    appendDecision(env, rec(recent, 'echo new > /main/y'));
    const all = await cli(['logs'], env);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('echo old');
    expect(all.stdout).toContain('echo new');
    expect(all.stdout).toContain('attended=0');
    const since = await cli(['logs', '--since', '1h', '--json'], env);
    const lines = since.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0].command).toBe('echo new > /main/y');
    const bad = await cli(['logs', '--since', 'soon'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--since takes a duration/);
  });
});

describe('isoTime', () => {
  it('formats like Date.prototype.toISOString over the whole time range', () => {
    fc.assert(fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => isoTime(ms) === new Date(ms).toISOString()), { numRuns: 2000 });
    for (const ms of [0, -1, 253402300799999, 253402300800000, -62167219200000, -62167219200001, 8.64e15, -8.64e15]) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('the hook records a shell call\'s command and a file tool\'s path, as each client\'s parser tells them apart', async () => {
    const L = makeGitLayout('bashguard-logs-hook-');
    try {
      const target = join(L.main, 'README.md');
      const command = `echo x > ${target}`;
      const calls: Array<[string, Record<string, unknown>, 'command' | 'path', string]> = [
        ['claude', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: L.worktree }, 'command', command],
        ['claude', { hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: target }, cwd: L.worktree }, 'path', target],
        ['gemini', { hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command }, cwd: L.worktree }, 'command', command],
        ['gemini', { hook_event_name: 'BeforeTool', tool_name: 'write_file', tool_input: { file_path: target }, cwd: L.worktree }, 'path', target],
        ['cursor', { hook_event_name: 'beforeShellExecution', command, cwd: L.worktree }, 'command', command],
        ['copilot', { toolName: 'bash', toolArgs: JSON.stringify({ command }), cwd: L.worktree }, 'command', command],
        ['copilot', { toolName: 'edit', toolArgs: JSON.stringify({ path: target }), cwd: L.worktree }, 'path', target],
      ];
      for (const [i, [agent, event, field, value]] of calls.entries()) {
        const env = { HOME: T, XDG_STATE_HOME: join(T, `hook-state-${i}`), PATH: process.env.PATH ?? '' };
        await runCli(['hook', '--agent', agent], { stdin: JSON.stringify(event), env, cwd: L.worktree });
        const [record] = readDecisions(env).records;
        expect(record, `${agent} ${String(event.tool_name ?? event.toolName ?? event.hook_event_name)}`).toMatchObject({ [field]: value, decision: expect.stringMatching(/^(deny|ask)$/) });
        expect(record).not.toHaveProperty(field === 'path' ? 'command' : 'path');
      }
    } finally {
      L.cleanup();
    }
  }, 60_000);
});
