/**
 * The OS enforcement of every allowed Bash call (src/layers/sandbox/enforce.ts): the wrapper's text keeps
 * the client's semantics (the command byte for byte, its exit status and output, a `cd` that the
 * next call sees, background processes), checked by running it the way Claude Code runs a Bash
 * call (`eval '<command>'` in its shell, then `pwd -P`); and under bubblewrap for real: the escapes
 * the analyzer cannot see fail, the same command's legitimate work succeeds. The runs under
 * bubblewrap skip, saying why, where it cannot start (BASHGUARD_REQUIRE_ALL=1 makes that a failure).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { openWorkspace } from '../../../src/policy/workspace/index.js';
import { effectiveAccess } from '../../../src/layers/sandbox/index.js';
import { clientShell, enforceCall, enforcementControlPaths, enforcementPlan, enforcementWrapper, findBwrap, sweepCwdFiles } from '../../../src/layers/sandbox/enforce.js';
import { cleanEnv, git, runWrapper, ZSH } from '../../helpers/layers.js';
import { runHook } from '../../../src/frontends/hook/hook.js';
import { CLIENTS } from '../../../src/frontends/hook/clients/index.js';
import { getParser } from '../../../src/engine/parse/index.js';
import { parseConfig, parseConfigLayer, ConfigError, DEFAULT_CONFIG } from '../../../src/policy/config.js';
import { tighten } from '../../../src/policy/workspace/index.js';
import { clientSandboxSettings, managedClaudeSandbox } from '../../../src/layers/sandbox/enforce.js';
import type { IO } from '../../../src/frontends/io.js';
import { run as runCli } from '../../../src/frontends/cli/main.js';
import { bwrapHere } from '../../helpers/bwrap.js';
import { PLATFORM_REASONS, REPO_ROOT, cannotRun, platformSkip, unless } from '../../helpers/shared.js';
import { currentBootId, helperMountsProbeKey, inShellProbeKey, landlockAvailable, landlockBuiltin, landlockHelper, probeCacheFile } from '../../../src/layers/sandbox/probes.js';

/** Runs `wrapper` as Claude Code runs a Bash call: in bash, from `cwd`, then records `pwd -P` (in a file, as the client does). */
function runAsClient(wrapper: string, cwd: string, env: NodeJS.ProcessEnv = process.env, shell = '/bin/bash') {
  const out = join(mkdtempSync(join(tmpdir(), 'bashguard-cwdout-')), 'cwd');
  const script = 'eval "$BG_W"; __s=$?; builtin pwd -P >| "$BG_OUT"; exit $__s';
  const r = spawnSync(shell, ['-c', script, 'bash'], { cwd, env: { ...env, BG_W: wrapper, BG_OUT: out }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
  const dir = existsSync(out) ? readFileSync(out, 'utf8').replace(/\n$/, '') : '';
  rmSync(join(out, '..'), { recursive: true, force: true });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, cwd: dir };
}

/** The wrapper with `env` standing in for bwrap: the text and its shell semantics, without a sandbox. */
let calls = 0;
const cwdFiles = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-cwdfiles-')));
afterAll(() => rmSync(cwdFiles, { recursive: true, force: true }));
const plain = (command: string, cwdFile = join(cwdFiles, `test${++calls}`)) => enforcementWrapper(command, { bwrap: '/usr/bin/env', args: [], shell: '/bin/bash', cwdFile });

describe('the enforcement wrapper (its shell semantics, without a sandbox)', () => {
  let dir: string;
  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-enforce-')));
    mkdirSync(join(dir, 'sub', 'deeper'), { recursive: true });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes any command to the inner shell byte for byte (quotes, newlines, $, backslashes, heredocs)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0')), (s) => {
        const quoted = `'${s.replace(/'/g, `'\\''`)}'`;
        const r = runAsClient(plain(`printf %s ${quoted}`), dir);
        expect(r.code).toBe(0);
        expect(r.stdout).toBe(s);
      }),
      { numRuns: 40 },
    );
    const heredoc = "cat <<'EOF'\nit's $HOME `x` \\n \"q\"\nEOF\ncat <<EOF2\n$((1+2))\nEOF2";
    expect(runAsClient(plain(heredoc), dir).stdout).toBe('it\'s $HOME `x` \\n "q"\n3\n');
  }, 120_000);

  it('returns the exit status of the command, of an `exit`, and of a signal', () => {
    expect(runAsClient(plain('false'), dir).code).toBe(1);
    expect(runAsClient(plain('echo out; echo err >&2; exit 7'), dir)).toMatchObject({ code: 7, stdout: 'out\n', stderr: 'err\n' });
    expect(runAsClient(plain('(exit 42)'), dir).code).toBe(42);
    expect(runAsClient(plain('kill -9 $$'), dir).code).toBe(137);
    expect(runAsClient(plain('true'), dir).code).toBe(0);
  });

  it('leaves the outer shell in the directory the command ended in (a `cd` persists); not after an `exit`', () => {
    expect(runAsClient(plain('cd sub/deeper'), dir).cwd).toBe(join(dir, 'sub', 'deeper'));
    expect(runAsClient(plain('cd sub && false'), dir)).toMatchObject({ code: 1, cwd: join(dir, 'sub') });
    expect(runAsClient(plain('cd "$(mktemp -d)" && cd -'), dir).cwd).toBe(dir);
    // `exit` leaves the client's shell too: its cwd is not recorded, so the next call starts where this one did.
    expect(runAsClient(plain('cd sub; exit 3'), dir)).toMatchObject({ code: 3, cwd: dir });
    // The command's own use of fd 3 does not reach the cwd file.
    expect(runAsClient(plain('echo junk >&3; cd sub'), dir).cwd).toBe(join(dir, 'sub'));
    // A directory name with spaces and quotes.
    mkdirSync(join(dir, "a b'c"), { recursive: true });
    expect(runAsClient(plain(`cd "a b'c"`), dir).cwd).toBe(join(dir, "a b'c"));
  });

  it('refuses a cwd file planted under its name instead of following it', () => {
    const planted = join(dir, 'planted');
    writeFileSync(join(dir, 'victim'), 'keep\n');
    // (the name ends in the client shell's pid: the client plants it just before the wrapper runs)
    const script = 'ln -s "$BG_VICTIM" "$BG_PLANT.$$"; eval "$BG_W"';
    const r = spawnSync('/bin/bash', ['-c', script], { cwd: dir, env: { ...process.env, BG_W: plain('echo ran', planted), BG_PLANT: planted, BG_VICTIM: join(dir, 'victim') }, encoding: 'utf8' });
    expect(r.stdout).toBe('');
    expect(r.status).not.toBe(0);
    expect(readFileSync(join(dir, 'victim'), 'utf8')).toBe('keep\n');
  });

  it('runs no process but bwrap (and the inner shell): no rm, cat or rmdir, in the foreground or the background', () => {
    // Every external command the outer shell runs goes through PATH lookup: PATH holds only
    // stand-ins that log their name, and bwrap (here env) is named absolutely.
    const bin = mkdtempSync(join(tmpdir(), 'bashguard-nopath-'));
    const log = join(bin, 'log');
    for (const n of ['rm', 'rmdir', 'cat', 'find', 'mkdir', 'mv', 'sleep', 'true', 'test', '[']) writeFileSync(join(bin, n), `#!/bin/sh\necho ${n} >> ${log}\n`, { mode: 0o755 });
    const w = enforcementWrapper('cd sub; echo out; echo err >&2', { bwrap: '/usr/bin/env', args: [], shell: '/bin/bash', cwdFile: join(cwdFiles, 'nopath') });
    for (const shell of ['/bin/bash', ...(existsSync('/bin/zsh') ? ['/bin/zsh'] : [])]) {
      const r = runAsClient(w.replace(join(cwdFiles, 'nopath'), join(cwdFiles, `nopath-${shell.slice(5)}`)), dir, { ...process.env, PATH: bin }, shell);
      expect(r, shell).toMatchObject({ code: 0, stdout: 'out\n', stderr: 'err\n', cwd: join(dir, 'sub') });
    }
    spawnSync('/bin/sleep', ['0.2']);
    expect(existsSync(log) ? readFileSync(log, 'utf8') : '').toBe('');
    rmSync(bin, { recursive: true, force: true });
  });

  it('the hook sweeps the cwd files of calls that ended long ago', () => {
    const d = mkdtempSync(join(tmpdir(), 'bashguard-sweep-'));
    const now = Date.now();
    for (const n of ['old', 'recent']) writeFileSync(join(d, n), '');
    utimesSync(join(d, 'old'), new Date(now - 3_600_000), new Date(now - 3_600_000));
    sweepCwdFiles(d, now);
    expect(existsSync(join(d, 'old'))).toBe(false);
    expect(existsSync(join(d, 'recent'))).toBe(true);
    rmSync(d, { recursive: true, force: true });
  });

  it('a sweep looks at a bounded window of a crowded directory, and sweeps after sweeps reach every old file', () => {
    const d = mkdtempSync(join(tmpdir(), 'bashguard-sweep-'));
    const now = Date.now();
    const old = new Date(now - 3_600_000);
    for (let i = 0; i < 40; i++) {
      writeFileSync(join(d, `old-${i}`), '');
      utimesSync(join(d, `old-${i}`), old, old);
      writeFileSync(join(d, `recent-${i}`), '');
    }
    sweepCwdFiles(d, now, 10);
    const left = () => readdirSync(d).filter((n) => n.startsWith('old-')).length;
    // (10 looked at: at most 10 of the 40 old ones gone, whatever the window drew)
    expect(left()).toBeGreaterThanOrEqual(30);
    for (let k = 0; k < 200 && left() > 0; k++) sweepCwdFiles(d, now, 10);
    expect(left()).toBe(0);
    expect(readdirSync(d).filter((n) => n.startsWith('recent-'))).toHaveLength(40);
    rmSync(d, { recursive: true, force: true });
  });

  it('refuses a NUL byte', () => {
    expect(() => plain('echo a\0b')).toThrow(/NUL/);
  });
});

