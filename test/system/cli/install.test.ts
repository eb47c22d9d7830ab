/**
 * `install` / `uninstall` / `doctor` (src/frontends/cli/install.ts) through `run(argv, io)`, on temporary
 * HOME and project directories: merge into existing settings keeping every other key, hook and
 * matcher; idempotent; uninstall removes only ours; invalid settings give one line and exit 2
 * without touching the file; doctor is healthy after install and reports both parsers.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, readdirSync, statSync, symlinkSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../../src/frontends/cli/main.js';
import type { IO } from '../../../src/frontends/io.js';
import { MATCHER, directHookSpec, execFormText, hookCommand, versionAtLeast } from '../../../src/frontends/cli/install.js';
import { REPO_ROOT, addonOrSkip } from '../../helpers/shared.js';

const T = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-install-')));
let home: string;
let project: string;
let n = 0;

afterAll(() => rmSync(T, { recursive: true, force: true }));

beforeEach(() => {
  fakeClaude(null);
  n++;
  home = join(T, `home${n}`);
  project = join(T, `project${n}`);
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  execFileSync('git', ['init', '-q', project], { env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: home } });
});

/**
 * A directory first on the tests' PATH, with a `claude` in it only where a test puts one: install
 * picks the hook's form from the Claude Code version it finds there (src/frontends/cli/install.ts
 * chooseClaudeForm), so a client on the machine running the tests must not decide it.
 */
const FAKE_BIN = join(T, 'bin');
mkdirSync(FAKE_BIN);
const PATH = `${FAKE_BIN}:/usr/bin:/bin`;
/** Puts a `claude` on the tests' PATH that reports `version` (null: none). */
function fakeClaude(version: string | null): void {
  const f = join(FAKE_BIN, 'claude');
  rmSync(f, { force: true });
  if (version === null) return;
  writeFileSync(f, `#!/bin/sh\n[ "$1" = --version ] && echo "${version} (Claude Code)"\n`);
  chmodSync(f, 0o755);
}

async function cli(argv: string[], cwd = project, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: IO = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), readStdin: async () => '', env: { HOME: home, PATH, ...env }, cwd, isTTY: false };
  const code = await run(argv, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const projectSettings = () => join(project, '.claude', 'settings.json');
const userSettings = () => join(home, '.claude', 'settings.json');
const read = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as Record<string, any>;
const write = (f: string, v: unknown) => {
  mkdirSync(join(f, '..'), { recursive: true });
  writeFileSync(f, typeof v === 'string' ? v : JSON.stringify(v, null, 2));
};

const EXISTING = {
  model: 'opus',
  permissions: { allow: ['Bash(ls:*)'] },
  hooks: {
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: '/usr/local/bin/other-guard' }] },
      { matcher: 'Read', hooks: [{ type: 'command', command: 'audit-read' }] },
    ],
    PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'fmt' }] }],
  },
};

