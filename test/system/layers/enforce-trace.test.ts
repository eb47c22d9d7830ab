/**
 * What the enforcement leaves behind and what it lets through (issue 51 items 1 and 3), for real,
 * with each way the mounts are made (the client's bash, the helper, bubblewrap) and Landlock:
 * - no trace: a session of ordinary calls (reads, git, a cd, scratch writes, a background process,
 *   a failing call, a call the client kills with SIGTERM or SIGKILL) leaves HOME and the worktree
 *   as they were, listed entry by entry with type, size, mode and mtime; so does a HOME inside a
 *   write root, whose missing control names are held without being created;
 * - ordinary work runs: a commit on the branch, `npm install` of a local package into the
 *   worktree, a test run, a server started in one call and reached in the next, a `cd` that the
 *   next call sees.
 * Skips, saying why, where bubblewrap cannot start (BASHGUARD_REQUIRE_ALL=1 makes that a failure).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { openWorkspace } from '../../../src/policy/workspace/index.js';
import { enforceCall } from '../../../src/layers/sandbox/enforce.js';
import { landlockAvailable, landlockBuiltin, landlockHelper } from '../../../src/layers/sandbox/probes.js';
import { cleanEnv, git } from '../../helpers/layers.js';
import { bwrapHere } from '../../helpers/bwrap.js';

/** Runs `wrapper` as Claude Code runs a Bash call: in bash, from `cwd`, then records `pwd -P`. */
function runAsClient(wrapper: string, cwd: string, env: NodeJS.ProcessEnv, timeout = 30_000, killSignal: NodeJS.Signals = 'SIGTERM') {
  const out = join(mkdtempSync(join(tmpdir(), 'bashguard-cwdout-')), 'cwd');
  const script = 'eval "$BG_W"; __s=$?; builtin pwd -P >| "$BG_OUT"; exit $__s';
  const r = spawnSync('/bin/bash', ['-c', script, 'bash'], { cwd, env: { ...env, BG_W: wrapper, BG_OUT: out }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout, killSignal });
  const dir = existsSync(out) ? readFileSync(out, 'utf8').replace(/\n$/, '') : '';
  rmSync(join(out, '..'), { recursive: true, force: true });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, cwd: dir };
}

/**
 * Every entry beneath `dir` with its type, size, mode and mtime (a name created and removed again
 * changes its directory's mtime), but bashguard's own registry of the reservations it makes, in
 * its cache directory (~/.cache/bashguard/reserved: the hook's state, not a trace).
 */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d).sort();
    } catch (err) {
      // (a reserved directory the sweeper removed between its lstat and this read: listed as it
      // was seen, and `settle` lists again)
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const name of names) {
      const p = join(d, name);
      if (p.endsWith('/.cache/bashguard/reserved')) continue;
      // (a reservation the sweeper removes while this lists)
      const st = lstatSync(p, { throwIfNoEntry: false });
      if (!st) continue;
      out.push(`${p.slice(dir.length)} ${st.isDirectory() ? 'd' : st.isSymbolicLink() ? 'l' : 'f'} ${st.size} ${st.mode.toString(8)} ${st.mtimeMs}`);
      if (st.isDirectory() && name !== '.git') walk(p);
    }
  };
  const st = lstatSync(dir);
  out.push(`. ${st.mode.toString(8)} ${st.mtimeMs}`);
  walk(dir);
  return out;
}

/**
 * Waits (up to 5 s) for `dir` to list as `expected`: the sweeper removes a call's reservations
 * once the call's process has ended, and a moment later where a background process of the call
 * still runs (native/reserve-core.h).
 */
function settle(dir: string, expected: string[]): void {
  for (let i = 0; i < 50 && listing(dir).join('\n') !== expected.join('\n'); i++) spawnSync('/bin/sleep', ['0.1']);
}

const { canRun } = bwrapHere('the enforcement runs under bubblewrap');
const helper = landlockHelper();
const inShellHere = helper !== null && landlockBuiltin(helper) !== null;
const landlockHere = process.platform === 'linux' && landlockAvailable(process.env).ok;

