/**
 * The default enforcement as most people run it: not as root. Where this suite runs as root, it
 * becomes `nobody` (setpriv) for the hook and the client's shell alike, in a layout that user
 * owns: the hook answers with the wrapper that makes the mounts in the client's bash
 * (src/layers/sandbox/in-shell.ts), or by the helper for a zsh user, and that wrapper, run as the client runs it, keeps the main
 * checkout, the sibling and the user settings byte-identical while the worktree's work (a new
 * top-level file, a commit) is done. Skips, saying why, where it cannot become another user or
 * that user cannot read this checkout (a private clone) or use user namespaces.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { PLATFORM_REASONS, REPO_ROOT, cannotRun, platformSkip } from '../../helpers/shared.js';
import { HELPER_MOUNTS, ZSH } from '../../helpers/layers.js';
import { landlockBuiltin, landlockHelper } from '../../../src/layers/sandbox/probes.js';

const AS = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--'];
const BASH = '/bin/bash';

function why(): string | null {
  // Where it runs: Linux, as root (to become another user; as a user, enforce.test.ts is this case).
  if (process.platform !== 'linux') return platformSkip(true, PLATFORM_REASONS.linuxOnly);
  if (process.getuid?.() !== 0) return platformSkip(true, PLATFORM_REASONS.asRoot);
  if (spawnSync('setpriv', ['--version']).status !== 0) return 'setpriv (util-linux) is not installed';
  if (!landlockHelper() || !landlockBuiltin(landlockHelper()!)) return 'the in-shell builtin is not installed';
  if (spawnSync(AS[0]!, [...AS.slice(1), 'test', '-r', join(REPO_ROOT, 'dist', 'hook.cjs')]).status !== 0) return `nobody cannot read this checkout (${REPO_ROOT})`;
  if (spawnSync(AS[0]!, [...AS.slice(1), 'unshare', '-U', 'true']).status !== 0) return 'nobody cannot create a user namespace here';
  return null;
}
/** A platform reason from why(), or a missing piece (through cannotRun: a failure in CI). */
const whyNot = why();
const skip = whyNot === null || (Object.values(PLATFORM_REASONS) as string[]).includes(whyNot) ? whyNot : cannotRun(`the enforcement as another user: ${whyNot}`);

describe.skipIf(skip !== null)('the default enforcement for a user other than root (as nobody)', () => {
  let L: GitLayout;
  let home: string;
  let env: NodeJS.ProcessEnv;
  const asNobody = (argv: string[], opts: { input?: string; extra?: NodeJS.ProcessEnv } = {}) =>
    spawnSync(AS[0]!, [...AS.slice(1), ...argv], { cwd: L.worktree, env: { ...env, ...opts.extra }, input: opts.input, encoding: 'utf8', timeout: 60_000 });
  const wrapped = (command: string, shell = BASH): string => {
    const event = JSON.stringify({ session_id: 's', cwd: L.worktree, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: `toolu_${command.length}` });
    const r = asNobody([process.execPath, join(REPO_ROOT, 'bin', 'bashguard.js'), 'hook'], { input: event, extra: { SHELL: shell } });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; updatedInput: { command: string } } };
    expect(out.hookSpecificOutput.permissionDecision).toBe('allow');
    return out.hookSpecificOutput.updatedInput.command;
  };
  const run = (command: string, shell = BASH) => {
    const w = wrapped(command, shell);
    return { wrapper: w, ...asNobody([shell, '-c', 'eval "$BG_W"'], { extra: { BG_W: w, SHELL: shell } }) };
  };

  beforeAll(() => {
    L = makeGitLayout('bashguard-enforce-user-');
    home = join(L.root, 'home');
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(home, '.claude', 'settings.json'), '{"hooks":{}}\n');
    mkdirSync(join(L.root, 'tmp'));
    execFileSync('chown', ['-R', '65534:65534', L.root]);
    env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TMPDIR: join(L.root, 'tmp'), SHELL: BASH, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'n', GIT_AUTHOR_EMAIL: 'n@n', GIT_COMMITTER_NAME: 'n', GIT_COMMITTER_EMAIL: 'n@n' };
  });
  afterAll(() => L?.cleanup());

  // bash: the mounts made in the client's shell; zsh (where installed): by the helper for the inner zsh.
  it.each([BASH, ...(ZSH ? [ZSH] : [])])("the hook's wrapper for a %s user makes the mounts; escapes fail, the worktree's work is done", (shell) => {
    const readme = readFileSync(join(L.main, 'README.md'), 'utf8');
    const settings = readFileSync(join(home, '.claude', 'settings.json'), 'utf8');
    // Scripts the analyzer cannot read (written by one call, run by the next), each an escape.
    const scripts: Record<string, string> = {
      'e1.sh': 'cd ../.. && echo x >> README.md',
      'e2.sh': 'echo x > ../b2/ESC',
      'e3.sh': `echo '{}' > "$HOME/.claude/settings.json"`,
      'e4.sh': `echo x > /proc/$PPID/root${L.main}/README.md`,
      'e5.sh': 'mv "$HOME/.claude" "$HOME/.claude-moved"',
    };
    for (const [name, body] of Object.entries(scripts)) expect(run(`printf '%s\\n' '${body.replace(/'/g, `'\\''`)}' > ${name}`, shell).status, name).toBe(0);
    const escapes = Object.keys(scripts).map((n) => `sh ${n}`);
    for (const c of escapes) {
      const r = run(c, shell);
      expect(r.wrapper, c).toMatch(shell === BASH ? /bashguard_mounts/ : HELPER_MOUNTS);
      expect(r.status, `${c}: ${r.stderr}`).not.toBe(0);
      // (refused by the mounts or the Landlock domain, not failing for another reason)
      expect(r.stderr, c).toMatch(/Read-only file system|Permission denied|Device or resource busy/);
    }
    expect(readFileSync(join(L.main, 'README.md'), 'utf8')).toBe(readme);
    expect(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')).toBe(settings);
    expect(existsSync(join(L.sibling, 'ESC'))).toBe(false);
    const file = `top-level-${shell.split('/').pop()}.txt`;
    const ok = run(`echo made > ${file} && git add ${file} && git commit -qm as-user && git log -1 --format=%s && id -u`, shell);
    expect(ok, ok.stderr).toMatchObject({ status: 0, stdout: 'as-user\n65534\n' });
    expect(readFileSync(join(L.worktree, file), 'utf8')).toBe('made\n');
  });
});