const { bwrap, canRun } = bwrapHere('the enforcement runs under bubblewrap');

// Three times: the plan's mounts made in the client's own shell (`auto`, bash, the builtin
// installed, the client's temp dir writable: native/landlock-builtin.c's bashguard_mounts), by the
// helper for the inner shell (`auto` where the client's temp dir is read-only in the plan, as for
// a zsh client: native/landlock-exec.c --mounts), and by bubblewrap itself (`"enforce": "bwrap"`).
const inShellHere = landlockHelper() !== null && landlockBuiltin(landlockHelper()!) !== null;
const helperHere = landlockHelper() !== null;
describe.skipIf(!canRun).each([
  { path: "in the client's shell", by: 'shell' as const },
  { path: 'by the helper', by: 'helper' as const },
  { path: 'bwrap', by: 'bwrap' as const },
])('enforcement under bubblewrap, for real: $path', ({ by }) => {
  const inShell = by === 'shell';
  let L: GitLayout;
  let home: string;
  let env: NodeJS.ProcessEnv;
  const wrap = (command: string, cwd = L.worktree) => {
    const ws = openWorkspace(cwd, { env });
    const e = enforceCall(ws, command, by === 'bwrap' ? 'bwrap' : 'auto', env);
    if (e.kind !== 'bwrap') throw new Error(`not enforced: ${JSON.stringify(e)}`);
    expect(e.by, 'who makes the mounts').toBe(by === 'shell' ? (inShellHere ? 'shell' : helperHere ? 'helper' : undefined) : by === 'helper' && helperHere ? 'helper' : undefined);
    return e.command;
  };
  const run = (command: string, cwd = L.worktree) => runAsClient(wrap(command, cwd), cwd, env);
  /** A test of the client's-shell case only: registered there (not a skip in the others); it needs the builtin. */
  const noBuiltin = inShell && !inShellHere ? cannotRun("the mounts in the client's shell: the Landlock helper or its builtin (bashguard-landlock.so) is not installed") : null;
  const itInShell = (name: string, fn: () => void) => (inShell ? it.skipIf(noBuiltin !== null)(name, fn) : undefined);

  beforeAll(() => {
    L = makeGitLayout('bashguard-enforce-');
    home = join(L.root, 'home');
    mkdirSync(join(home, '.claude', 'hooks'), { recursive: true });
    writeFileSync(join(home, '.claude', 'settings.json'), '{"hooks":{}}\n');
    writeFileSync(join(home, '.claude', 'hooks', 'launcher.cjs'), '// launcher\n');
    writeFileSync(join(home, '.claude.json'), '{}\n');
    mkdirSync(join(L.worktree, 'sub'), { recursive: true });
    // (TMPDIR in the layout: the wrappers' cwd files go with it)
    mkdirSync(join(L.root, 'tmp'), { recursive: true });
    env = cleanEnv({ HOME: home, TMPDIR: join(L.root, 'tmp'), SHELL: '/bin/bash' });
    if (by === 'helper') env.CLAUDE_CODE_TMPDIR = join(home, '.claude');
    else delete env.CLAUDE_CODE_TMPDIR;
    delete env.XDG_CONFIG_HOME;
    delete env.XDG_STATE_HOME;
    delete env.CLAUDE_CONFIG_DIR;
  });
  afterAll(() => L?.cleanup());

  it('the plan: the write roots writable, everything else read-only', () => {
    mkdirSync(join(home, '.npm'), { recursive: true });
    mkdirSync(join(home, '.cache'), { recursive: true });
    const ws = openWorkspace(L.worktree, { env });
    const plan = enforcementPlan(ws, bwrap!, clientShell(env));
    const access = (p: string) => effectiveAccess(p, plan.grants);
    // One model, both lines: every scratch dir the analyzer allows is writable in the plan, /dev/shm among them.
    const scratch = ws.regions.filter((r) => r.kind === 'scratch').map((r) => r.root);
    expect(scratch).toContain('/dev/shm');
    for (const r of scratch) if (existsSync(r)) expect(access(`${realpathSync(r)}/x`), r).toBe('rw');
    expect(access(join(L.worktree, 'x'))).toBe('rw');
    expect(access(join(home, '.npm', 'cache'))).toBe('rw');
    expect(access(join(home, '.cache', 'pip', 'x'))).toBe('rw');
    expect(access('/tmp/x')).toBe('rw');
    expect(access('/dev/shm/x'), 'a scratch dir').toBe('rw');
    expect(access('/dev/null')).toBe('rw');
    // Outside every write root: read-only, whatever the analyzer predicted.
    for (const p of [join(L.outside, 'x'), join(home, 'x'), join(home, '.ssh', 'authorized_keys'), join(home, '.local', 'bin', 'x'), '/etc/x', join(L.root, 'x')]) {
      expect(access(p), p).toBe('ro');
    }
    for (const p of [join(L.main, 'README.md'), join(L.sibling, 'x'), join(L.main, '.git', 'config'), join(L.main, '.git', 'hooks', 'pre-commit'), join(home, '.claude', 'settings.json'), join(home, '.claude', 'hooks', 'x'), join(home, '.claude.json')]) {
      expect(access(p), p).toBe('ro');
    }
    for (const p of ['objects/ab/cd', 'refs/heads/b1', 'worktrees/b1/index']) expect(access(join(L.main, '.git', p)), p).toBe('rw');
    // The binaries the wrapper and the hook run, unless only root could replace them (system dirs).
    const extra = enforcementControlPaths(env, join(home, 'bin', 'bwrap'), '/usr/bin/bash').map((c) => c.path);
    expect(extra).toContain(join(home, 'bin', 'bwrap'));
    expect(extra).not.toContain('/usr/bin/bash');
    expect(extra).toEqual(expect.arrayContaining([join(home, '.claude'), join(home, '.claude.json')]));
  });

  it('escapes the analyzer cannot see fail: interpreters, scripts, indirection, hard links, renames', () => {
    const main = L.main;
    const escapes = [
      `node -e "require('fs').writeFileSync('../../ESC1','x')"`,
      `node -e "require('fs').writeFileSync('${main}/ESC2', 'x')"`,
      `printf 'echo x > %s/ESC3\\n' "${main}" > s.sh && sh s.sh`,
      `printf 'all:\\n\\ttouch %s/ESC4\\n' "${main}" > Makefile.esc && make -f Makefile.esc`,
      `node -e "require('fs').appendFileSync(process.env.HOME + '/.claude/settings.json', 'x')"`,
      `node -e "require('fs').mkdirSync('.claude',{recursive:true});require('fs').writeFileSync('.claude/settings.local.json','{}')"`,
      `ln ${home}/.claude/settings.json ./hardlink.json`,
      `mv ${home}/.claude ${home}/.claude-moved`,
      `mv ${home} ${L.root}/home-moved`,
      `node -e "require('fs').appendFileSync('${main}/.git/config','[core]\\n\\thooksPath=/tmp\\n')"`,
      `node -e "require('fs').writeFileSync('${main}/.git/hooks/post-commit','x')"`,
      `node -e "require('fs').writeFileSync('${L.sibling}/ESC5','x')"`,
      `node -e "require('fs').writeFileSync(process.execPath, 'x')"`,
      `echo x > /proc/1/root${main}/ESC6`,
      `mount -o remount,rw ${main}`,
      // Files read by programs outside the sandbox: git's user config (core.fsmonitor runs a
      // command on the hook's next \`git status\`), the client shell's startup files.
      `printf '[core]\\n\\tfsmonitor = touch ${main}/ESC7\\n' >> "$HOME/.gitconfig"`,
      `echo 'touch ${main}/ESC8' >> "$HOME/.zshenv"`,
      `echo 'touch ${main}/ESC9' >> "$HOME/.bashrc"`,
      // Another process's view of the tree (the client's own: no pid namespace hides it in the
      // client's shell), and a nested user namespace's power over the mounts.
      `echo x > /proc/$PPID/root${main}/ESC10`,
      `unshare -Urm sh -c 'umount ${main}; echo x > ${main}/ESC11'`,
      // Outside every write root, beside the checkouts and in HOME: not protected, not writable.
      `python3 -c "open('${L.outside}/ESC12','w').write('x')"`,
      `touch "$HOME/ESC13"`,
      `mkdir -p "$HOME/.local/bin" && echo x > "$HOME/.local/bin/ESC14"`,
      `mkdir "$HOME/.ssh"`,
    ];
    const before = git(main, ['status', '--porcelain']);
    const settings = readFileSync(join(home, '.claude', 'settings.json'), 'utf8');
    for (const c of escapes) {
      const r = run(c);
      expect(r.code, `${c}: ${r.stderr}`).not.toBe(0);
    }
    for (const f of ['ESC1', 'ESC2', 'ESC3', 'ESC4', 'ESC6', 'ESC10', 'ESC11']) expect(existsSync(join(main, f)), f).toBe(false);
    expect(existsSync(join(L.sibling, 'ESC5'))).toBe(false);
    for (const p of [join(L.outside, 'ESC12'), join(home, 'ESC13'), join(home, '.local'), join(home, '.ssh')]) expect(existsSync(p), p).toBe(false);
    expect(existsSync(join(L.worktree, '.claude', 'settings.local.json'))).toBe(false);
    expect(existsSync(join(L.worktree, 'hardlink.json'))).toBe(false);
    expect(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')).toBe(settings);
    expect(existsSync(join(home, '.claude', 'settings.json'))).toBe(true);
    expect(readFileSync(join(main, '.git', 'config'), 'utf8')).not.toContain('hooksPath');
    // (outside the write roots: neither written nor reserved, so no empty file is left either)
    for (const f of ['.gitconfig', '.zshenv', '.bashrc']) expect(existsSync(join(home, f)), f).toBe(false);
    expect(git(main, ['status', '--porcelain'])).toBe(before);
  });

  it('the same commands do their legitimate work: the worktree, /tmp, /dev/shm, HOME, a commit on the branch, a cd for the next call', () => {
    expect(run(`node -e "require('fs').writeFileSync('made.txt','ok')"`).code).toBe(0);
    expect(readFileSync(join(L.worktree, 'made.txt'), 'utf8')).toBe('ok');
    const tmp = join('/tmp', `bashguard-enforce-${process.pid}`);
    expect(run(`node -e "require('fs').writeFileSync('${tmp}', 'ok')"`).code).toBe(0);
    expect(readFileSync(tmp, 'utf8')).toBe('ok');
    rmSync(tmp);
    // (shared memory, a scratch dir: POSIX semaphores and multiprocessing locks live there)
    if (existsSync('/dev/shm')) {
      const shm = `/dev/shm/bashguard-enforce-${process.pid}`;
      expect(run(`echo ok > ${shm}`).code).toBe(0);
      expect(readFileSync(shm, 'utf8')).toBe('ok\n');
      rmSync(shm);
    }
    expect(run(`mkdir -p "$HOME/.cache/tool" && echo ok > "$HOME/.cache/tool/x"`).code).toBe(0);
    expect(readFileSync(join(home, '.cache', 'tool', 'x'), 'utf8')).toBe('ok\n');
    const c = run('git add made.txt && git commit -qm enforced && git log -1 --format=%s');
    expect(c, c.stderr).toMatchObject({ code: 0, stdout: 'enforced\n' });
    expect(git(L.worktree, ['log', '-1', '--format=%s'])).toBe('enforced');
    const cd = run('cd sub');
    expect(cd.cwd).toBe(join(L.worktree, 'sub'));
    expect(run('echo rel > rel.txt', cd.cwd).code).toBe(0);
    expect(readFileSync(join(L.worktree, 'sub', 'rel.txt'), 'utf8')).toBe('rel\n');
  });

  it('a command near the 128 KiB limit of one argument runs: the wrapper, passed as one argument as the client does, holds it once', () => {
    const big = `: '${'x'.repeat(100 * 1024)}'; echo big-done`;
    const w = wrap(big);
    expect(w.length).toBeLessThan(128 * 1024);
    const r = spawnSync('/bin/bash', ['-c', w], { cwd: L.worktree, env, encoding: 'utf8', timeout: 30_000 });
    expect(r.error, String(r.error)).toBeUndefined();
    expect(r).toMatchObject({ status: 0, stdout: 'big-done\n' });
  });

  it('where bwrap cannot set the sandbox up, the command does not run and bwrap\'s message reaches stderr', () => {
    const w = enforcementWrapper(`touch ${join(L.worktree, 'never')}`, { bwrap: bwrap!, args: ['--bind', '/nonexistent-bashguard', '/x'], shell: '/bin/bash', cwdFile: join(cwdFiles, 'fail') });
    const r = runAsClient(w, L.worktree, env);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/bwrap: /);
    expect(existsSync(join(L.worktree, 'never'))).toBe(false);
  });

  it('a background process outlives the call, which returns at once; the exit status is the command\'s', () => {
    const marker = join(L.worktree, 'bg-done');
    const go = join(L.worktree, 'bg-go');
    // The background process waits for a file the test makes only once the call has returned: a
    // wrapper that waited for it would never return (and the call's own time limit would end it),
    // whatever the machine's load. (Its output elsewhere: a process holding the call's stdout keeps
    // any reader of it waiting, wrapped or not.)
    const r = run(`(i=0; while [ ! -e ${go} ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; echo done > ${marker}) >/dev/null 2>&1 & echo started`);
    expect(r).toMatchObject({ code: 0, stdout: 'started\n' });
    expect(existsSync(marker)).toBe(false);
    writeFileSync(go, '');
    const until = Date.now() + 30_000;
    while (!existsSync(marker) && Date.now() < until) spawnSync('sleep', ['0.1']);
    expect(readFileSync(marker, 'utf8')).toBe('done\n');
    expect(run('exit 5').code).toBe(5);
  });

  it('a missing control file outside the write roots is not reserved, and a background process that outlives its call cannot create it', () => {
    const rc = join(home, '.zshrc');
    rmSync(rc, { force: true });
    const marker = join(L.worktree, 'bg-tried');
    const r = run(`(sleep 1; echo 'touch ${L.main}/ESC-BG' >> "$HOME/.zshrc"; echo $? > ${marker}) >/dev/null 2>&1 & echo started`);
    expect(r).toMatchObject({ code: 0, stdout: 'started\n' });
    const until = Date.now() + 10_000;
    while (!existsSync(marker) && Date.now() < until) spawnSync('sleep', ['0.1']);
    expect(readFileSync(marker, 'utf8').trim()).not.toBe('0');
    expect(existsSync(rc)).toBe(false);
    expect(existsSync(join(L.main, 'ESC-BG'))).toBe(false);
  });

  const runIn = (wrapper: string, prelude: string, launcher: string[] = []) => runWrapper(wrapper, { cwd: L.worktree, env, prelude, launcher });

  itInShell("where the (cached) probes say the client's shell cannot make the mounts here (Ubuntu's AppArmor), the helper makes them; where neither can, bubblewrap starts, without trying", () => {
    const helper = landlockHelper()!;
    const so = landlockBuiltin(helper)!;
    const file = probeCacheFile(env)!;
    const before = existsSync(file) ? readFileSync(file, 'utf8') : null;
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    const cache = before ? (JSON.parse(before) as { boot: string; probes: Record<string, unknown> }) : { boot: currentBootId(), probes: {} };
    const plant = (keys: string[]) => writeFileSync(file, JSON.stringify({ boot: currentBootId(), probes: { ...cache.probes, ...Object.fromEntries(keys.map((k) => [k, { ok: false, why: 'planted' }])) } }));
    try {
      plant([inShellProbeKey(so, clientShell(env))]);
      const e = enforceCall(openWorkspace(L.worktree, { env }), `echo x > ${L.main}/ESC-P`, 'auto', env);
      expect(e).toMatchObject({ kind: 'bwrap', by: 'helper' });
      expect(e.kind === 'bwrap' && e.command).not.toMatch(/bashguard_mounts|bwrap/);
      // (and it holds: the helper's mounts refuse the write)
      expect(runAsClient(e.kind === 'bwrap' ? e.command : '', L.worktree, env).code).not.toBe(0);
      plant([inShellProbeKey(so, clientShell(env)), helperMountsProbeKey(helper)]);
      const b = enforceCall(openWorkspace(L.worktree, { env }), 'true', 'auto', env);
      expect(b).toMatchObject({ kind: 'bwrap' });
      expect(b.kind === 'bwrap' && b.by).toBeUndefined();
      expect(b.kind === 'bwrap' && b.command).not.toMatch(/bashguard_mounts| --mounts /);
    } finally {
      if (before === null) rmSync(file, { force: true });
      else writeFileSync(file, before);
    }
    expect(existsSync(join(L.main, 'ESC-P'))).toBe(false);
  });

  it('no new top-level entry (root included: everything but the write roots is read-only); /tmp, /dev/null and /dev/shm stay as the host has them', () => {
    const tag = `bashguard-top-${process.pid}-${by}`;
    try {
      const r = run(`mkdir /${tag} 2>/dev/null && echo made; : > /tmp/${tag} && echo tmp; : > /dev/null && echo null; if [ -d /dev/shm ]; then : > /dev/shm/${tag} && echo shm; else echo shm; fi`);
      expect(r.stdout).toBe('tmp\nnull\nshm\n');
      expect(existsSync(`/${tag}`)).toBe(false);
      expect(existsSync(`/tmp/${tag}`)).toBe(true);
    } finally {
      for (const p of [`/${tag}`, `/tmp/${tag}`, `/dev/shm/${tag}`]) rmSync(p, { recursive: true, force: true });
    }
  });

  itInShell("in the client's shell: its functions run, `exit` ends it as unwrapped; where the builtin cannot load or declines, the helper (bwrap where its probe failed) runs the command, confined", () => {
    expect(runIn(wrap('greet'), 'greet() { echo "hello from the snapshot"; }')).toMatchObject({ code: 0, stdout: 'hello from the snapshot\n' });
    const escape = wrap(`echo x > ${L.main}/ESC-FB`);
    const ok = wrap('echo fine; exit 4');
    const missing = (w: string) => w.replace(/enable -f \S+ bashguard_mounts/, `enable -f ${join(L.root, 'nope.so')} bashguard_mounts`);
    expect(missing(escape)).not.toBe(escape);
    const launchers: [string, string[]][] = [['the builtin missing', []]];
    if (spawnSync('perl', ['-e', '1']).status === 0) launchers.push(['a process group leader', ['perl', '-e', 'setpgrp(0,0); exec @ARGV or exit 127']]);
    for (const [what, launcher] of launchers) {
      const w = (x: string) => (what === 'the builtin missing' ? missing(x) : x);
      expect(runIn(w(escape), '', launcher).code, what).not.toBe(0);
      expect(runIn(w(ok), '', launcher), what).toMatchObject({ code: 4, stdout: 'fine\n' });
      // (the fallback's inner shell does not have the client's functions: the helper or bwrap ran)
      expect(runIn(w(wrap('greet')), 'greet() { echo hi; }', launcher).code, what).toBe(127);
    }
    expect(existsSync(join(L.main, 'ESC-FB'))).toBe(false);
  });

});

