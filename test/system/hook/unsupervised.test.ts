/**
 * `hook --unsupervised`: the hook run by the client itself, with no supervisor script around it
 * (Claude Code's exec form, which `bashguard install` writes for Claude Code 2.1.295 and later:
 * src/frontends/cli/install.ts HookSpec). At its time limit the hook is replaced in place by `hook
 * --unfinished` (src/frontends/cli/hook-main.ts superviseSelf), which reads the event on its stdin (the addon's
 * SIGALRM handler puts it there) and answers as the supervisor did after stopping a run-away parse.
 * Run here as the client runs it: node spawned with the entry's arguments, no shell.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { REPO_ROOT, addonOrSkip } from '../../helpers/shared.js';
import { execFormText } from '../../../src/frontends/cli/install.js';
import { runCli } from '../../helpers/memory-io.js';
import { isAllowOutput } from '../../helpers/allow.js';

const HANG = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'parser-hang.sh.txt'), 'utf8');
const LIMIT_S = 2;
const withAddon = addonOrSkip("the unsupervised hook's time limit (the addon arms it)") === null;

let layout: GitLayout;
beforeAll(() => {
  layout = makeGitLayout('bashguard-unsupervised-');
});
afterAll(() => layout.cleanup());

const event = (command: string) => JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: layout.worktree });
const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: layout.root, BASHGUARD_HOOK_TIMEOUT: String(LIMIT_S), ...extra });
const decisionOf = (stdout: string) => (JSON.parse(stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } }).hookSpecificOutput;
/** Events kept in bashguard's private cache directory under this HOME (none once a hook is done). */
const keptEvents = () => {
  const dir = join(layout.root, '.cache', 'bashguard');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith('event-')) : [];
};

const START = join(REPO_ROOT, 'dist', 'hook-start.cjs');
/** The launcher `install` writes for the exec form (src/frontends/cli/install.ts execFormText), in a scratch place. */
let LAUNCHER = '';
beforeAll(() => {
  LAUNCHER = join(layout.root, 'bashguard-hook-launcher.cjs');
  writeFileSync(LAUNCHER, execFormText(), { mode: 0o755 });
});