function ours(settings: Record<string, any>): { matcher: string; command: string }[] {
  return (settings.hooks?.PreToolUse ?? []).flatMap((e: any) => (e.hooks ?? []).filter((h: any) => /bashguard(\.js)?['"]? hook\b|bashguard-hook\b/.test(h.command)).map((h: any) => ({ matcher: e.matcher, command: h.command })));
}

describe('install', () => {
  it('--project creates <project>/.claude/settings.json with one entry', async () => {
    const r = await cli(['install', '--project']);
    expect(r.code, r.stderr).toBe(0);
    const s = read(projectSettings());
    expect(ours(s)).toEqual([{ matcher: MATCHER, command: hookCommand() }]);
    expect(s.hooks.PreToolUse[0].hooks[0]).toMatchObject({ type: 'command', timeout: 30 });
    expect(MATCHER.split('|').sort()).toEqual(['Bash', 'Edit', 'MultiEdit', 'NotebookEdit', 'Write']);
  });

  it('the default scope is the project; from a subdirectory it finds the checkout root', async () => {
    mkdirSync(join(project, 'a', 'b'), { recursive: true });
    expect((await cli(['install'], join(project, 'a', 'b'))).code).toBe(0);
    expect(existsSync(projectSettings())).toBe(true);
    expect(existsSync(join(project, 'a', 'b', '.claude'))).toBe(false);
  });

  it('--user writes $HOME/.claude/settings.json', async () => {
    expect((await cli(['install', '--user'])).code).toBe(0);
    expect(ours(read(userSettings()))).toHaveLength(1);
    expect(existsSync(projectSettings())).toBe(false);
  });

  it('merges into existing settings keeping other keys, hooks and matchers', async () => {
    write(projectSettings(), EXISTING);
    expect((await cli(['install', '--project'])).code).toBe(0);
    const s = read(projectSettings());
    expect(s.model).toBe('opus');
    expect(s.permissions).toEqual(EXISTING.permissions);
    expect(s.hooks.PostToolUse).toEqual(EXISTING.hooks.PostToolUse);
    expect(s.hooks.PreToolUse.slice(0, 2)).toEqual(EXISTING.hooks.PreToolUse);
    expect(ours(s)).toHaveLength(1);
  });

  it('is idempotent: a second run changes nothing, byte for byte', async () => {
    write(projectSettings(), EXISTING);
    await cli(['install', '--project']);
    const before = readFileSync(projectSettings(), 'utf8');
    const r = await cli(['install', '--project']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/already installed/);
    expect(readFileSync(projectSettings(), 'utf8')).toBe(before);
  });

  it('replaces a stale bashguard entry (old path) instead of adding a second one', async () => {
    write(projectSettings(), { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/old/node /old/bashguard/bin/bashguard.js hook' }, { type: 'command', command: 'keep-me' }] }] } });
    await cli(['install', '--project']);
    const s = read(projectSettings());
    expect(ours(s)).toEqual([{ matcher: MATCHER, command: hookCommand() }]);
    expect(JSON.stringify(s)).toContain('keep-me');
    expect(JSON.stringify(s)).not.toContain('/old/bashguard');
  });

  it('--dry-run prints the merged settings and writes nothing', async () => {
    write(projectSettings(), EXISTING);
    const before = readFileSync(projectSettings(), 'utf8');
    const r = await cli(['install', '--project', '--dry-run']);
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout) as Record<string, any>;
    expect(ours(printed)).toHaveLength(1);
    expect(printed.model).toBe('opus');
    expect(readFileSync(projectSettings(), 'utf8')).toBe(before);
    const fresh = await cli(['install', '--user', '--dry-run']);
    expect(ours(JSON.parse(fresh.stdout) as Record<string, any>)).toHaveLength(1);
    expect(existsSync(userSettings())).toBe(false);
  });

  it.each([
    ['{ not json', /not valid JSON/],
    ['[1, 2]', /top level is not a JSON object/],
  ])('invalid settings %j: one-line error, exit 2, file untouched', async (text, re) => {
    write(projectSettings(), text);
    const r = await cli(['install', '--project']);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(re);
    expect(r.stderr).toContain(projectSettings());
    expect(readFileSync(projectSettings(), 'utf8')).toBe(text);
    const u = await cli(['uninstall', '--project']);
    expect(u.code).toBe(2);
    expect(readFileSync(projectSettings(), 'utf8')).toBe(text);
  });

  it('--user and --project together is a usage error', async () => {
    const r = await cli(['install', '--user', '--project']);
    expect(r.code).toBe(2);
    expect(existsSync(projectSettings())).toBe(false);
    expect(existsSync(userSettings())).toBe(false);
  });
});

describe('uninstall', () => {
  it('removes only our entry and keeps everything else', async () => {
    write(projectSettings(), EXISTING);
    await cli(['install', '--project']);
    const r = await cli(['uninstall', '--project']);
    expect(r.code).toBe(0);
    expect(read(projectSettings())).toEqual(EXISTING);
  });

  it('removes the hooks key when ours was the only hook; other keys stay', async () => {
    write(projectSettings(), { model: 'x' });
    await cli(['install', '--project']);
    await cli(['uninstall', '--project']);
    expect(read(projectSettings())).toEqual({ model: 'x' });
  });

  it('leaves no trace: a settings file install created and the .claude/ around it are deleted', async () => {
    expect((await cli(['install', '--project'])).code).toBe(0);
    expect(existsSync(projectSettings())).toBe(true);
    const r = await cli(['uninstall', '--project']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/held nothing else and was deleted/);
    expect(existsSync(join(project, '.claude'))).toBe(false);
  });

  it('a .claude/ with other files stays; only the emptied settings file goes', async () => {
    write(join(project, '.claude', 'commands', 'x.md'), 'keep');
    await cli(['install', '--project']);
    await cli(['uninstall', '--project']);
    expect(existsSync(projectSettings())).toBe(false);
    expect(readFileSync(join(project, '.claude', 'commands', 'x.md'), 'utf8')).toBe('keep');
  });

  it("the exec form's launcher goes once no settings here names it, and stays while one does", async () => {
    fakeClaude('2.1.330');
    expect((await cli(['install', '--user', '--hook-form', 'direct'])).code).toBe(0);
    expect((await cli(['install', '--project', '--hook-form', 'direct'])).code).toBe(0);
    const launcher = ours(read(userSettings()))[0]!.command;
    expect(existsSync(launcher)).toBe(true);
    // The project still names it: it stays.
    await cli(['uninstall', '--user']);
    expect(existsSync(launcher)).toBe(true);
    expect(existsSync(userSettings())).toBe(false);
    const last = await cli(['uninstall', '--project']);
    expect(last.stdout).toMatch(/removed the hook's launcher/);
    expect(existsSync(launcher)).toBe(false);
    expect(existsSync(join(home, '.claude'))).toBe(false);
  });

  it('is idempotent and harmless when not installed or no file', async () => {
    const none = await cli(['uninstall', '--user']);
    expect(none.code).toBe(0);
    expect(existsSync(userSettings())).toBe(false);
    write(projectSettings(), EXISTING);
    const before = readFileSync(projectSettings(), 'utf8');
    const r = await cli(['uninstall', '--project']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/was not installed/);
    expect(readFileSync(projectSettings(), 'utf8')).toBe(before);
  });
});

describe('doctor', () => {
  it('exit 0 on a healthy install, reporting both parsers, the grammar, the self-test and the settings', async () => {
    await cli(['install', '--project']);
    const r = await cli(['doctor']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^ok\s+parser native\s+loads and parses/m);
    expect(r.stdout).toMatch(/^ok\s+parser wasm\s+loads and parses/m);
    expect(r.stdout).toMatch(/^ok\s+grammar checksum\s+[0-9a-f]{64}/m);
    expect(r.stdout).toMatch(/^ok\s+self-test/m);
    expect(r.stdout).toMatch(new RegExp(`^ok\\s+project settings\\s+${projectSettings().replace(/[.]/g, '\\.')}: installed`, 'm'));
    expect(r.stdout).not.toMatch(/^FAIL/m);
    // The hook's time limit: the kernel's timer when bashguard's addon is built, else `timeout`.
    const addon = existsSync(join(REPO_ROOT, 'build', 'Release', 'bashguard_tree.node')) && process.platform !== 'win32';
    expect(r.stdout).toMatch(addon ? /^ok\s+hook time limit\s+the kernel's interval timer/m : /^ok\s+hook time limit\s+(\S*timeout stops|warning)/m);
  });

  it('exit 1 when the installed command points at a missing script', async () => {
    write(projectSettings(), { hooks: { PreToolUse: [{ matcher: MATCHER, hooks: [{ type: 'command', command: `/usr/bin/node ${T}/gone/bin/bashguard.js hook` }] }] } });
    const r = await cli(['doctor']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL\s+project settings.*does not exist/m);
  });

  it.each(['source', 'exec'] as const)('exit 1 when the command install writes (%s form) names a script or a node that is gone', async (form) => {
    const gone = `${T}/gone/bin/bashguard-hook`;
    for (const [command, problem] of [
      [hookCommand([], form).replace(/\S*\/bin\/bashguard-hook/, gone), `command points at ${gone}, which does not exist`],
      [hookCommand([], form).replace(`BASHGUARD_NODE=${process.execPath}`, `BASHGUARD_NODE=${T}/gone/node`), `BASHGUARD_NODE=${T}/gone/node does not exist`],
    ]) {
      write(projectSettings(), { hooks: { PreToolUse: [{ matcher: MATCHER, hooks: [{ type: 'command', command, onFailure: 'block' }] }] } });
      const r = await cli(['doctor']);
      expect(r.code, command).toBe(1);
      expect(r.stdout).toContain(problem);
    }
  });

  it('exit 1 when the settings file is not valid JSON', async () => {
    write(projectSettings(), '{');
    const r = await cli(['doctor']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL\s+project settings.*not valid JSON/m);
  });
});

describe("Claude Code's exec form (the client runs node itself)", () => {
  const entry = (f: string) => read(f).hooks.PreToolUse.flatMap((e: any) => e.hooks) as Record<string, unknown>[];
  const ADDON = addonOrSkip("install's exec form (the launcher needs the addon)") === null;

  it('compares versions numerically', () => {
    expect(versionAtLeast('2.1.295', '2.1.295')).toBe(true);
    expect(versionAtLeast('2.1.330', '2.1.295')).toBe(true);
    expect(versionAtLeast('2.1.85', '2.1.295')).toBe(false);
    expect(versionAtLeast('2.2.0', '2.1.295')).toBe(true);
    expect(versionAtLeast('10.0.0', '2.1.295')).toBe(true);
    expect(versionAtLeast('2.1.294', '2.1.295')).toBe(false);
  });

  const launcher = () => join(home, '.claude', 'hooks', readdirSync(join(home, '.claude', 'hooks')).find((f) => f.startsWith('bashguard-hook-'))!);

  it.skipIf(!ADDON)('auto: the exec form for a Claude Code 2.1.295 or later on PATH: the launcher in ~/.claude/hooks, and says why', async () => {
    fakeClaude('2.1.330');
    const r = await cli(['install', '--project']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("exec form: Claude Code 2.1.330 runs the hook's node itself, no shell");
    expect(entry(projectSettings())).toEqual([{ type: 'command', command: launcher(), args: [], timeout: 30, onFailure: 'block' }]);
    expect(directHookSpec({ HOME: home })).toEqual({ command: launcher(), args: [] });
    expect(readFileSync(launcher(), 'utf8')).toBe(execFormText());
    expect(statSync(launcher()).mode & 0o777).toBe(0o755);
    const d = await cli(['doctor']);
    expect(d.stdout).toMatch(/^ok\s+project settings\s+\S+: installed$/m);
    expect(d.stdout).toMatch(/^ok\s+hook effective/m);
  });

  it.each([
    ['2.1.294', /shell form: Claude Code 2.1.294 predates "onFailure" \(2.1.295\)/],
    ['2.1.85', /shell form: Claude Code 2.1.85 predates/],
    [null, /shell form: no `claude` on PATH/],
  ])('auto: the shell form for Claude Code %s', async (version, why) => {
    fakeClaude(version);
    const r = await cli(['install', '--project']);
    expect(r.stdout).toMatch(why);
    expect(entry(projectSettings())).toEqual([{ type: 'command', command: hookCommand(), timeout: 30, onFailure: 'block' }]);
    expect(existsSync(join(home, '.claude', 'hooks'))).toBe(false);
  });

  it('--hook-form direct and shell override what is found; --dry-run writes no launcher; a bad value is a usage error', async () => {
    fakeClaude('2.1.85');
    const dry = await cli(['install', '--project', '--hook-form', 'direct', '--dry-run']);
    expect(JSON.parse(dry.stdout).hooks.PreToolUse[0].hooks[0]).toMatchObject(directHookSpec({ HOME: home })!);
    expect(existsSync(join(home, '.claude', 'hooks'))).toBe(false);
    expect((await cli(['install', '--project', '--hook-form', 'direct'])).code).toBe(0);
    expect(entry(projectSettings())[0]).toMatchObject({ command: launcher(), args: [] });
    fakeClaude('2.1.330');
    const back = await cli(['install', '--project', '--hook-form', 'shell']);
    // Switching forms updates the one entry in place and says what changed.
    expect(back.stdout).toMatch(/^updated the bashguard hook \(command .*; args \[\] -> none\)/);
    expect(entry(projectSettings())).toEqual([{ type: 'command', command: hookCommand(), timeout: 30, onFailure: 'block' }]);
    const bad = await cli(['install', '--hook-form', 'fast']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--hook-form/);
    expect((await cli(['install', '--agent', 'codex', '--hook-form', 'direct'])).stderr).toMatch(/--hook-form is for Claude Code only/);
  });

  it('a launcher that cannot be written: the shell form (auto), a usage error (--hook-form direct)', async () => {
    fakeClaude('2.1.330');
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(home, '.claude', 'hooks'), 'not a directory');
    const r = await cli(['install', '--project']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/shell form: cannot write \S+bashguard-hook-\w+\.cjs \((a part of the path is not a directory|already exists)\)/);
    expect(entry(projectSettings())).toEqual([{ type: 'command', command: hookCommand(), timeout: 30, onFailure: 'block' }]);
    const forced = await cli(['install', '--project', '--hook-form', 'direct']);
    expect(forced.code).toBe(2);
    expect(forced.stderr).toMatch(/^bashguard: --hook-form direct: cannot write /);
  });

  it('uninstall removes an exec-form entry and keeps the others', async () => {
    write(projectSettings(), EXISTING);
    expect((await cli(['install', '--project', '--hook-form', 'direct'])).code).toBe(0);
    expect((await cli(['uninstall', '--project'])).code).toBe(0);
    expect(read(projectSettings()).hooks).toEqual(EXISTING.hooks);
  });

  it('doctor fails an exec-form entry whose launcher, node or entry is gone, that lacks "onFailure": "block", or that a Claude Code on PATH is too old for', async () => {
    fakeClaude('2.1.330');
    expect((await cli(['install', '--project', '--hook-form', 'direct'])).code).toBe(0);
    const file = launcher();
    const text = readFileSync(file, 'utf8');
    const withHook = (hook: Record<string, unknown>) => write(projectSettings(), { hooks: { PreToolUse: [{ matcher: MATCHER, hooks: [{ type: 'command', args: [], ...hook }] }] } });
    const cases: [() => void, RegExp][] = [
      [() => withHook({ command: `${T}/gone/bashguard-hook-x`, onFailure: 'block' }), /command \S+\/gone\/bashguard-hook-x is not an executable that exists/],
      [() => writeFileSync(file, text.replace(`#!${process.execPath} `, `#!${T}/gone/node `)), /runs \S+\/gone\/node, which is not an executable that exists/],
      [() => writeFileSync(file, text.replace(/const start = "[^"]*"/, `const start = ${JSON.stringify(`${T}/gone/dist/hook-start.cjs`)}`)), /starts \S+\/gone\/dist\/hook-start.cjs, which does not exist/],
      [() => withHook({ command: file }), /without "onFailure": "block"/],
      // A launcher that runs but does not run the hook: doctor runs it as the client would.
      [() => writeFileSync(file, text.replace("process.argv = [", "process.exit(3); process.argv = [")), /bashguard-hook-\w+\.cjs did not run the hook \(exit 3\)/],
    ];
    for (const [breakIt, problem] of cases) {
      withHook({ command: file, onFailure: 'block' });
      writeFileSync(file, text);
      breakIt();
      const r = await cli(['doctor']);
      expect(r.code, problem.source).toBe(1);
      expect(r.stdout).toMatch(problem);
    }
    withHook({ command: file, onFailure: 'block' });
    writeFileSync(file, text);
    expect((await cli(['doctor'])).code).toBe(0);
    fakeClaude('2.1.200');
    expect((await cli(['doctor'])).stdout).toMatch(/^FAIL\s+project settings.*needs Claude Code 2.1.295 or later, and \S+ is 2.1.200, which ignores "onFailure"/m);
  });
});

describe('issue #12: every session covered', () => {
  const gitIn = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
  const withWorktree = () => {
    writeFileSync(join(project, 'f'), 'x');
    gitIn(project, 'add', 'f');
    gitIn(project, 'commit', '-q', '-m', 'i');
    const wt = join(project, '.claude', 'worktrees', 'w1');
    gitIn(project, 'worktree', 'add', '-q', '-b', 'w1', wt);
    return wt;
  };

  it('install writes "onFailure": "block" on the hook entry', async () => {
    await cli(['install', '--user']);
    const entry = read(userSettings()).hooks.PreToolUse.at(-1);
    expect(entry.hooks[0]).toMatchObject({ type: 'command', onFailure: 'block' });
  });

  it('install keeps a symlinked settings file a symlink, writing its target, and keeps its mode', async () => {
    const real = join(T, `dotfiles${n}`, 'claude-settings.json');
    write(real, EXISTING);
    chmodSync(real, 0o640);
    mkdirSync(join(home, '.claude'), { recursive: true });
    symlinkSync(real, userSettings());
    expect((await cli(['install', '--user'])).code).toBe(0);
    expect(lstatSync(userSettings()).isSymbolicLink()).toBe(true);
    expect(ours(read(real))).toHaveLength(1);
    expect(read(real).model).toBe('opus');
    expect(statSync(real).mode & 0o777).toBe(0o640);
  });

  it('install --project in a main checkout names the linked worktrees it does not reach', async () => {
    const wt = withWorktree();
    const r = await cli(['install', '--project']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/NOT covered/);
    expect(r.stdout).toContain(wt);
    expect(r.stdout).toContain('install --user');
  });

  it('doctor in a worktree fails when only the main checkout has the hook, passes with a user install', async () => {
    const wt = withWorktree();
    await cli(['install', '--project']);
    const there = await cli(['doctor'], wt);
    expect(there.code).toBe(1);
    expect(there.stdout).toMatch(/^FAIL\s+hook effective\s+no:/m);
    await cli(['install', '--user']);
    const after = await cli(['doctor'], wt);
    expect(after.code, after.stdout).toBe(0);
    expect(after.stdout).toMatch(/^ok\s+hook effective\s+yes/m);
  });

  it('doctor fails when a layer sets disableAllHooks (the local settings of the worktree)', async () => {
    const wt = withWorktree();
    await cli(['install', '--user']);
    write(join(wt, '.claude', 'settings.local.json'), { disableAllHooks: true });
    const r = await cli(['doctor'], wt);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL\s+hook effective\s+no: disableAllHooks is set in .*settings\.local\.json/m);
  });

  it('doctor names each lower layer that sets env the hook reads or turns the sandbox off, and fails', async () => {
    const wt = withWorktree();
    await cli(['install', '--user']);
    expect((await cli(['doctor'], wt)).code).toBe(0);
    // `.claude` a symlink to a directory the agent owns: doctor reads the layers where the client does.
    const owned = join(T, `owned${n}`);
    mkdirSync(owned);
    symlinkSync(owned, join(wt, '.claude'));
    write(join(owned, 'settings.local.json'), { env: { BASHGUARD_CONFIG: join(wt, 'mine.json'), NODE_OPTIONS: '--require x', EDITOR: 'vi' } });
    write(join(owned, 'settings.json'), { sandbox: { enabled: false, allowUnsandboxedCommands: true } });
    const r = await cli(['doctor'], wt);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL\s+local settings\s+\S*settings\.local\.json loosens the guard: env BASHGUARD_CONFIG, NODE_OPTIONS \(read by the hook\)/m);
    expect(r.stdout).not.toMatch(/EDITOR/);
    expect(r.stdout).toMatch(/^FAIL\s+project settings\s+\S*settings\.json loosens the guard: sandbox\.enabled: false; sandbox\.allowUnsandboxedCommands: true/m);
  });

  it('doctor fails when BASHGUARD_CONFIG names a file the agent can write (the hook ignores it)', async () => {
    const wt = withWorktree();
    await cli(['install', '--user']);
    write(join(wt, 'mine.json'), { rules: { BG1002: 'off' } });
    const r = await cli(['doctor'], wt, { BASHGUARD_CONFIG: join(wt, 'mine.json') });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`^FAIL\\s+config\\s+BASHGUARD_CONFIG=${join(wt, 'mine.json').replace(/[.]/g, '\\.')} ignored: .* lies in the worktree`, 'm'));
  });

  it('install --managed writes the managed settings (hook, and allowManagedHooksOnly when asked); doctor reads that layer', async () => {
    const managed = join(T, `managed${n}`, 'managed-settings.json');
    mkdirSync(join(T, `managed${n}`));
    write(managed, { model: 'opus' });
    expect((await cli(['install', '--managed-hooks-only'])).code).toBe(2);
    const r = await cli(['install', '--managed', '--managed-path', managed, '--managed-hooks-only']);
    expect(r.code, r.stderr).toBe(0);
    const s = read(managed);
    expect(ours(s)).toHaveLength(1);
    expect(s.allowManagedHooksOnly).toBe(true);
    expect(s.model).toBe('opus');
    // Nothing in the user's settings.
    expect(existsSync(userSettings())).toBe(false);
    const entry = s.hooks.PreToolUse[0].hooks[0];
    // The exec form's launcher sits beside the managed file, out of the user's ~/.claude/hooks.
    if (Array.isArray(entry.args)) expect(entry.command.startsWith(join(T, `managed${n}`) + '/')).toBe(true);
    // Without the flag, allowManagedHooksOnly is not set; idempotent.
    const plain = join(T, `managed${n}`, 'plain.json');
    await cli(['install', '--managed', '--managed-path', plain]);
    expect(read(plain).allowManagedHooksOnly).toBeUndefined();
    expect((await cli(['install', '--managed', '--managed-path', plain])).stdout).toMatch(/already installed/);
    // doctor, with the managed file pointed at for the test: the managed layer is effective.
    const d = await cli(['doctor'], project, { BASHGUARD_MANAGED_SETTINGS: managed });
    expect(d.stdout).toMatch(/^ok\s+managed settings\s+\S*managed-settings\.json: installed/m);
    expect(d.stdout).toMatch(/^ok\s+hook effective\s+yes/m);
    expect((await cli(['uninstall', '--managed', '--managed-path', plain])).code).toBe(0);
    // install created that file and it holds nothing else: uninstall leaves no trace of it.
    expect(existsSync(plain)).toBe(false);
    expect((await cli(['uninstall', '--managed', '--managed-path', managed])).code).toBe(0);
    expect(ours(read(managed))).toHaveLength(0);
    expect(read(managed).model).toBe('opus');
  });

  it('doctor prints the config notices of a worktree .bashguard.json that tries to loosen', async () => {
    const wt = withWorktree();
    await cli(['install', '--user']);
    write(join(wt, '.bashguard.json'), { rules: { BG1002: 'off' } });
    const r = await cli(['doctor'], wt);
    expect(r.stdout).toMatch(/config notice.*rules\.BG1002: off ignored/);
  });
});
