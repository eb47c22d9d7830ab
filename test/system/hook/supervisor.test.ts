/**
 * bin/bashguard-hook, the command `bashguard install` writes: `bashguard hook` under a hard time
 * limit enforced from outside Node. tree-sitter can spend unbounded time inside one native parse
 * step on some malformed input (test/fixtures/parser-hang.sh.txt, found by the fuzzer: tree-sitter
 * 0.25 in stack_node_add_link, its own timeout never checked), and Claude Code runs the tool when
 * a hook overruns its timeout. These tests run the real script and the built CLI (`npm test` builds
 * dist/ first) against a real git layout.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { REPO_ROOT, addonOrSkip, bindingOrSkip } from '../../helpers/shared.js';
import { hookCommand } from '../../../src/frontends/cli/install.js';
import { isAllowOutput } from '../../helpers/allow.js';

const SUPERVISOR = join(REPO_ROOT, 'bin', 'bashguard-hook');
const CLI = join(REPO_ROOT, 'bin', 'bashguard.js');
const HANG = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'parser-hang.sh.txt'), 'utf8');
/** Another family (fuzz seed 500): a long pipeline in an unclosed `(`, then an unterminated quote. */
const PIPELINE = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'parser-runaway-pipeline.sh.txt'), 'utf8');
const LIMIT_S = 2;

let layout: GitLayout;
beforeAll(() => {
  layout = makeGitLayout('bashguard-supervisor-');
});
afterAll(() => layout.cleanup());

const event = (command: string) => JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: layout.worktree });

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: layout.root, BASHGUARD_NODE: process.execPath, BASHGUARD_HOOK_TIMEOUT: String(LIMIT_S), ...extra };
}

function run(file: string, args: string[], stdin: string, extra: Record<string, string> = {}) {
  const t0 = performance.now();
  const r = spawnSync(file, args, { input: stdin, env: env(extra), encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, ms: performance.now() - t0 };
}

const decisionOf = (stdout: string) => (JSON.parse(stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } }).hookSpecificOutput;