describe('the enforce setting and the hook', () => {
  let L: GitLayout;
  let home: string;
  const hook = async (input: Record<string, unknown>, opts: { env?: NodeJS.ProcessEnv; agent?: string; exitCode?: boolean } = {}) => {
    const out: string[] = [];
    const err: string[] = [];
    const event = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: input, cwd: L.worktree, tool_use_id: 'toolu_1' };
    const io: IO = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), readStdin: async () => JSON.stringify(event), env: opts.env ?? cleanEnv({ HOME: home, TMPDIR: join(L.root, 'tmp') }), cwd: L.worktree, isTTY: false };
    const client = CLIENTS[opts.agent ?? 'claude'];
    const code = await runHook(io, { exitCode: Boolean(opts.exitCode), getParser: () => getParser(), ...(client ? { client } : {}) });
    const text = out.join('');
    return { code, out: text ? (JSON.parse(text) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string; updatedInput?: Record<string, unknown> } }).hookSpecificOutput : null, stderr: err.join('') };
  };
  const userConfig = (cfg: unknown) => {
    mkdirSync(join(home, '.config', 'bashguard'), { recursive: true });
    writeFileSync(join(home, '.config', 'bashguard', 'config.json'), JSON.stringify(cfg));
  };
  beforeAll(() => {
    L = makeGitLayout('bashguard-enforce-hook-');
    home = join(L.root, 'home');
    mkdirSync(join(L.root, 'tmp'), { recursive: true });
    mkdirSync(join(home, '.claude'), { recursive: true });
  });
  afterAll(() => L?.cleanup());

  it('config: enforce is auto by default, one of auto, bwrap, client, off; a worktree file may only require bwrap', () => {
    expect(DEFAULT_CONFIG.enforce).toBe('auto');
    expect(parseConfig('{"enforce":"off"}', 'f.json', '/').enforce).toBe('off');
    expect(() => parseConfig('{"enforce":"yes"}', 'f.json', '/')).toThrow(ConfigError);
    expect(() => parseConfig('{"enforce":"yes"}', 'f.json', '/')).toThrow(/enforce: must be one of "auto", "bwrap", "landlock", "seatbelt", "client", "off"/);
    const notices: string[] = [];
    expect(tighten(DEFAULT_CONFIG, parseConfigLayer('{"enforce":"off"}', 'w.json', '/'), notices).enforce).toBe('auto');
    expect(tighten(DEFAULT_CONFIG, parseConfigLayer('{"enforce":"client"}', 'w.json', '/'), notices).enforce).toBe('auto');
    expect(notices.join('\n')).toMatch(/enforce: off ignored/);
    expect(tighten(DEFAULT_CONFIG, parseConfigLayer('{"enforce":"bwrap"}', 'w.json', '/'), []).enforce).toBe('bwrap');
  });

  it('an allowed call keeps the rest of its tool input; a denied one is not wrapped; with --exit-code nothing is wrapped; Codex gets the wrapper behind its sandbox check', async () => {
    rmSync(join(home, '.config'), { recursive: true, force: true });
    const r = await hook({ command: 'echo ok > notes.txt', description: 'd', timeout: 5000, run_in_background: false });
    if (canRun) {
      expect(r.out?.permissionDecision).toBe('allow');
      expect(r.out?.updatedInput).toMatchObject({ description: 'd', timeout: 5000, run_in_background: false });
      // (bubblewrap's mounts: made by the client's bash, the helper for another shell, or bwrap)
      expect(String(r.out?.updatedInput?.command)).toMatch(/bashguard_mounts|bashguard-landlock'? --mounts |bwrap/);
      // The same event, the same answer (the cwd file's name comes from the call's id), whether
      // or not an earlier call made the reservations already.
      expect((await hook({ command: 'echo ok > notes.txt', description: 'd', timeout: 5000, run_in_background: false })).out).toEqual(r.out);
    }
    expect((await hook({ command: `echo x > ${L.main}/README.md` })).out?.permissionDecision).toBe('deny');
    expect((await hook({ command: 'echo ok > notes.txt' }, { exitCode: true })).out).toBeNull();
    const codex = await hook({ command: 'echo ok > notes.txt' }, { agent: 'codex' });
    if (canRun) {
      // Codex runs `updatedInput.command` too: the wrapper, behind the check for Codex's own sandbox.
      expect(codex.out?.permissionDecision).toBe('allow');
      expect(String(codex.out?.updatedInput?.command)).toMatch(/^__bg_c='echo ok > notes.txt'; if ! \{ \[ -w .*; then eval "\$__bg_c"; else [\s\S]*(bashguard_mounts|bashguard-landlock'? --mounts |--unshare-user)/);
    }
  });

  it.runIf(canRun)('what the analyzer cannot decide runs under the kernel where it holds (issue 51 item 5); with enforcement off the ask stays; a certain escape is still denied', async () => {
    rmSync(join(home, '.config'), { recursive: true, force: true });
    // Where a control file does not exist and no mount can reserve it (`.codex` a link to a
    // scratch dir: its files would land there), the ask stays, naming it.
    const elsewhere = join(L.root, 'tmp', 'codex-elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    symlinkSync(elsewhere, join(L.worktree, '.codex'));
    const unheld = await hook({ command: 'tar -xf ../../../other.tar' });
    expect(unheld.out?.permissionDecision).toBe('ask');
    expect(unheld.out?.permissionDecisionReason).toMatch(/asked although the OS enforcement is in effect: \[BG1005\] the kernel leaves \S+\/\.codex\/hooks\.json writable/);
    const unread = await hook({ command: 'eval "$X"' });
    expect(unread.out?.permissionDecision).toBe('ask');
    expect(unread.out?.permissionDecisionReason).toMatch(/\[BG4002\] bashguard cannot read what runs, and \S+\/\.\w+\/\S+ \(a control file that does not exist yet\)/);
    rmSync(join(L.worktree, '.codex'));
    // The client directories do not exist: each is reserved for the call, so nothing can make them.
    for (const command of ['tar -xf ../../../other.tar', 'eval "$X"']) {
      const reserved = await hook({ command });
      expect(reserved.out?.permissionDecision, `${command}: ${reserved.out?.permissionDecisionReason}`).toBe('allow');
    }
    // The client directories of a configured project exist: each is read-only as a whole.
    for (const d of ['.claude', '.codex', '.gemini', '.cursor', '.github/hooks']) mkdirSync(join(L.worktree, d), { recursive: true });
    // A tree writer near control files (the archive's names are not known statically), a write
    // target not resolved, code bashguard cannot read (dynamic; bash-valid text the grammar rejects).
    for (const command of ['tar -xf ../../../other.tar', 'cd "$X" && touch marker', 'eval "$X"', 'for v in */; do (cd "$v" || continue; echo x) done']) {
      const r = await hook({ command });
      expect(r.out?.permissionDecision, `${command}: ${r.out?.permissionDecisionReason}`).toBe('allow');
      expect(String(r.out?.updatedInput?.command)).toMatch(/bashguard_mounts|bashguard-landlock'? --mounts |bwrap/);
      expect(r.out?.permissionDecisionReason).toMatch(/cannot decide this command statically .*runs under the OS enforcement instead of asking/s);
      expect(r.out?.permissionDecisionReason).toMatch(/may write only in the write roots/);
      // Standing for an ask, it runs unwrapped inside a client's own sandbox only where the
      // worktree's control files are unwritable there too.
      const check = String(r.out?.updatedInput?.command).split('; then')[0]!;
      expect(check).toContain(join(L.worktree, '.claude'));
    }
    const plain = String((await hook({ command: 'echo ok > notes.txt' })).out?.updatedInput?.command).split('; then')[0]!;
    expect(plain).toMatch(/\[ -w /);
    expect(plain).not.toContain(join(L.worktree, '.claude'));
    // Code handed to a daemon runs outside the call's sandbox: still an ask, saying so.
    for (const command of [`tmux new-window -d 'touch ../../x'`, 'ssh localhost "$X"', `at now <<< 'touch x'`]) {
      const r = await hook({ command });
      expect(r.out?.permissionDecision, command).toBe('ask');
      expect(r.out?.permissionDecisionReason).toMatch(/\[BG4002\] a daemon outside this call runs the code/);
    }
    // Under Landlock the shared refs stay writable: code bashguard cannot read stays an ask there.
    if (landlockAvailable(process.env).ok) {
      userConfig({ enforce: 'landlock' });
      const ll = await hook({ command: 'eval "$X"' });
      expect(ll.out?.permissionDecision).toBe('ask');
      expect(ll.out?.permissionDecisionReason).toMatch(/\[BG4002\] bashguard cannot read what runs, and Landlock leaves the shared refs in \S+ writable/);
    }
    userConfig({ enforce: 'off' });
    const off = await hook({ command: 'tar -xf ../../../other.tar' });
    expect(off.out?.permissionDecision).toBe('ask');
    expect(off.out?.updatedInput).toBeUndefined();
    rmSync(join(home, '.config'), { recursive: true, force: true });
    expect((await hook({ command: `echo x > ${L.main}/README.md` })).out?.permissionDecision).toBe('deny');
    for (const d of ['.claude', '.codex', '.gemini', '.cursor', '.github']) rmSync(join(L.worktree, d), { recursive: true, force: true });
  });

  it('dangerouslyDisableSandbox is denied unless enforcement is off', async () => {
    rmSync(join(home, '.config'), { recursive: true, force: true });
    const r = await hook({ command: 'ls', dangerouslyDisableSandbox: true });
    expect(r.out?.permissionDecision).toBe('deny');
    expect(r.out?.permissionDecisionReason).toMatch(/outside the sandbox/);
    userConfig({ enforce: 'client' });
    expect((await hook({ command: 'ls', dangerouslyDisableSandbox: true })).out?.permissionDecision).toBe('deny');
    // client: the client's sandbox holds the line; the command is not rewritten
    expect((await hook({ command: 'ls' })).out).toBeNull();
    userConfig({ enforce: 'off' });
    expect((await hook({ command: 'ls', dangerouslyDisableSandbox: true })).out).toBeNull();
    expect((await hook({ command: 'ls' })).out).toBeNull();
  });

  it('without bubblewrap: auto allows and says so on stderr; bwrap (required) asks', async (ctx) => {
    const noBwrap = cleanEnv({ HOME: home, PATH: '/nonexistent' });
    rmSync(join(home, '.config'), { recursive: true, force: true });
    // bwrap in a system directory is always found: then the hook runs in a mount namespace of its
    // own (as root) with bwrap and bashguard's helper (which would stand in for it) hidden.
    const helpers = [join(REPO_ROOT, 'build', 'Release', 'bashguard-landlock'), join(REPO_ROOT, 'prebuilds', `${process.platform}-${process.arch}`, 'bashguard-landlock')];
    const hidden = [findBwrap(noBwrap), ...helpers.filter((p) => existsSync(p))].filter((p): p is string => p !== null).map((p) => realpathSync(p));
    if (findBwrap(noBwrap) && !(process.getuid?.() === 0 && spawnSync('unshare', ['-m', 'true']).status === 0)) {
      return ctx.skip(cannotRun('bubblewrap is installed in a system directory, and hiding it needs root (unshare -m)'));
    }
    const run = async (input: Record<string, unknown>) => {
      if (!findBwrap(noBwrap)) return hook(input, { env: noBwrap });
      const blank = join(L.root, 'not-a-program');
      writeFileSync(blank, '', { mode: 0o644 });
      const mounts = hidden.map((_, i) => `mount --bind "$0" "$${i + 1}"`).join(' && ');
      const event = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: input, cwd: L.worktree, tool_use_id: 'toolu_1' };
      const r = spawnSync('unshare', ['-m', 'sh', '-c', `${mounts} && shift ${hidden.length} && PATH=/nonexistent exec "$@"`, blank, ...hidden, process.execPath, join(REPO_ROOT, 'bin', 'bashguard.js'), 'hook'], { cwd: L.worktree, env: { ...noBwrap, PATH: '/usr/sbin:/usr/bin:/sbin:/bin' }, input: JSON.stringify(event), encoding: 'utf8', timeout: 30_000 });
      expect(r.status, r.stderr).toBe(0);
      return { code: r.status, out: r.stdout ? (JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } }).hookSpecificOutput : null, stderr: r.stderr };
    };
    const auto = await run({ command: 'ls' });
    expect(auto.out).toBeNull();
    expect(auto.stderr).toMatch(/not enforced by the OS: bubblewrap \(bwrap\) is not installed/);
    userConfig({ enforce: 'bwrap' });
    const req = await run({ command: 'ls' });
    expect(req.out?.permissionDecision).toBe('ask');
    expect(req.out?.permissionDecisionReason).toMatch(/requires bubblewrap/);
  });

  // A machine without bubblewrap: as root, bwrap hidden in a mount namespace of its own (a
  // non-executable file bound over it) for the hook; its answer then runs as the client would.
  const noHiding =
    process.getuid?.() !== 0
      ? platformSkip(true, PLATFORM_REASONS.asRoot)
      : unless(findBwrap(process.env) !== null && spawnSync('unshare', ['-m', 'true']).status === 0 && landlockHelper() !== null, 'hiding bubblewrap needs it installed, unshare -m and the Landlock helper');
  it.skipIf(noHiding !== null)("without bubblewrap installed, auto makes bubblewrap's mounts with bashguard's own helper (and builtin): an escape fails, the worktree's work is done, doctor says so (as root)", () => {
    rmSync(join(home, '.config'), { recursive: true, force: true });
    const blank = join(L.root, 'not-bwrap');
    writeFileSync(blank, '', { mode: 0o644 });
    const env = cleanEnv({ HOME: home, TMPDIR: join(L.root, 'tmp'), SHELL: '/bin/bash' });
    const bw = realpathSync(findBwrap(env)!);
    const without = (argv: string[], input = '') => spawnSync('unshare', ['-m', 'sh', '-c', 'mount --bind "$0" "$1" && shift 2 && exec "$@"', blank, bw, ...argv], { cwd: L.worktree, env, input, encoding: 'utf8', timeout: 30_000 });
    expect(without(['sh', '-c', `[ -x ${bw} ]`]).status, 'bwrap is hidden').not.toBe(0);
    const answer = (command: string) => {
      const r = without([process.execPath, join(REPO_ROOT, 'bin', 'bashguard.js'), 'hook'], JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: L.worktree, tool_use_id: `toolu_nb${command.length}` }));
      expect(r.status, r.stderr).toBe(0);
      const o = (JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string; updatedInput: { command: string } } }).hookSpecificOutput;
      expect(o.permissionDecision, o.permissionDecisionReason).toBe('allow');
      expect(o.permissionDecisionReason).toMatch(/bubblewrap's mounts, made/);
      expect(o.updatedInput.command).not.toMatch(/bwrap/);
      return o.updatedInput.command;
    };
    const readme = readFileSync(join(L.main, 'README.md'), 'utf8');
    const escape = runAsClient(answer(`node -e "require('fs').appendFileSync(require('path').resolve('..', '..', 'README.md'), 'x')"`), L.worktree, env);
    expect(escape.code).not.toBe(0);
    expect(readFileSync(join(L.main, 'README.md'), 'utf8')).toBe(readme);
    const ok = runAsClient(answer('echo made > made-here.txt && mkdir -p sub && cd sub'), L.worktree, env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.cwd).toBe(join(L.worktree, 'sub'));
    expect(readFileSync(join(L.worktree, 'made-here.txt'), 'utf8')).toBe('made\n');
    const doctor = without([process.execPath, join(REPO_ROOT, 'bin', 'bashguard.js'), 'doctor']);
    expect(doctor.stdout.split('\n').find((l) => /\benforcement\b/.test(l))).toMatch(/^ok +enforcement +bubblewrap's mounts without bubblewrap \(not installed\)/);
  });

  it('doctor names the mechanism in effect, and fails when none is', async () => {
    const doctor = async (env: NodeJS.ProcessEnv) => {
      let out = '';
      const io: IO = { stdout: (t) => void (out += t), stderr: () => undefined, readStdin: async () => '', env, cwd: L.worktree, isTTY: false };
      await runCli(['doctor'], io);
      return out.split('\n').find((l) => /\benforcement\b/.test(l)) ?? '';
    };
    rmSync(join(home, '.config'), { recursive: true, force: true });
    if (canRun) expect(await doctor(cleanEnv({ HOME: home }))).toMatch(/^ok +enforcement +bubblewrap/);
    // Who makes the mounts, by the client's shell: bash itself, or the helper for zsh.
    if (canRun && landlockHelper() && landlockBuiltin(landlockHelper()!)) expect(await doctor(cleanEnv({ HOME: home, TMPDIR: join(L.root, 'tmp'), SHELL: '/bin/bash' }))).toMatch(/the mounts are made in the client's own shell/);
    if (canRun && landlockHelper() && ZSH) expect(await doctor(cleanEnv({ HOME: home, SHELL: ZSH }))).toMatch(new RegExp(`the mounts are made by bashguard's helper .* for the client's shell \\(${ZSH}\\)`));
    userConfig({ enforce: 'off' });
    expect(await doctor(cleanEnv({ HOME: home }))).toMatch(/^ok +enforcement +off \(set in .*config.json\)/);
    userConfig({ enforce: 'client' });
    expect(await doctor(cleanEnv({ HOME: home }))).toMatch(/^FAIL enforcement +"enforce": "client".*do not set "sandbox": \{"enabled": true\}/);
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ sandbox: { enabled: true, allowUnsandboxedCommands: false, failIfUnavailable: true } }));
    expect(await doctor(cleanEnv({ HOME: home }))).toMatch(/^ok +enforcement +Claude Code's own sandbox/);
    // Under auto, Claude Code's sandbox turned on in the user settings: a wrapper cannot start
    // inside it, so doctor fails and says what to do; held by the managed settings, it is the mechanism.
    rmSync(join(home, '.config'), { recursive: true, force: true });
    expect(await doctor(cleanEnv({ HOME: home }))).toMatch(/^FAIL enforcement +Claude Code's own sandbox is on \(sandbox.enabled in .*settings.json\).*every Bash call .* would fail/);
    rmSync(join(home, '.claude', 'settings.json'));
    const managed = join(home, 'managed-settings.json');
    writeFileSync(managed, JSON.stringify({ sandbox: { enabled: true, allowUnsandboxedCommands: false, failIfUnavailable: true } }));
    expect(await doctor(cleanEnv({ HOME: home, BASHGUARD_MANAGED_SETTINGS: managed }))).toMatch(/^ok +enforcement +Claude Code's own sandbox \(held by its managed settings; "auto" steps aside for it\)/);
    rmSync(managed);
  });

  it("the hook steps aside under auto only for Claude Code's sandbox held by the managed settings (read safely)", () => {
    const f = join(home, 'm.json');
    const hold = { sandbox: { enabled: true, allowUnsandboxedCommands: false, failIfUnavailable: true } };
    writeFileSync(f, JSON.stringify(hold));
    expect(managedClaudeSandbox(f).ok).toBe(true);
    for (const weaker of [{ sandbox: { enabled: true, allowUnsandboxedCommands: false } }, { sandbox: { enabled: true, failIfUnavailable: true } }, { sandbox: { ...hold.sandbox, enabled: false } }]) {
      writeFileSync(f, JSON.stringify(weaker));
      expect(managedClaudeSandbox(f).ok, JSON.stringify(weaker)).toBe(false);
    }
    writeFileSync(f, '{not json');
    expect(managedClaudeSandbox(f)).toEqual({ ok: false, detail: `${f}: not JSON` });
    rmSync(f);
    expect(managedClaudeSandbox(f).ok).toBe(false);
    spawnSync('mkfifo', [f]);
    expect(managedClaudeSandbox(f).ok).toBe(false); // a FIFO is not read (it would block)
    rmSync(f);
  });

  it("the client's sandbox counts only from user or managed settings, with no way out", () => {
    expect(clientSandboxSettings([{ file: 'u', settings: { sandbox: { enabled: true } } }]).ok).toBe(false);
    expect(clientSandboxSettings([{ file: 'u', settings: { sandbox: { enabled: true, allowUnsandboxedCommands: false, failIfUnavailable: true } } }]).ok).toBe(true);
    expect(clientSandboxSettings([]).detail).toMatch(/none read/);
  });
});