describe.skipIf(!canRun).each([
  { path: "in the client's shell", mode: 'auto' as const, by: 'shell', here: inShellHere },
  { path: 'by the helper', mode: 'auto' as const, by: 'helper', here: helper !== null },
  { path: 'bwrap', mode: 'bwrap' as const, by: undefined, here: true },
  { path: 'Landlock', mode: 'landlock' as const, by: undefined, here: landlockHere },
])('the enforcement, $path: no trace, and ordinary work runs', ({ mode, by, here }) => {
  let L: GitLayout;
  let home: string;
  let env: NodeJS.ProcessEnv;
  const run = (command: string, cwd = L.worktree, timeout?: number, signal?: NodeJS.Signals, callEnv = env) => {
    const e = enforceCall(openWorkspace(cwd, { env: callEnv }), command, mode, callEnv);
    if (e.kind !== 'bwrap' && e.kind !== 'landlock') throw new Error(`not enforced: ${JSON.stringify(e)}`);
    if (mode === 'auto' && e.kind === 'bwrap') expect(e.by, 'who makes the mounts').toBe(by);
    return runAsClient(e.command, cwd, callEnv, timeout, signal);
  };

  beforeAll(() => {
    L = makeGitLayout('bashguard-trace-');
    home = join(L.root, 'home');
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(home, '.claude', 'settings.json'), '{"hooks":{}}\n');
    // (a user who has used npm before: a tool cache that does not exist is not created)
    mkdirSync(join(home, '.npm'), { recursive: true });
    mkdirSync(join(L.worktree, 'sub'), { recursive: true });
    mkdirSync(join(L.root, 'tmp'), { recursive: true });
    env = cleanEnv({ HOME: home, TMPDIR: join(L.root, 'tmp'), SHELL: '/bin/bash' });
    // (the helper's path: the client's temp dir read-only in the plan, so its bash is not confined in place)
    if (by === 'helper') env.CLAUDE_CODE_TMPDIR = join(home, '.claude');
    else delete env.CLAUDE_CODE_TMPDIR;
    for (const k of ['XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME', 'CLAUDE_CONFIG_DIR']) delete env[k];
  });
  afterAll(() => L?.cleanup());

  it.runIf(here)('a session of ordinary calls leaves HOME and the worktree as they were', () => {
    // (the worktree's control dir exists, as in a project the client has run in: see the next test)
    mkdirSync(join(L.worktree, '.claude'), { recursive: true });
    // (the hook's own state, made by its first call in its cache dir, ~/.cache/bashguard: not the wrapper's doing)
    const worktree0 = listing(L.worktree);
    expect(run('true').code).toBe(0);
    settle(L.worktree, worktree0);
    const before = { home: listing(home), worktree: listing(L.worktree) };
    const scratch = join(L.root, 'tmp', 'scratch.txt');
    expect(run('true').code).toBe(0);
    expect(run('ls -la >/dev/null && cat README.md').stdout).toBe('# scratch\n');
    expect(run('git status --porcelain && git log -1 --format=%s >/dev/null').code).toBe(0);
    expect(run('cd sub').cwd).toBe(join(L.worktree, 'sub'));
    expect(run(`echo x > ${scratch}`).code).toBe(0);
    expect(run('(sleep 0.3 &) ; echo started').stdout).toBe('started\n');
    expect(run('exit 3').code).toBe(3);
    // A call the client kills (its timeout, SIGTERM; then SIGKILL, which the shell cannot trap),
    // one with a background process still running: nothing of the wrapper's is left either.
    // The killed shell's `sleep 2` lives on in its sandbox, which keeps its reservations held
    // until it ends; the next call's sweeper removes them.
    run('sleep 2', L.worktree, 500);
    run('(sleep 0.5 &); sleep 2', L.worktree, 500, 'SIGKILL');
    spawnSync('/bin/sleep', ['2']);
    expect(run('true').code).toBe(0);
    settle(L.worktree, before.worktree);
    expect(readFileSync(scratch, 'utf8')).toBe('x\n');
    expect(listing(home)).toEqual(before.home);
    expect(listing(L.worktree)).toEqual(before.worktree);
    rmSync(join(L.worktree, '.claude'), { recursive: true });
  });

  it.runIf(here)("the worktree's missing control dirs are held during the call and gone after it, HOME as it was", () => {
    rmSync(join(L.worktree, '.claude'), { recursive: true, force: true });
    const worktree0 = listing(L.worktree);
    // (the hook's own state, made by its first call in its cache dir, ~/.cache/bashguard: not the wrapper's doing)
    expect(run('true').code).toBe(0);
    settle(L.worktree, worktree0);
    const before = { home: listing(home), worktree: listing(L.worktree) };
    expect(before.worktree).toEqual(worktree0);
    expect(run('cd sub && ls >/dev/null').code).toBe(0);
    // Held: none of the clients' control dirs can be made during a call (`.github/` itself can).
    for (const f of ['.claude/settings.json', '.codex/hooks.json', '.gemini/settings.json', '.cursor/hooks.json', '.github/hooks/pre-commit']) {
      const r = run(`mkdir -p "$(dirname ${f})" 2>/dev/null; echo x > ${f}`);
      expect(r.code, f).not.toBe(0);
    }
    // A background process that outlives its call keeps its reservations until it ends; then a
    // later call's sweep removes them.
    expect(run('(sleep 1 &) ; true').code).toBe(0);
    spawnSync('/bin/sleep', ['1.2']);
    expect(run('true').code).toBe(0);
    settle(L.worktree, before.worktree);
    expect(listing(home)).toEqual(before.home);
    expect(listing(L.worktree)).toEqual(before.worktree);
    for (const d of ['.claude', '.codex', '.gemini', '.cursor', '.github']) expect(existsSync(join(L.worktree, d)), d).toBe(false);
    // What the command puts in a directory made on the way to a reservation is its own, and stays
    // (Landlock refuses a new top-level entry in a worktree that holds protected paths: its documented cost).
    if (mode !== 'landlock') {
      expect(run('mkdir -p .github/workflows && echo y > .github/workflows/ci.yml').code).toBe(0);
      for (let i = 0; i < 40 && existsSync(join(L.worktree, '.github', 'hooks')); i++) spawnSync('/bin/sleep', ['0.1']);
      expect(readdirSync(join(L.worktree, '.github'))).toEqual(['workflows']);
      expect(readFileSync(join(L.worktree, '.github', 'workflows', 'ci.yml'), 'utf8')).toBe('y\n');
      rmSync(join(L.worktree, '.github'), { recursive: true });
    }
  });

  it.runIf(here)('HOME in a scratch dir is not a write root: nothing in it is written, nothing created', () => {
    // (a container's or an orchestrator's HOME under $TMPDIR)
    const home2 = join(L.root, 'tmp', 'home-scratch');
    mkdirSync(join(home2, 'work'), { recursive: true });
    mkdirSync(join(home2, '.cache', 'tool'), { recursive: true });
    writeFileSync(join(home2, 'notes.txt'), 'a\n');
    const env2 = { ...env, HOME: home2 };
    const worktree0 = listing(L.worktree);
    expect(run('true', L.worktree, undefined, undefined, env2).code).toBe(0);
    const before = listing(home2);
    for (const c of ['echo b >> ~/notes.txt', 'echo c > ~/work/f', 'mkdir -p ~/.ssh && echo k >> ~/.ssh/authorized_keys', 'echo x > ~/.profile']) {
      expect(run(c, L.worktree, undefined, undefined, env2).code, c).not.toBe(0);
    }
    expect(listing(home2)).toEqual(before);
    // Its tool cache stays writable, as in a HOME elsewhere (a directory in it: under Landlock no
    // new entry may appear beside bashguard's own protected cache dir, ./landlock.ts).
    expect(run('echo t > ~/.cache/tool/t', L.worktree, undefined, undefined, env2).code).toBe(0);
    expect(readFileSync(join(home2, '.cache', 'tool', 't'), 'utf8')).toBe('t\n');
    settle(L.worktree, worktree0);
  });

  it.runIf(here)("HOME inside a configured write root: its missing control names are held and none is created; its entries stay writable", () => {
    // (the trusted config makes HOME writable: the startup files, ~/.claude/ and ~/.config/git/ do not exist)
    const home2 = join(L.root, 'tmp', 'home2');
    mkdirSync(join(home2, 'work'), { recursive: true });
    mkdirSync(join(home2, '.config', 'bashguard'), { recursive: true });
    writeFileSync(join(home2, '.config', 'bashguard', 'config.json'), JSON.stringify({ writeRoots: [home2] }) + '\n');
    writeFileSync(join(home2, 'notes.txt'), 'a\n');
    const env2 = { ...env, HOME: home2 };
    const worktree0 = listing(L.worktree);
    // (the hook's own state, made by its first call in its cache dir, ~/.cache/bashguard, a write root)
    expect(run('true', L.worktree, undefined, undefined, env2).code).toBe(0);
    const before = listing(home2);
    expect(run('true', L.worktree, undefined, undefined, env2).code).toBe(0);
    expect(run('cd sub && ls >/dev/null', L.worktree, undefined, undefined, env2).code).toBe(0);
    expect(listing(home2)).toEqual(before);
    for (const f of ['.zshenv', '.bashrc', '.gitconfig', '.claude/settings.json', '.config/git/config']) {
      const r = run(`mkdir -p "$(dirname ~/${f})" 2>/dev/null; echo x > ~/${f}`, L.worktree, undefined, undefined, env2);
      expect(r.code, f).not.toBe(0);
      expect(existsSync(join(home2, f)), f).toBe(false);
    }
    expect(run('echo b >> ~/notes.txt && echo c > ~/work/f', L.worktree, undefined, undefined, env2).code).toBe(0);
    expect(readFileSync(join(home2, 'notes.txt'), 'utf8')).toBe('a\nb\n');
    expect(readFileSync(join(home2, 'work', 'f'), 'utf8')).toBe('c\n');
    // Another HOME keeps its own registry of reservations (its cache dir): its sweeper is let
    // finish before the next session in this worktree (docs/limits.md: two HOMEs at once).
    settle(L.worktree, worktree0);
  });

  it.runIf(here)('ordinary work runs: a commit, npm install of a local package, a test run, a server reached from the next call, a cd', () => {
    // A local package, installed offline into the worktree.
    const pkg = join(L.root, 'tmp', 'localpkg');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), '{"name":"localpkg","version":"1.0.0","main":"index.js"}\n');
    writeFileSync(join(pkg, 'index.js'), 'module.exports = 42;\n');
    writeFileSync(join(L.worktree, 'package.json'), '{"name":"w","version":"1.0.0","private":true}\n');
    const npm = run(`npm install --offline --no-audit --no-fund ${pkg} >/dev/null 2>&1; echo $?`);
    if (mode === 'landlock') {
      // Landlock's documented cost (./landlock.ts): no new entry at the top of the worktree, which
      // holds protected paths; node_modules and package-lock.json made beforehand, npm runs.
      expect(npm.stdout).not.toBe('0\n');
      mkdirSync(join(L.worktree, 'node_modules'), { recursive: true });
      writeFileSync(join(L.worktree, 'package-lock.json'), '{}\n');
      expect(run(`npm install --offline --no-audit --no-fund ${pkg} >/dev/null 2>&1; echo $?`).stdout).toBe('0\n');
    } else expect(npm.stdout).toBe('0\n');
    expect(existsSync(join(L.worktree, 'node_modules', 'localpkg'))).toBe(true);
    writeFileSync(join(L.worktree, 't.test.js'), "const t = require('node:test'); const a = require('node:assert'); t.test('x', () => a.equal(require('localpkg'), 42));\n");
    expect(run('node --test t.test.js >/dev/null 2>&1; echo $?').stdout).toBe('0\n');
    // A server started in the background by one call (it serves one request, or gives up after 30 s), reached by the next.
    const port = 20000 + ((process.pid * 7 + (by?.length ?? 0) * 13 + mode.length) % 20000);
    // (node, not python3: a newcomer's machine may have none)
    const server = `const s = require('http').createServer((q, r) => { r.end(require('fs').readdirSync('.').join(' ')); s.close(); }); s.listen(${port}, '127.0.0.1'); setTimeout(() => s.close(), 30000).unref();`;
    expect(run(`timeout 40 node -e "${server}" >/dev/null 2>&1 &`).code).toBe(0);
    let body = '';
    for (let i = 0; i < 50 && !body.includes('package.json'); i++) {
      spawnSync('/bin/sleep', ['0.1']);
      body = run(`node -e "require('http').get('http://127.0.0.1:${port}/', (r) => { let b = ''; r.on('data', (d) => (b += d)); r.on('end', () => console.log(b)); }).on('error', () => {})" 2>/dev/null`).stdout;
    }
    expect(body).toContain('package.json');
    const c = run('git add package.json t.test.js && git commit -qm ordinary && git log -1 --format=%s');
    expect(c, c.stderr).toMatchObject({ code: 0, stdout: 'ordinary\n' });
    expect(git(L.worktree, ['log', '-1', '--format=%s'])).toBe('ordinary');
    const cd = run('cd sub');
    expect(cd.cwd).toBe(join(L.worktree, 'sub'));
    expect(run('pwd', cd.cwd).stdout).toBe(`${join(L.worktree, 'sub')}\n`);
  });
});
