/**
 * `bashguard doctor --agent codex` (src/frontends/cli/codex-doctor.ts) in a linked worktree, with a
 * HOME and a CODEX_HOME of the test's own: which mechanism holds for Codex sessions there (the
 * wrapper, Codex's own sandbox as its config.toml sets it, both, or none) and its exit code; and
 * `install --agent codex --user` writes $CODEX_HOME/hooks.json where CODEX_HOME is set.
 * The cases that need bubblewrap to start skip, saying why, where it cannot.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../../src/frontends/cli/main.js';
import type { IO } from '../../../src/frontends/io.js';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { bwrapHere } from '../../helpers/bwrap.js';

const { canRun } = bwrapHere('the doctor --agent codex cases with bubblewrap');

let L: GitLayout;
let home: string;
let codexHome: string;

beforeAll(() => {
  L = makeGitLayout('bashguard-codex-doctor-');
  home = join(L.root, 'home');
  codexHome = join(L.root, 'codex-home');
  for (const d of [home, codexHome, join(L.root, 'tmp')]) mkdirSync(d);
});
afterAll(() => L?.cleanup());
let installed: Awaited<ReturnType<typeof cli>>;
beforeAll(async () => {
  installed = await cli(['install', '--agent', 'codex', '--user']);
});

async function cli(args: string[], extra: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { HOME: home, PATH: process.env.PATH, CODEX_HOME: codexHome, TMPDIR: join(L.root, 'tmp'), ...extra };
  const io: IO = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), readStdin: async () => '', env, cwd: L.worktree, isTTY: false };
  const code = await run(args, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const doctor = (extra: Record<string, string | undefined> = {}) => cli(['doctor', '--agent', 'codex'], extra);
const line = (stdout: string, label: string) => stdout.split('\n').find((l) => l.slice(2).startsWith(label)) ?? `(no ${label} line in:\n${stdout})`;
const codexConfig = (text: string) => writeFileSync(join(codexHome, 'config.toml'), text);
const bashguardConfig = (cfg: unknown) => {
  mkdirSync(join(home, '.config', 'bashguard'), { recursive: true });
  writeFileSync(join(home, '.config', 'bashguard', 'config.json'), JSON.stringify(cfg));
};

describe('install and doctor --agent codex with CODEX_HOME set', () => {
  beforeEach(() => {
    rmSync(join(home, '.config'), { recursive: true, force: true });
    rmSync(join(codexHome, 'config.toml'), { force: true });
  });

  it('install --user writes $CODEX_HOME/hooks.json, not ~/.codex/hooks.json; doctor finds it there', async () => {
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain(join(codexHome, 'hooks.json'));
    expect((await cli(['install', '--agent', 'codex', '--user'])).stdout).toBe(`bashguard hook already installed in ${join(codexHome, 'hooks.json')}\n`);
    expect(existsSync(join(codexHome, 'hooks.json'))).toBe(true);
    expect(existsSync(join(home, '.codex', 'hooks.json'))).toBe(false);
    const d = await doctor();
    expect(d.stdout).toContain(`✓ ${join(codexHome, 'hooks.json')}: hooks.PreToolUse runs`);
    expect(line(d.stdout, 'Codex home')).toBe(`✓ Codex home: ${codexHome} ($CODEX_HOME)`);
  });

  it.skipIf(!canRun)('danger-full-access: the wrapper (bubblewrap) is what holds; exit 0', async () => {
    codexConfig('model = "x"\nsandbox_mode = "danger-full-access"\n[features]\nhooks = true\n');
    const d = await doctor();
    expect(d.code, d.stdout).toBe(0);
    expect(line(d.stdout, 'enforcement')).toMatch(/^✓ enforcement: bubblewrap \(\S+\): every allowed Bash call runs with \d+ read-only paths.*sandbox_mode = "danger-full-access" in .*: Codex runs commands without a sandbox of its own, so the wrapper is what holds$/);
    expect(line(d.stdout, 'hooks')).toBe(`✓ hooks: on ([features] hooks = true in ${join(codexHome, 'config.toml')})`);
  });

  it.skipIf(!canRun)("workspace-write: Codex's own sandbox, with the held check at run time; exit 0", async () => {
    // (/tmp out of Codex's writable roots: the test's layout may live there)
    codexConfig('sandbox_mode = "workspace-write" # Codex runs each command in its bubblewrap\n[sandbox_workspace_write]\nexclude_slash_tmp = true\n');
    const d = await doctor();
    expect(d.code, d.stdout).toBe(0);
    expect(line(d.stdout, 'enforcement')).toMatch(/^✓ enforcement: Codex's own sandbox \(sandbox_mode = "workspace-write" in .*\), checked at run time: .*else in the wrapper \(bubblewrap/);
    expect(d.stdout).not.toContain('warning:');
  });

  it.skipIf(!canRun)("workspace-write with the checkout's directory among Codex's writable roots: warns that every call would fail; exit 0 (nothing runs unconfined)", async () => {
    codexConfig(`sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nexclude_slash_tmp = true\nwritable_roots = ["${L.root}"]\n`);
    const d = await doctor();
    expect(d.code, d.stdout).toBe(0);
    const w = line(d.stdout, 'warning');
    expect(w).toMatch(/^- warning: \d+ path\(s\) the wrapper keeps read-only lie in Codex's writable roots/);
    expect(w).toContain(`${L.main} (in ${L.root})`);
  });

  it.skipIf(!canRun)('sandbox_mode not set: the wrapper or the held check, whichever mode a session starts in; exit 0', async () => {
    const d = await doctor();
    expect(d.code, d.stdout).toBe(0);
    expect(line(d.stdout, 'Codex sandbox')).toMatch(/^- Codex sandbox: sandbox_mode is not set in any config layer read here/);
    expect(line(d.stdout, 'enforcement')).toMatch(/^✓ enforcement: bubblewrap .*a session without a sandbox of Codex's own runs each call in the wrapper/);
  });

  it("the worktree's project layer wins over the user layer where the project is trusted (through its main checkout), and is not read where it is not", async () => {
    const project = join(L.worktree, '.codex', 'config.toml');
    codexConfig('sandbox_mode = "danger-full-access"\n');
    mkdirSync(join(L.worktree, '.codex'), { recursive: true });
    writeFileSync(project, "sandbox_mode = 'read-only'\n");
    try {
      let d = await doctor();
      expect(line(d.stdout, 'Codex sandbox')).toContain(`sandbox_mode = "danger-full-access" in ${join(codexHome, 'config.toml')}`);
      expect(d.stdout).toContain(`- ${project}: not loaded: the project is not trusted (no [projects] entry for it in ${join(codexHome, 'config.toml')})`);
      codexConfig(`sandbox_mode = "danger-full-access"\n[projects."${L.main}"]\ntrust_level = "trusted"\n`);
      d = await doctor();
      expect(line(d.stdout, 'Codex sandbox')).toContain(`sandbox_mode = "read-only" in ${project}`);
      expect(d.stdout).not.toContain('not loaded');
    } finally {
      rmSync(join(L.worktree, '.codex'), { recursive: true, force: true });
    }
  });

  it('enforcement off in the trusted config: says so, and which sandbox of Codex holds; exit 0 (a choice of the trusted config)', async () => {
    bashguardConfig({ enforce: 'off' });
    codexConfig('sandbox_mode = "danger-full-access"\n');
    let d = await doctor();
    expect(d.code, d.stdout).toBe(0);
    expect(line(d.stdout, 'enforcement')).toBe(`✓ enforcement: off (set in ${join(home, '.config', 'bashguard', 'config.json')}): the analyzer alone decides; nothing holds the line for what it misses (sandbox_mode = "danger-full-access" in ${join(codexHome, 'config.toml')})`);
    codexConfig('sandbox_mode = "workspace-write"\n');
    d = await doctor();
    expect(d.code, d.stdout).toBe(0);
    expect(line(d.stdout, 'enforcement')).toMatch(/^✓ enforcement: bashguard's is off .*; Codex's own sandbox \(sandbox_mode = "workspace-write" in .*\) holds what it covers$/);
  });

  it('"enforce": "client" holds only with a sandbox of Codex\'s own: fails under danger-full-access', async () => {
    bashguardConfig({ enforce: 'client' });
    codexConfig('sandbox_mode = "danger-full-access"\n');
    let d = await doctor();
    expect(d.code, d.stdout).toBe(1);
    expect(line(d.stdout, 'enforcement')).toMatch(/^✗ enforcement: none: "enforce": "client" .* leaves it to Codex's own sandbox, but sandbox_mode = "danger-full-access"/);
    codexConfig('sandbox_mode = "read-only"\n');
    d = await doctor();
    expect(d.code, d.stdout).toBe(0);
    expect(line(d.stdout, 'enforcement')).toMatch(/^✓ enforcement: Codex's own sandbox \("enforce": "client"/);
  });

  it('hooks turned off in config.toml: the wrapper cannot hold; none does without a sandbox of Codex (exit 1), Codex\'s own does with one (exit 1 still: the hook is off)', async () => {
    codexConfig('sandbox_mode = "danger-full-access"\n[features]\nhooks = false\n');
    let d = await doctor();
    expect(d.code, d.stdout).toBe(1);
    expect(line(d.stdout, 'hooks')).toBe(`✗ hooks: off in ${join(codexHome, 'config.toml')} ([features] hooks = false): Codex runs no hook, bashguard's included (a session started with --enable hooks turns them on)`);
    expect(line(d.stdout, 'enforcement')).toMatch(/^✗ enforcement: none holds for Codex sessions in .*: bashguard's hook does not run \(hooks are off\), and sandbox_mode = "danger-full-access"/);
    codexConfig('sandbox_mode = "workspace-write"\nfeatures.hooks = false\n');
    d = await doctor();
    expect(d.code, d.stdout).toBe(1);
    expect(line(d.stdout, 'enforcement')).toMatch(/^✓ enforcement: Codex's own sandbox only \(sandbox_mode = "workspace-write"/);
  });

  it('no bashguard hook in any file Codex reads: fails, and says which mechanism is left', async () => {
    codexConfig('sandbox_mode = "danger-full-access"\n');
    const d = await doctor({ CODEX_HOME: join(L.root, 'empty-codex-home') });
    expect(d.code, d.stdout).toBe(1);
    expect(d.stdout).toContain('✗ no bashguard hook for codex');
    expect(line(d.stdout, 'enforcement')).toMatch(/^✗ enforcement: none holds .*bashguard's hook does not run \(not installed for Codex/);
  });

  it('a relative CODEX_HOME fails with one clear line', async () => {
    const d = await doctor({ CODEX_HOME: 'rel/codex' });
    expect(d.code, d.stdout).toBe(1);
    expect(line(d.stdout, 'Codex home')).toBe('✗ Codex home: CODEX_HOME=rel/codex is not an absolute path: Codex resolves it against its working directory, and bashguard protects only an absolute one');
  });
});