describe('bin/bashguard-hook', () => {
  it.skipIf(bindingOrSkip("the run-away fixture, shown with tree-sitter's own timeout") !== null)('the fixture really makes the parser run away (so the tests below test the limit)', () => {
    const r = spawnSync(process.execPath, ['-e', "const P=require('tree-sitter');const p=new P();p.setLanguage(require('tree-sitter-bash'));p.setTimeoutMicros(100000);p.parse(require('fs').readFileSync(0,'utf8'))"], {
      input: HANG,
      cwd: REPO_ROOT,
      timeout: 5_000,
    });
    // tree-sitter's own 100 ms timeout does not stop it: killed by our 5 s bound.
    expect(r.signal).toBe('SIGTERM');
  });

  it.each([
    ['parser-hang.sh.txt', HANG],
    ['parser-runaway-pipeline.sh.txt', PIPELINE],
  ])(`a parse that runs away (%s): ask after ${LIMIT_S} s, exit 0, one JSON answer`, (_name, input) => {
    const r = run(SUPERVISOR, [], event(input));
    expect(r.code, r.stderr).toBe(0);
    const a = decisionOf(r.stdout);
    expect(a.permissionDecision).toBe('ask');
    expect(a.permissionDecisionReason).toMatch(/did not finish within 2 s/);
    expect(r.ms).toBeGreaterThan(LIMIT_S * 1000);
    expect(r.ms).toBeLessThan(LIMIT_S * 1000 + 15_000);
  });

  it('with "unanalyzable": "deny" in the worktree config: deny', () => {
    const cfg = join(layout.worktree, '.bashguard.json');
    writeFileSync(cfg, '{"unanalyzable": "deny"}');
    try {
      const r = run(SUPERVISOR, [], event(HANG));
      expect(r.code, r.stderr).toBe(0);
      expect(decisionOf(r.stdout).permissionDecision).toBe('deny');
    } finally {
      rmSync(cfg);
    }
  });

  it('--exit-code: exit 2 with the reason on stderr, nothing on stdout', () => {
    const r = run(SUPERVISOR, ['--exit-code'], event(HANG));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/did not finish within 2 s/);
  });

  it.each([
    ['deny', `echo x > ${'MAIN'}/README.md`],
    ['allow', 'ls && echo ok > notes.txt'],
  ])('an ordinary %s: the same answer and exit code as `bashguard hook`', (_label, template) => {
    const stdin = event(template.replace('MAIN', layout.main));
    for (const args of [[], ['--exit-code']]) {
      const supervised = run(SUPERVISOR, args, stdin);
      const direct = run(process.execPath, [CLI, 'hook', ...args], stdin);
      expect(supervised.code).toBe(direct.code);
      expect(supervised.stdout.trim()).toBe(direct.stdout.trim());
      expect(supervised.stderr).toBe(direct.stderr);
    }
  });

  it('reached through a symlinked package directory (node started with --preserve-symlinks-main): the same answers, and no analysis error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bashguard-linked-'));
    try {
      const link = join(dir, 'bashguard');
      symlinkSync(REPO_ROOT, link);
      for (const command of [`echo x > ${layout.main}/README.md`, 'ls && echo ok > notes.txt']) {
        // Native only: a dependency not found from the link's side would fail, not fall back to WASM.
        const linked = run(join(link, 'bin', 'bashguard-hook'), [], event(command), { BASHGUARD_PARSER: 'native' });
        const direct = run(process.execPath, [CLI, 'hook'], event(command));
        expect(linked.code, linked.stderr).toBe(0);
        expect(linked.stdout.trim()).toBe(direct.stdout.trim());
        expect(linked.stderr).toBe('');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the command `bashguard install` writes, run through sh as Claude Code runs it, is the supervised hook', () => {
    const command = hookCommand();
    // The client's shell reads the script itself (`.`), its path and arguments in $@.
    expect(command.startsWith('set -- ') && command.endsWith(' . "$1"'), command).toBe(true);
    expect(command).toContain(SUPERVISOR);
    expect(command).toContain(`BASHGUARD_NODE=${process.execPath}`);
    const r = run('/bin/sh', ['-c', command], event(`echo x > ${layout.main}/README.md`));
    expect(r.code, r.stderr).toBe(0);
    expect(decisionOf(r.stdout).permissionDecision).toBe('deny');
    const hung = run('/bin/sh', ['-c', command], event(HANG));
    expect(decisionOf(hung.stdout).permissionDecision).toBe('ask');
    // Arguments reach the script through `set --` (dash's `.` passes none): --exit-code answers
    // a deny with exit 2 and the reason on stderr.
    const e = run('/bin/sh', ['-c', hookCommand(['--exit-code'])], event(`echo x > ${layout.main}/README.md`));
    expect([e.code, e.stdout], e.stderr).toEqual([2, '']);
    expect(e.stderr).toMatch(/BG1002/);
  });

  it.each(['source', 'exec'] as const)('the client\'s shell becomes the supervisor (%s form): no shell waits between the client and the hook, and BASHGUARD_NODE reaches it', (form) => {
    const dir = mkdtempSync(join(tmpdir(), 'bashguard-exec-'));
    try {
      // A stand-in node that answers with the pid of the process that started it (the supervisor)
      // and that process's executable.
      const fake = join(dir, 'fake node');
      writeFileSync(fake, '#!/bin/sh\ncat >/dev/null\nexe=$(readlink /proc/$PPID/exe 2>/dev/null)\nprintf \'{"supervisor":%s,"exe":"%s"}\\n\' "$PPID" "$exe"\n');
      chmodSync(fake, 0o755);
      const command = hookCommand([], form).replace(`BASHGUARD_NODE=${process.execPath}`, `BASHGUARD_NODE='${fake}'`);
      expect(command).toContain(form === 'exec' ? ` exec ${SUPERVISOR}` : `set -- ${SUPERVISOR};`);
      for (const shell of ['/bin/sh', '/bin/bash', ...(existsSync('/usr/bin/zsh') ? ['/usr/bin/zsh'] : [])]) {
        const r = spawnSync(shell, ['-c', command], { input: '{}', env: { PATH: process.env.PATH, HOME: layout.root }, encoding: 'utf8' });
        expect([r.status, r.stderr], shell).toEqual([0, '']);
        const got = JSON.parse(r.stdout) as { supervisor: number; exe: string };
        // The supervisor is the process the client spawned: the shell ran it in its own place.
        expect(got.supervisor, shell).toBe(r.pid);
        // Sourced, the client's own shell is the supervisor (no execve of /bin/sh on the script);
        // exec'd, the script's #!/bin/sh is.
        if (existsSync('/proc/self/exe')) expect(got.exe, shell).toBe(realpathSync(form === 'source' ? shell : '/bin/sh'));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the sourced command fails closed when the script is gone: dash ends with status 2, which Claude Code takes as a block', () => {
    const command = hookCommand().replace(SUPERVISOR, join(layout.root, 'gone', 'bin', 'bashguard-hook'));
    const r = run('/bin/sh', ['-c', command], event('ls'));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('the event the hook keeps for a stopped analysis is gone afterwards, whether the analysis finished or was stopped', () => {
    const cacheDir = join(layout.root, '.cache', 'bashguard');
    const kept = () => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => f.startsWith('event-')) : []);
    expect(decisionOf(run(SUPERVISOR, [], event(`echo x > ${layout.main}/README.md`)).stdout).permissionDecision).toBe('deny');
    expect(kept()).toEqual([]);
    expect(decisionOf(run(SUPERVISOR, [], event(HANG)).stdout).permissionDecision).toBe('ask');
    expect(kept()).toEqual([]);
  });

  it('a stopped analysis whose event was not kept is still never an allow: ask, or deny per the config at the hook\'s cwd', () => {
    // What the supervisor runs after stopping the analysis, with no kept file under the token.
    const args = [CLI, 'hook', '--unfinished', '2', '--keep-event', '4242'];
    const r = spawnSync(process.execPath, args, { input: '', env: env(), cwd: layout.worktree, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(decisionOf(r.stdout).permissionDecision).toBe('ask');
    expect(decisionOf(r.stdout).permissionDecisionReason).toMatch(/did not finish within 2 s.*not kept/);
    const cfg = join(layout.worktree, '.bashguard.json');
    writeFileSync(cfg, '{"unanalyzable": "deny"}');
    try {
      const d = spawnSync(process.execPath, args, { input: '', env: env(), cwd: layout.worktree, encoding: 'utf8' });
      expect(decisionOf(d.stdout).permissionDecision).toBe('deny');
    } finally {
      rmSync(cfg);
    }
  });

  it('a node that rejects the supervisor\'s V8 flags (exit 9, bad option) runs the hook without them: same answers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bashguard-oldnode-'));
    try {
      const fake = join(dir, 'node');
      writeFileSync(fake, `#!/bin/sh\ncase "$1" in --no-*) echo "node: bad option: $1" >&2; exit 9;; esac\nexec ${JSON.stringify(process.execPath)} "$@"\n`);
      chmodSync(fake, 0o755);
      // Both limits: the hook's own, and coreutils' timeout around it.
      for (const limiter of ['kernel', 'timeout']) {
        for (const [command, decision] of [[`echo x > ${layout.main}/README.md`, 'deny'], [HANG, 'ask']] as const) {
          const r = run(SUPERVISOR, [], event(command), { BASHGUARD_NODE: fake, BASHGUARD_HOOK_LIMITER: limiter });
          expect(r.code, r.stderr).toBe(0);
          expect(decisionOf(r.stdout).permissionDecision, limiter).toBe(decision);
        }
        const allow = run(SUPERVISOR, [], event('ls'), { BASHGUARD_NODE: fake, BASHGUARD_HOOK_LIMITER: limiter });
        expect([allow.code, isAllowOutput(allow.stdout)]).toEqual([0, true]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('the time limit', () => {
    const START = join(REPO_ROOT, 'dist', 'hook-start.cjs');
    const withAddon = addonOrSkip("the hook's time limit (the addon arms it)") === null;

    it.skipIf(!withAddon)('is the kernel\'s: a run-away parse is stopped with SIGALRM, and no `timeout` is on the PATH', () => {
      // The hook alone, armed: the kernel ends it at the limit, inside the native parse.
      const direct = spawnSync(process.execPath, [START, 'hook', '--time-limit', '1'], { input: event(HANG), env: env(), encoding: 'utf8', timeout: 30_000 });
      expect(direct.signal).toBe('SIGALRM');
      expect(direct.stdout).toBe('');
      // The supervisor with a PATH that has no `timeout` (only what bg_deny needs): still stopped.
      const dir = mkdtempSync(join(tmpdir(), 'bashguard-notimeout-'));
      try {
        symlinkSync('/usr/bin/tr', join(dir, 'tr'));
        const r = run(SUPERVISOR, [], event(HANG), { PATH: dir });
        expect(r.code, r.stderr).toBe(0);
        expect(decisionOf(r.stdout).permissionDecision).toBe('ask');
        expect(r.ms).toBeGreaterThan(LIMIT_S * 1000);
        expect(r.ms).toBeLessThan(LIMIT_S * 1000 + 15_000);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it.skipIf(!withAddon)('holds for a hook started with SIGALRM ignored (an ignored signal survives exec; the addon resets it)', () => {
      const r = run('/bin/sh', ['-c', `trap '' ALRM; exec ${JSON.stringify(SUPERVISOR)}`], event(HANG));
      expect(r.code, r.stderr).toBe(0);
      expect(decisionOf(r.stdout).permissionDecision).toBe('ask');
      expect(r.ms).toBeLessThan(LIMIT_S * 1000 + 15_000);
    });

    it.each([['BASHGUARD_HOOK_LIMITER=timeout', { BASHGUARD_HOOK_LIMITER: 'timeout' }, null], ['a hook that cannot arm it (exit 3)', {}, 'fake']] as const)(
      'falls back to coreutils\' `timeout` (%s): run-away stopped, ordinary answers unchanged',
      (_label, extra, fake) => {
        const dir = mkdtempSync(join(tmpdir(), 'bashguard-limiter-'));
        try {
          const more: Record<string, string> = { ...extra };
          if (fake) {
            // A node whose hook cannot arm the limit: exits 3, as `--time-limit` does without the addon.
            const node = join(dir, 'node');
            writeFileSync(node, `#!/bin/sh\nfor a in "$@"; do [ "$a" = --time-limit ] && { echo "bashguard: --time-limit needs bashguard's native addon" >&2; exit 3; }; done\nexec ${JSON.stringify(process.execPath)} "$@"\n`);
            chmodSync(node, 0o755);
            more.BASHGUARD_NODE = node;
          }
          const hung = run(SUPERVISOR, [], event(HANG), more);
          expect(hung.code, hung.stderr).toBe(0);
          expect(decisionOf(hung.stdout).permissionDecision).toBe('ask');
          expect(decisionOf(hung.stdout).permissionDecisionReason).toMatch(/did not finish within 2 s/);
          const deny = run(SUPERVISOR, [], event(`echo x > ${layout.main}/README.md`), more);
          const direct = run(process.execPath, [CLI, 'hook'], event(`echo x > ${layout.main}/README.md`));
          expect([deny.code, deny.stdout]).toEqual([direct.code, direct.stdout]);
          expect(isAllowOutput(run(SUPERVISOR, [], event('ls'), more).stdout)).toBe(true);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    );

    it('a fallback that does not answer within its own limit: deny with a one-line reason, nothing left running', () => {
      const dir = mkdtempSync(join(tmpdir(), 'bashguard-fallback-'));
      try {
        // A node whose hook cannot arm the limit (so coreutils' timeout bounds both runs), and
        // whose fallback run (`hook --unfinished`) never answers, as a fallback blocked on a file would.
        const node = join(dir, 'node');
        writeFileSync(node, `#!/bin/sh\nfor a in "$@"; do [ "$a" = --time-limit ] && exit 3; [ "$a" = --unfinished ] && exec sleep 60; done\nexec ${JSON.stringify(process.execPath)} "$@"\n`);
        chmodSync(node, 0o755);
        const setsid = spawnSync('setsid', ['true']).status === 0;
        const r = spawnSync(setsid ? 'setsid' : '/bin/sh', setsid ? ['/bin/sh', SUPERVISOR] : [SUPERVISOR], { input: event(HANG), env: env({ BASHGUARD_NODE: node }), encoding: 'utf8', timeout: 60_000 });
        expect(r.error).toBeUndefined();
        expect(r.status).toBe(0);
        const out = decisionOf(r.stdout);
        expect(out.permissionDecision).toBe('deny');
        expect(out.permissionDecisionReason).toMatch(/fallback answer did not come within 3 s/);
        expect(out.permissionDecisionReason).not.toContain('\n');
        let left = '';
        if (setsid) try {
          left = execFileSync('ps', ['-o', 'pid=', '-g', String(r.pid)], { encoding: 'utf8' }).trim();
        } catch {
          // none
        }
        expect(left).toBe('');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it.each([['soon'], ['0'], ['-1'], ['1e9']])('--time-limit %s: one line, exit 3, nothing read or answered', (value) => {
      for (const entry of [[START, 'hook'], [CLI, 'hook', '--agent', 'claude', '--unfinished', '1']]) {
        const r = run(process.execPath, [...entry, '--time-limit', value], event('ls'));
        expect(r.code).toBe(3);
        expect(r.stdout).toBe('');
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
        expect(r.stderr).toMatch(/--time-limit takes a number of seconds/);
      }
    });

    it.skipIf(!withAddon)('an armed hook that finishes in time answers exactly as an unarmed one', () => {
      for (const command of [`echo x > ${layout.main}/README.md`, 'ls', HANG.slice(0, 40)]) {
        const armed = run(process.execPath, [START, 'hook', '--time-limit', '30'], event(command));
        const plain = run(process.execPath, [START, 'hook'], event(command));
        expect([armed.code, armed.stdout, armed.stderr]).toEqual([plain.code, plain.stdout, plain.stderr]);
      }
    });
  });

  it('bashguard hook --unfinished rejects a bad value with one line, exit 2', () => {
    const r = run(process.execPath, [CLI, 'hook', '--unfinished', 'soon'], event('ls'));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--unfinished takes a number of seconds/);
  });
});