function spawnHook(file: string, args: string[], stdin: string, extra: Record<string, string> = {}) {
  const t0 = performance.now();
  const r = spawnSync(file, args, { input: stdin, env: env(extra), encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, ms: performance.now() - t0 };
}
/** The hook as Claude Code spawns the exec form install writes: the launcher, no shell, no arguments. */
const direct = (stdin: string, extra: Record<string, string> = {}) => spawnHook(LAUNCHER, [], stdin, extra);
/** `node <entry> hook --unsupervised MORE...` (what the launcher runs), for the flags it does not pass. */
const entry = (stdin: string, more: string[], extra: Record<string, string> = {}) => spawnHook(process.execPath, ['--preserve-symlinks-main', START, 'hook', '--unsupervised', ...more], stdin, extra);

describe('hook --unsupervised (the exec form)', () => {
  it('the launcher is node itself on the entry (its #! line), and answers like the supervised hook: deny, allow', () => {
    expect(execFormText().split('\n')[0]).toBe(`#!${process.execPath} --preserve-symlinks-main`);
    const deny = direct(event(`echo x > ${layout.main}/README.md`));
    expect(deny.code, deny.stderr).toBe(0);
    expect(decisionOf(deny.stdout).permissionDecision).toBe('deny');
    const allow = direct(event('ls'));
    expect([allow.code, isAllowOutput(allow.stdout), allow.stderr]).toEqual([0, true, '']);
    expect(keptEvents()).toEqual([]);
  });

  it('run as a client before 2.1.139 runs it (through its shell, arguments dropped): the same answers', () => {
    const deny = spawnHook('/bin/sh', ['-c', LAUNCHER], event(`echo x > ${layout.main}/README.md`));
    expect(decisionOf(deny.stdout).permissionDecision).toBe('deny');
    // Arguments a client passes change nothing: the launcher sets the hook's own.
    const allow = spawnHook(LAUNCHER, ['--exit-code', 'lint'], event('ls'));
    expect([allow.code, isAllowOutput(allow.stdout)]).toEqual([0, true]);
  });

  it('a node without Module._load: the launcher loads the entry and starts the hook itself', () => {
    const preload = join(layout.root, 'no-load.cjs');
    // Node's own start-up reads Module._load to run the launcher, and require reads it after; only
    // the launcher's own read (the second) finds none.
    writeFileSync(preload, "const M = require('node:module'); const load = M._load; let reads = 0;\nObject.defineProperty(M, '_load', { configurable: true, get: () => (reads++ === 1 ? undefined : load) });\n");
    const r = spawnHook(process.execPath, ['--preserve-symlinks-main', '--require', preload, LAUNCHER], event(`echo x > ${layout.main}/README.md`));
    expect(r.code, r.stderr).toBe(0);
    expect(decisionOf(r.stdout).permissionDecision).toBe('deny');
  });

  it.skipIf(!withAddon)(`a parse that runs away: replaced in place by the answer for an unanalyzable call after ${LIMIT_S} s (ask), exit 0`, () => {
    const r = direct(event(HANG));
    expect(r.code, r.stderr).toBe(0);
    expect(r.signal).toBe(null);
    const a = decisionOf(r.stdout);
    expect(a.permissionDecision).toBe('ask');
    expect(a.permissionDecisionReason).toMatch(new RegExp(`did not finish within ${LIMIT_S} s`));
    // Answered from the event (the reason says so when it was not), and no file of it is left.
    expect(a.permissionDecisionReason).not.toMatch(/not kept/);
    expect(keptEvents()).toEqual([]);
    expect(r.stderr).toMatch(/ran past its time limit/);
    expect(r.ms).toBeGreaterThan(LIMIT_S * 1000);
    expect(r.ms).toBeLessThan(LIMIT_S * 1000 + 15_000);
  });

  it.skipIf(!withAddon)('the same with "unanalyzable": "deny" in the worktree config: deny; with --exit-code: exit 2', () => {
    const cfg = join(layout.worktree, '.bashguard.json');
    writeFileSync(cfg, '{"unanalyzable": "deny"}');
    try {
      const r = direct(event(HANG));
      expect(decisionOf(r.stdout).permissionDecision).toBe('deny');
    } finally {
      rmSync(cfg);
    }
    const code = entry(event(HANG), ['--exit-code']);
    expect(code.code).toBe(2);
    expect(code.stdout).toBe('');
    expect(code.stderr).toMatch(/did not finish within/);
  });

  it.skipIf(!withAddon)('stdin that never closes: stopped at the limit and answered without the event, not left reading', async () => {
    const child = spawn(LAUNCHER, [], { env: env({ BASHGUARD_HOOK_TIMEOUT: '1' }), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.on('exit', (c) => {
        clearTimeout(guard);
        resolve(c);
      });
    });
    child.stdin.destroy();
    expect(code).toBe(0);
    const a = decisionOf(out);
    expect(a.permissionDecision).toBe('ask');
    expect(a.permissionDecisionReason).toMatch(/not kept/);
  });

  it.skipIf(!withAddon)('a run-away parse where the event cannot be written for the restart (no cache directory): answered without it, never an allow', () => {
    const r = direct(event(`echo x > ${layout.main}/README.md\n${HANG}`), { XDG_CACHE_HOME: join(layout.root, 'no', 'such', 'dir') });
    expect(r.code, r.stderr).toBe(0);
    const a = decisionOf(r.stdout);
    expect(a.permissionDecision).toBe('ask');
    expect(a.permissionDecisionReason).toMatch(/did not finish within .*not kept/);
  });

  it('a BASHGUARD_HOOK_TIMEOUT that is not a number of seconds: said on stderr, the default used', () => {
    const r = direct(event(`echo x > ${layout.main}/README.md`), { BASHGUARD_HOOK_TIMEOUT: 'soon' });
    expect(r.code).toBe(0);
    expect(decisionOf(r.stdout).permissionDecision).toBe('deny');
    expect(r.stderr).toBe(`bashguard: the hook's time limit takes a number of seconds (more than 0, at most 86400), got "soon"; using 10\n`);
  });

  it.skipIf(!withAddon)('run in a process that goes on (run(argv, io)): its limit is taken off once the answer is out', async () => {
    const r = await runCli(['hook', '--unsupervised', '--time-limit', '1'], { stdin: event('ls'), env: env(), cwd: layout.worktree });
    expect(r.code).toBe(0);
    expect(isAllowOutput(r.out)).toBe(true);
    // Armed and left armed, SIGALRM would end this test process here.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(process.exitCode ?? 0).toBe(0);
  });
});
