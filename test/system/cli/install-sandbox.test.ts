/**
 * `install --enforce client` / `uninstall` (src/frontends/cli/client-sandbox.ts) through
 * `run(argv, io)` on temporary HOMEs: the sandbox block merged into existing Claude Code settings
 * (every other key and list entry kept), `"enforce": "client"` in bashguard's user config,
 * idempotent, and uninstall restoring both files exactly; doctor's enforcement line names the
 * network rule and whether project settings can still loosen the sandbox.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../../src/frontends/cli/main.js';
import type { IO } from '../../../src/frontends/io.js';
import { layerLoosens } from '../../../src/frontends/cli/install.js';
import { clientSandboxSettings } from '../../../src/layers/sandbox/enforce.js';

const T = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-install-sandbox-')));
let home: string;
let project: string;
let n = 0;
afterAll(() => rmSync(T, { recursive: true, force: true }));
beforeEach(() => {
  n++;
  home = join(T, `home${n}`);
  project = join(T, `project${n}`);
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  execFileSync('git', ['init', '-q', project], { env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: home } });
});

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  // (no `claude` on PATH: install picks the shell form without asking one)
  const io: IO = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), readStdin: async () => '', env: { HOME: home, PATH: '/usr/bin:/bin' }, cwd: project, isTTY: false };
  const code = await run(argv, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const settingsFile = () => join(home, '.claude', 'settings.json');
const configFile = () => join(home, '.config', 'bashguard', 'config.json');
const write = (f: string, v: unknown) => {
  mkdirSync(dirname(f), { recursive: true });
  writeFileSync(f, JSON.stringify(v, null, 2) + '\n');
};
const read = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as Record<string, any>;

describe('install --enforce client', () => {
  it('merges the sandbox block into existing settings, keeping every other key and entry, and sets "enforce": "client"', async () => {
    const original = { model: 'opus', sandbox: { enabled: false, excludedCommands: ['docker'], filesystem: { denyWrite: ['/srv/x'] }, network: { allowedDomains: ['example.com'] } } };
    write(settingsFile(), original);
    write(configFile(), { rules: { BG1002: 'error' } });
    const r = await cli(['install', '--user', '--enforce', 'client']);
    expect(r.code, r.stderr).toBe(0);
    const s = read(settingsFile());
    expect(s.model).toBe('opus');
    expect(s.hooks.PreToolUse).toHaveLength(1);
    expect(s.sandbox).toMatchObject({ enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false, excludedCommands: ['docker'] });
    expect(s.sandbox.filesystem.denyWrite[0]).toBe('/srv/x');
    expect(s.sandbox.filesystem.denyWrite).toEqual(expect.arrayContaining([join(home, '.claude'), join(home, '.claude.json'), join(home, '.config', 'bashguard'), join(home, '.cache', 'bashguard'), join(home, '.local', 'state', 'bashguard')]));
    expect(s.sandbox.filesystem.allowWrite).toEqual([join(home, '.npm'), join(home, '.cache')]);
    expect(s.sandbox.network.allowedDomains).toEqual(['example.com', '*']);
    expect(read(configFile())).toEqual({ rules: { BG1002: 'error' }, enforce: 'client' });
    expect(r.stdout).toMatch(/set "enforce": "client" in/);
    expect(r.stdout).toMatch(/network: every host through Claude Code's proxy/);
    expect(r.stdout).toMatch(/enforcement: Claude Code's own sandbox/);
  });

  it('is idempotent, and uninstall restores both files exactly (a value it replaced comes back)', async () => {
    const original = { model: 'opus', sandbox: { enabled: false, filesystem: { denyWrite: ['/srv/x'] } } };
    write(settingsFile(), original);
    write(configFile(), { enforce: 'off' });
    expect((await cli(['install', '--user', '--enforce', 'client'])).code).toBe(0);
    const once = readFileSync(settingsFile(), 'utf8');
    const again = await cli(['install', '--user', '--enforce', 'client']);
    expect(again.stdout).toMatch(/already installed/);
    expect(again.stdout).toMatch(/the sandbox settings were already in/);
    expect(readFileSync(settingsFile(), 'utf8')).toBe(once);
    expect(read(configFile())).toEqual({ enforce: 'client' });
    const u = await cli(['uninstall', '--user']);
    expect(u.code, u.stderr).toBe(0);
    expect(read(settingsFile())).toEqual(original);
    expect(read(configFile())).toEqual({ enforce: 'off' });
    expect(existsSync(join(home, '.config', 'bashguard', 'client-sandbox.json'))).toBe(false);
  });

  it('install then uninstall on a fresh HOME leaves no settings and no config behind', async () => {
    expect((await cli(['install', '--user', '--enforce', 'client'])).code).toBe(0);
    expect(read(settingsFile()).sandbox.enabled).toBe(true);
    expect((await cli(['uninstall', '--user'])).code).toBe(0);
    expect(existsSync(settingsFile())).toBe(false);
    expect(existsSync(configFile())).toBe(false);
  });

  it('a value the user changed after install stays on uninstall', async () => {
    expect((await cli(['install', '--user', '--enforce', 'client'])).code).toBe(0);
    const s = read(settingsFile());
    s.sandbox.network.allowedDomains = ['registry.npmjs.org'];
    s.sandbox.failIfUnavailable = false;
    write(settingsFile(), s);
    expect((await cli(['uninstall', '--user'])).code).toBe(0);
    expect(read(settingsFile()).sandbox).toEqual({ failIfUnavailable: false, network: { allowedDomains: ['registry.npmjs.org'] } });
  });

  it('--enforce client needs --user or --managed, and Claude Code', async () => {
    const p = await cli(['install', '--enforce', 'client']);
    expect(p.code).toBe(2);
    expect(p.stderr).toMatch(/--enforce client goes with --user or --managed/);
    expect((await cli(['install', '--user', '--enforce', 'client', '--agent', 'codex'])).code).toBe(2);
    expect((await cli(['install', '--user', '--enforce', 'bwrap'])).code).toBe(2);
    expect(existsSync(settingsFile())).toBe(false);
  });

  it('a "sandbox" that is not an object is left alone, with one line', async () => {
    write(settingsFile(), { sandbox: true });
    const r = await cli(['install', '--user', '--enforce', 'client']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"sandbox" in the settings is not an object; not changing it/);
    expect(read(settingsFile())).toEqual({ sandbox: true });
  });

  it('--managed writes the managed file; doctor then says project settings cannot loosen it', async () => {
    const managed = join(T, `managed${n}`, 'managed-settings.json');
    mkdirSync(dirname(managed));
    const r = await cli(['install', '--managed', '--managed-path', managed, '--enforce', 'client']);
    expect(r.code, r.stderr).toBe(0);
    expect(read(managed).sandbox).toMatchObject({ enabled: true, allowUnsandboxedCommands: false, failIfUnavailable: true });
    // (for every user: HOME's paths spelled with ~, which the client expands for the user it runs as)
    expect(read(managed).sandbox.filesystem.denyWrite).toEqual(expect.arrayContaining(['~/.claude', '~/.claude.json', '~/.config/bashguard']));
    expect(read(managed).sandbox.filesystem.allowWrite).toEqual(['~/.npm', '~/.cache']);
    expect(clientSandboxSettings([{ file: managed, scope: 'managed', settings: read(managed) }]).detail).toMatch(/held by the managed settings/);
    expect((await cli(['uninstall', '--managed', '--managed-path', managed])).code).toBe(0);
    expect(existsSync(managed)).toBe(false);
  });
});

describe("doctor's view of Claude Code's sandbox", () => {
  const on = { enabled: true, allowUnsandboxedCommands: false, failIfUnavailable: true };
  it('names the network rule', () => {
    expect(clientSandboxSettings([{ file: 'u', settings: { sandbox: on } }]).detail).toMatch(/network: none \(no "allowedDomains"/);
    expect(clientSandboxSettings([{ file: 'u', settings: { sandbox: { ...on, network: { allowedDomains: ['*'] } } } }]).detail).toMatch(/network: every host/);
    expect(clientSandboxSettings([{ file: 'u', settings: { sandbox: { ...on, network: { allowedDomains: ['registry.npmjs.org'] } } } }]).detail).toMatch(/network: only 1 domain pattern\(s\) through its proxy \(registry\.npmjs\.org\)/);
    // allowManagedDomainsOnly in managed settings: the user's domains do not count.
    const layers = [
      { file: 'u', scope: 'user' as const, settings: { sandbox: { ...on, network: { allowedDomains: ['*'] } } } },
      { file: 'm', scope: 'managed' as const, settings: { sandbox: { network: { allowManagedDomainsOnly: true } } } },
    ];
    expect(clientSandboxSettings(layers).detail).toMatch(/network: none/);
  });
  it('says whether project settings can still loosen it', () => {
    expect(clientSandboxSettings([{ file: 'u', scope: 'user', settings: { sandbox: on } }]).detail).toMatch(/from user settings only: a project's .* can still turn it off or widen it/);
    expect(clientSandboxSettings([{ file: 'm', scope: 'managed', settings: { sandbox: on } }]).detail).toMatch(/held by the managed settings/);
  });
  it('a project layer that widens the sandbox loosens the guard; the same keys in user settings do not', () => {
    const wide = { sandbox: { filesystem: { allowWrite: ['/'] }, excludedCommands: ['sh *'] } };
    expect(layerLoosens(wide, 'local')).toBe('sandbox.filesystem.allowWrite; sandbox.excludedCommands');
    expect(layerLoosens(wide, 'user')).toBeNull();
  });
  it('doctor after install --user --enforce client reports the sandbox with its network rule', async () => {
    expect((await cli(['install', '--user', '--enforce', 'client'])).code).toBe(0);
    const d = await cli(['doctor']);
    expect(d.stdout).toMatch(/^ok +enforcement +Claude Code's own sandbox .*from user settings only.*network: every host/m);
  });
});
