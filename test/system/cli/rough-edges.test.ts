/**
 * The CLI's rough edges a newcomer met (issue 49): each answer is one consistent decision, one
 * clear line and a defined exit code, and no read blocks on a FIFO.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/frontends/cli/main.js';
import type { IO } from '../../../src/frontends/io.js';
import { cannotRun, REPO_ROOT } from '../../helpers/shared.js';

const T = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-rough-')));
const MAIN = join(T, 'main');
const WT = join(MAIN, '.builders', 'b1');
const HOME = join(T, 'home');
const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME };

beforeAll(() => {
  mkdirSync(HOME);
  execFileSync('git', ['init', '-q', MAIN], { env: GIT_ENV });
  execFileSync('git', ['-C', MAIN, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'i'], { env: GIT_ENV });
  execFileSync('git', ['-C', MAIN, 'worktree', 'add', '-q', WT], { env: GIT_ENV });
});
afterAll(() => rmSync(T, { recursive: true, force: true }));

async function cli(argv: string[], cwd = WT, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: IO = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), readStdin: async () => '', env: { HOME, PATH: '/usr/bin:/bin', ...env }, cwd, isTTY: false };
  const code = await run(argv, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('check on a command bash rejects', () => {
  // The client's shell judges the syntax: bash here (without SHELL, zsh is preferred where installed).
  const BASH_SHELL = { SHELL: '/bin/bash' };
  it('prints one headline, the hook\'s answer, and exits 1', async () => {
    const r = await cli(['check', 'echo (('], WT, BASH_SHELL);
    const first = r.stdout.split('\n')[0]!;
    expect(first).toMatch(/^BASH REJECTS IT: the hook answers ALLOW/);
    // No second headline contradicting the first.
    expect(r.stdout.split('\n').filter((l) => /^(ASK|DENY|ALLOW)\b/.test(l))).toEqual([]);
    expect(r.code).toBe(1);
  });

  it('says the same in JSON', async () => {
    const r = await cli(['check', '--json', 'echo (('], WT, BASH_SHELL);
    const j = JSON.parse(r.stdout) as { decision: string; analysis: string; bashRejects: boolean };
    expect([j.decision, j.analysis, j.bashRejects]).toEqual(['allow', 'ask', true]);
    expect(r.code).toBe(1);
  });

  it('a parsable allowed command still exits 0', async () => {
    const r = await cli(['check', 'echo hi > out.txt'], WT);
    expect(r.stdout.split('\n')[0]).toBe('ALLOW');
    expect(r.code).toBe(0);
  });
});

describe('reads that would block', () => {
  const fifo = join(T, 'fifo');
  beforeAll(() => execFileSync('mkfifo', [fifo]));

  it('check -f FIFO is refused in one line, exit 2', async () => {
    const r = await cli(['check', '--file', fifo], WT);
    expect(r.stderr).toBe(`bashguard: cannot read ${fifo}: a FIFO, not a regular file; not read\n`);
    expect(r.code).toBe(2);
  });

  it('lint FIFO is refused in one line, exit 2, no report', async () => {
    const r = await cli(['lint', fifo], WT);
    expect(r.stderr).toMatch(/^bashguard: .*fifo: a FIFO, not a regular file; not read/);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(2);
  });
});

describe('lint on files it cannot lint', () => {
  it('a missing file: the error on stderr, nothing on stdout, exit 2', async () => {
    const r = await cli(['lint', join(T, 'missing.sh')], WT);
    expect(r.stderr).toBe(`bashguard: ${join(T, 'missing.sh')}: no such file or directory\n`);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(2);
  });

  it("a file with NUL and escape bytes: the frame shows no control character", async () => {
    const f = join(WT, 'nul.sh');
    writeFileSync(f, 'echo a\0b \x1b[31mred > /x\n');
    const r = await cli(['lint', f], WT);
    expect(r.stdout).toContain('binary file');
    expect(r.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(r.stdout).toContain('echo a\u2400b \u241b[31mred');
    expect(r.code).toBe(1); // the finding (an error): lint's exit code for findings
  });
});

describe('install --managed without the right to write', () => {
  it('one line naming the file and the reason, exit 2', (ctx) => {
    const bin = join(REPO_ROOT, 'bin', 'bashguard.js');
    const dir = join(T, 'root-only');
    mkdirSync(dir);
    chmodSync(dir, 0o555); // nobody (run as root) and a non-root runner alike cannot write in it
    const target = join(dir, 'sub', 'managed-settings.json');
    const args = [bin, 'install', '--managed', '--managed-path', target];
    const asUser = process.getuid?.() === 0 ? spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, ...args], { encoding: 'utf8', cwd: '/', env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: '/nonexistent' } }) : null;
    if (asUser?.error || (asUser && /runuser: /.test(asUser.stderr))) return ctx.skip(cannotRun(`cannot run as nobody here: ${asUser.error?.message ?? asUser.stderr.trim()}`));
    if (asUser && /Cannot find module/.test(asUser.stderr)) return ctx.skip(cannotRun(`nobody cannot read the checkout at ${REPO_ROOT} (a private parent directory)`));
    const r = asUser ?? spawnSync(process.execPath, args, { encoding: 'utf8', cwd: '/', env: { PATH: '/usr/bin:/bin', HOME: '/nonexistent' } });
    expect(r.stderr).toBe(`bashguard: cannot write ${target}: permission denied (run as a user who may write it: root for --managed)\n`);
    expect(r.status).toBe(2);
  });
});

describe('evidence names what changed the directory', () => {
  it('`git -C ../..` is cited as git -C, not as a cd', async () => {
    const r = await cli(['check', '--json', 'git -C ../.. commit -m x'], WT);
    const j = JSON.parse(r.stdout) as { findings: { rule: string; evidence: { note: string }[] }[] };
    const notes = j.findings.flatMap((f) => f.evidence.map((e) => e.note));
    expect(notes).toContain(`git's directory became ${MAIN} at \`git -C ../..\` (1:1)`);
    expect(notes.join('\n')).not.toContain('`cd ../..`');
  });

  it('a real `cd ../..` is still cited as one', async () => {
    const r = await cli(['check', '--json', 'cd ../.. && git commit -m x'], WT);
    const j = JSON.parse(r.stdout) as { findings: { evidence: { note: string }[] }[] };
    expect(j.findings.flatMap((f) => f.evidence.map((e) => e.note))).toContain(`cwd became ${MAIN} at \`cd ../..\` (1:1)`);
  });
});

describe('logs --json', () => {
  it('keeps the whole reason the hook gave, every line of it', async () => {
    const state = join(T, 'state');
    const event = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: WT, tool_name: 'Bash', tool_input: { command: 'git -C ../.. commit -m x' } });
    const out: string[] = [];
    const io: IO = { stdout: (t) => void out.push(t), stderr: () => undefined, readStdin: async () => event, env: { HOME, PATH: '/usr/bin:/bin', XDG_STATE_HOME: state }, cwd: WT, isTTY: false };
    expect(await run(['hook'], io)).toBe(0);
    const given = (JSON.parse(out.join('')) as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason;
    expect(given.split('\n').length).toBeGreaterThan(1);
    const logs = await cli(['logs', '--json'], WT, { XDG_STATE_HOME: state });
    const records = logs.stdout.trim().split('\n').map((l) => JSON.parse(l) as { reason: string });
    expect(records.map((r) => r.reason)).toEqual([given]);
  });
});

describe('project installs where they guard nothing or little', () => {
  it.each(['claude', 'codex', 'gemini', 'cursor', 'copilot'])('%s: install outside a git checkout is refused and writes nothing', async (agent) => {
    const plain = join(T, `plain-${agent}`);
    mkdirSync(plain);
    const r = await cli(['install', '--agent', agent], plain);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^bashguard: ${plain} is not inside a git checkout: a project install would write ${plain}/\\S+, and the hook allows every call outside a checkout\\.`));
    expect(r.stderr.split('\n').length).toBe(2);
    expect(readdirSync(plain)).toEqual([]);
  });

  it.each(['codex', 'gemini', 'cursor'])('%s: install in a linked worktree is refused without --project, as for Claude Code', async (agent) => {
    const r = await cli(['install', '--agent', agent], WT);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/this is the linked worktree .* read only by sessions in this worktree: NOT by the main checkout/);
    expect(r.stderr).toContain(`bashguard install --agent ${agent} --user`);
    expect(readdirSync(WT).filter((n) => n.startsWith('.') && n !== '.git')).toEqual([]);
    const forced = await cli(['install', '--agent', agent, '--project'], WT);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toMatch(/^bashguard: note: this is the linked worktree /);
    expect((await cli(['uninstall', '--agent', agent], WT)).code).toBe(0);
  });

  it.each(['claude', 'codex'])('%s: a bare uninstall in a worktree says the user-level hook stays active', async (agent) => {
    const home = join(T, `home-${agent}`);
    mkdirSync(home);
    expect((await cli(['install', '--agent', agent, '--user'], WT, { HOME: home })).code).toBe(0);
    const r = await cli(['uninstall', '--agent', agent], WT, { HOME: home });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`note: bashguard's hook in ${home}/\\S+ stays active for every checkout`));
    expect((await cli(['uninstall', '--agent', agent, '--user'], WT, { HOME: home })).code).toBe(0);
    const after = await cli(['uninstall', '--agent', agent], WT, { HOME: home });
    expect(after.stdout).not.toContain('stays active');
  });
});

describe('doctor outside a git checkout', () => {
  it("fails on a project hook left there (an older install's), passes without one", async () => {
    const plain = join(T, 'plain-doctor');
    mkdirSync(join(plain, '.claude'), { recursive: true });
    const clean = await cli(['doctor', '--json'], plain);
    const layoutOf = (out: string) => (JSON.parse(out) as { checks: { ok: boolean; label: string; detail: string }[] }).checks.find((c) => c.label === 'layout here')!;
    expect(layoutOf(clean.stdout).ok).toBe(true);
    writeFileSync(join(plain, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/opt/bashguard/bin/bashguard-hook' }] }] } }));
    const r = await cli(['doctor', '--json'], plain);
    expect(layoutOf(r.stdout)).toMatchObject({ ok: false });
    expect(layoutOf(r.stdout).detail).toContain(`${plain}/.claude/settings.json holds a bashguard hook: it guards nothing here`);
    expect(r.code).toBe(1);
  });
});
