/**
 * Codex's home moved with `$CODEX_HOME`, through `bashguard hook --agent codex` in a real git
 * layout (the agent in a linked worktree, CODEX_HOME in neither HOME nor the checkout):
 * - the analyzer: a write to its hooks.json, config.toml or rules/ is denied (BG1005); a write
 *   beside them is allowed;
 * - the enforcement: the command Codex would run (the hook's `updatedInput.command`, run as Codex
 *   runs it, with `bash -lc` in the workdir) cannot change anything in $CODEX_HOME even where the
 *   analyzer cannot see the write, while the same command's write beside $CODEX_HOME lands.
 * The runs under bubblewrap skip, saying why, where it cannot start.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/frontends/cli/main.js';
import type { IO } from '../../../src/frontends/io.js';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { cleanEnv } from '../../helpers/layers.js';
import { bwrapHere } from '../../helpers/bwrap.js';

const { canRun } = bwrapHere('the Codex $CODEX_HOME enforcement runs');

let L: GitLayout;
let home: string;
let codexHome: string;
let beside: string;
let env: NodeJS.ProcessEnv;
const HOOKS = '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"bashguard-hook --agent codex"}]}]}}\n';
const CONFIG = 'sandbox_mode = "workspace-write"\n';

beforeAll(() => {
  L = makeGitLayout('bashguard-codex-home-');
  home = join(L.root, 'home');
  // (under TMPDIR, a scratch dir: a plain write there is allowed, so the twins can be)
  codexHome = join(L.root, 'tmp', 'codex-home');
  beside = join(L.root, 'tmp', 'beside');
  for (const d of [join(home, '.codex'), join(codexHome, 'rules'), beside]) mkdirSync(d, { recursive: true });
  writeFileSync(join(L.worktree, 't.py'), "import os, sys\nopen(os.environ['CODEX_HOME'] + '/' + sys.argv[1], 'w').write(sys.argv[2])\n");
  writeFileSync(join(codexHome, 'hooks.json'), HOOKS);
  writeFileSync(join(codexHome, 'config.toml'), CONFIG);
  writeFileSync(join(codexHome, 'rules', 'default.rules'), '');
  env = cleanEnv({ HOME: home, CODEX_HOME: codexHome, TMPDIR: join(L.root, 'tmp') });
  for (const k of ['XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME', 'CLAUDE_CONFIG_DIR', 'BASHGUARD_CONFIG']) delete env[k];
});
afterAll(() => L?.cleanup());

async function hook(command: string, extra: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const event = { session_id: 's', turn_id: 't', cwd: L.worktree, hook_event_name: 'PreToolUse', model: 'm', permission_mode: 'bypassPermissions', tool_name: 'Bash', tool_input: { command }, tool_use_id: 'call_1' };
  const io: IO = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), readStdin: async () => JSON.stringify(event), env: { ...env, ...extra }, cwd: L.worktree, isTTY: false };
  const code = await run(['hook', '--agent', 'codex'], io);
  const text = out.join('');
  const o = text ? (JSON.parse(text) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason?: string; updatedInput?: { command?: string } } }).hookSpecificOutput : null;
  return { code, decision: o?.permissionDecision ?? 'allow', reason: o?.permissionDecisionReason ?? '', command: o?.updatedInput?.command ?? null };
}

describe('the analyzer: $CODEX_HOME is a control directory where the hook environment names it', () => {
  for (const [label, cmd] of [
    ['hooks.json emptied', `echo '{}' > "$CODEX_HOME/hooks.json"`],
    ['config.toml loosened', `echo 'sandbox_mode = "danger-full-access"' > ${join('$CODEX_HOME', 'config.toml')}`],
    ['a rule added', `echo 'prefix_rule(pattern=["git"], decision="allow")' >> "$CODEX_HOME/rules/default.rules"`],
  ] as const) {
    it(`${label}: denied (BG1005)`, async () => {
      const r = await hook(cmd.replace(/\$CODEX_HOME/g, codexHome));
      expect(r.decision, r.reason).toBe('deny');
      expect(r.reason).toMatch(/BG1005/);
    });
  }

  it('its benign twin, a file beside them, is allowed; without CODEX_HOME the same path is a plain file', async () => {
    expect((await hook(`echo x > ${codexHome}/notes.txt`)).decision).toBe('allow');
    expect((await hook(`echo x > ${beside}/hooks.json`)).decision).toBe('allow');
    expect((await hook(`echo '{}' > ${codexHome}/hooks.json`, { CODEX_HOME: undefined })).decision).toBe('allow');
  });
});

describe.skipIf(!canRun)('the enforcement: the command Codex runs cannot change $CODEX_HOME', () => {
  /** The hook's command for `cmd`, run as Codex runs it outside a sandbox of its own. */
  async function asCodex(cmd: string) {
    const r = await hook(cmd);
    expect(r.decision, r.reason).toBe('allow');
    expect(r.command, 'the hook replaced the command').not.toBeNull();
    return spawnSync('/bin/bash', ['-lc', r.command!], { cwd: L.worktree, env, encoding: 'utf8', timeout: 30_000 });
  }

  it('writes the analyzer cannot see fail there and in HOME; the same write beside $CODEX_HOME, in a scratch dir, lands', async () => {
    // (a script written before: the analyzer sees `python3 t.py` write nothing it can name)
    const py = (target: string, text: string) => `python3 t.py ${target} '${text}'`;
    for (const [target, keep] of [
      ['hooks.json', HOOKS],
      ['config.toml', CONFIG],
      ['rules/default.rules', ''],
    ] as const) {
      const r = await asCodex(py(target, '{}'));
      expect(r.status, `${target}: ${r.stderr}`).not.toBe(0);
      expect(r.stderr).toMatch(/Read-only file system/);
      expect(readFileSync(join(codexHome, target), 'utf8')).toBe(keep);
    }
    // A profile file Codex would layer on top with --profile, and a rename of the whole home.
    expect((await asCodex(py('deep.config.toml', 'sandbox_mode = "danger-full-access"'))).status).not.toBe(0);
    expect(existsSync(join(codexHome, 'deep.config.toml'))).toBe(false);
    expect((await asCodex(`python3 -c "import os; os.rename(os.environ['CODEX_HOME'], os.environ['CODEX_HOME'] + '.off')"`)).status).not.toBe(0);
    expect(existsSync(join(codexHome, 'hooks.json'))).toBe(true);
    // ~/.codex stays read-only too (the home of sessions started without CODEX_HOME), and so does
    // the rest of HOME, outside every write root (issue 51).
    const prof = await asCodex(`python3 -c "import os; open(os.path.expanduser('~/.codex/x.config.toml'), 'w').write('x')"`);
    expect(prof.stderr).toMatch(/Read-only file system/);
    expect(existsSync(join(home, '.codex', 'x.config.toml'))).toBe(false);
    const inHome = await asCodex(`python3 -c "import os; open(os.path.expanduser('~/notes.txt'), 'w').write('x')"`);
    expect(inHome.stderr).toMatch(/Read-only file system/);
    expect(existsSync(join(home, 'notes.txt'))).toBe(false);
    // The benign twin: the same kind of write, beside $CODEX_HOME, runs.
    const ok = await asCodex(`python3 -c "import os; open(os.path.join(os.path.dirname(os.environ['CODEX_HOME']), 'beside', 'hooks.json'), 'w').write('{}')"`);
    expect(ok.status, ok.stderr).toBe(0);
    expect(readFileSync(join(beside, 'hooks.json'), 'utf8')).toBe('{}');
    rmSync(join(beside, 'hooks.json'));
  });
});
