/**
 * The Landlock enforcement (src/layers/sandbox/landlock.ts, native/landlock-exec.c), executed for
 * real under `"enforce": "landlock"` in a throw-away main checkout, linked worktree, sibling and
 * HOME: the worktree's legitimate work runs (writes, /tmp, a commit on its branch, a `cd` the next
 * call sees, the exit status), and writes, creations, removals, renames, truncations, a hard link
 * and a symlink swap aimed at the main checkout, the sibling and the user settings fail and leave
 * them byte-identical. Skips, saying why, where Landlock cannot be used (BASHGUARD_REQUIRE_ALL=1
 * makes that a failure).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_REASONS, cannotRun, platformSkip } from '../../helpers/shared.js';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { openWorkspace, tighten } from '../../../src/policy/workspace/index.js';
import { clientShell, enforceCall, enforcementPlan, enforcementStatus, enforcementWrapper, findBwrap } from '../../../src/layers/sandbox/enforce.js';
import { keptLandlockRules, landlockArgs, landlockRules, ruleFactsHold, rulesFromText, type LandlockRules, type RuleFacts } from '../../../src/layers/sandbox/landlock.js';
import type { SandboxPlan } from '../../../src/layers/sandbox/grants.js';
import { bwrapProbeKey, currentBootId, helperMountsProbeKey, helperMountsWork, landlockAvailable, landlockHelper, probeCacheFile } from '../../../src/layers/sandbox/probes.js';
import { runHook } from '../../../src/frontends/hook/hook.js';
import { CLIENTS } from '../../../src/frontends/hook/clients/index.js';
import { getParser } from '../../../src/engine/parse/index.js';
import type { IO } from '../../../src/frontends/io.js';
import { effectiveAccess } from '../../../src/layers/sandbox/index.js';
import { parseConfigLayer, DEFAULT_CONFIG } from '../../../src/policy/config.js';
import { cleanEnv, git, runWrapper } from '../../helpers/layers.js';

/** Runs `wrapper` as Claude Code runs a Bash call: in bash, from `cwd`, then records `pwd -P`. */
function runAsClient(wrapper: string, cwd: string, env: NodeJS.ProcessEnv) {
  const out = join(mkdtempSync(join(tmpdir(), 'bashguard-cwdout-')), 'cwd');
  const script = 'eval "$BG_W"; __s=$?; pwd -P >| "$BG_OUT"; exit $__s';
  const r = spawnSync('/bin/bash', ['-c', script, 'bash'], { cwd, env: { ...env, BG_W: wrapper, BG_OUT: out }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
  const dir = existsSync(out) ? readFileSync(out, 'utf8').replace(/\n$/, '') : '';
  rmSync(join(out, '..'), { recursive: true, force: true });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, cwd: dir };
}

/** Every file under `dir` (not following symlinks, `.git` left out) with its bytes' hash; symlinks by target. */
function snapshot(dir: string, skip = new Set(['.git', '.builders'])): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (skip.has(name)) continue;
      const p = join(d, name);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out[p] = `link:${readFileSync(p, 'utf8')}`;
      else if (st.isDirectory()) {
        out[p] = 'dir';
        walk(p);
      } else out[p] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

const probeEnv = cleanEnv({ HOME: mkdtempSync(join(tmpdir(), 'bashguard-llprobe-')) });
const avail = landlockAvailable(probeEnv);
const helperMounts = avail.helper ? helperMountsWork(avail.helper, probeEnv) : { ok: false, why: 'no helper' };
rmSync(probeEnv.HOME!, { recursive: true, force: true });
if (!avail.ok) {
  if (process.platform === 'linux') cannotRun(`the runs under Landlock: ${avail.why}`);
  else platformSkip(true, `the runs under Landlock: ${PLATFORM_REASONS.linuxOnly}`);
}
const hasMake = spawnSync('make', ['--version'], { stdio: 'ignore' }).status === 0; // (else the build is a script: CI's clone with no toolchain)
describe('the helper binary', () => {
  it.runIf(process.platform === 'linux')('is installed or shipped, and answers --probe with an ABI version or exit 121 and one line', () => {
    const helper = landlockHelper();
    expect(helper).not.toBeNull();
    const r = spawnSync(helper!, ['--probe'], { encoding: 'utf8' });
    if (r.status === 0) expect(r.stdout).toMatch(/^[1-9]\d*\n$/);
    else {
      expect(r.status).toBe(121);
      expect(r.stderr).toMatch(/^bashguard-landlock: Landlock is not available[^\n]*\n$/);
    }
  });

  it.runIf(process.platform === 'linux')('refuses bad arguments with exit 125 and a one-line message, and a missing program with 127', () => {
    const helper = landlockHelper()!;
    for (const args of [['--rw'], ['--rw', 'relative', '--', 'true'], ['--bogus', '--', 'true'], ['--rw', '/tmp'], ['--rw', '/tmp/../etc', '--', 'true'], ['--rules', 'Xfoo', '--', 'true'], ['--rules', 'dfoo', '--', 'true'], ['--rules', '@/tmp\nd../etc', '--', 'true'], ['--rules', 'D/tmp//x', '--', 'true']]) {
      const r = spawnSync(helper, args, { encoding: 'utf8' });
      expect(r.status, args.join(' ')).toBe(125);
      expect(r.stderr).toMatch(/^bashguard-landlock: [^\n]*\n$/);
    }
    if (avail.ok) {
      const r = spawnSync(helper, ['--', '/nonexistent/bashguard-prog'], { encoding: 'utf8' });
      expect(r.status).toBe(127);
      expect(r.stderr).toMatch(/^bashguard-landlock: cannot run \/nonexistent\/bashguard-prog: /);
    }
  });

  it.runIf(avail.ok && helperMounts.ok)('--mounts: the plan\'s mounts for the program it runs (read-only binds, a reserved file and directory, a writable pin), relative paths through them, the program\'s exit status; bad lines refused before anything runs', () => {
    const helper = landlockHelper()!;
    const d = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-llmounts-')));
    try {
      mkdirSync(join(d, 'prot', 'pin'), { recursive: true });
      writeFileSync(join(d, 'prot', 'f'), 'kept\n');
      writeFileSync(join(d, 'resv'), '');
      mkdirSync(join(d, 'resvdir'));
      const text = [`r${d}/prot`, `w${d}/prot/pin`, `n${d}/resv`, `t${d}/resvdir`].join('\n');
      const sh = (script: string, cwd = d) => spawnSync(helper, ['--mounts', text, '--', '/bin/sh', '-c', script], { cwd, encoding: 'utf8' });
      expect(sh(`echo x >> ${d}/prot/f`).status).not.toBe(0);
      expect(sh('echo x >> f', join(d, 'prot')).status).not.toBe(0);
      expect(sh(`echo x > ${d}/prot/new`).status).not.toBe(0);
      expect(sh(`echo x >> ${d}/resv`).status).not.toBe(0);
      expect(sh(`touch ${d}/resvdir/x`).status).not.toBe(0);
      expect(sh(`mv ${d}/prot ${d}/moved`).status).not.toBe(0);
      expect(sh(`echo ok > ${d}/prot/pin/w && echo ok > ${d}/free && exit 7`).status).toBe(7);
      expect(readFileSync(join(d, 'prot', 'pin', 'w'), 'utf8')).toBe('ok\n');
      expect(readFileSync(join(d, 'prot', 'f'), 'utf8')).toBe('kept\n');
      expect(readFileSync(join(d, 'resv'), 'utf8')).toBe('');
      expect(readdirSync(join(d, 'resvdir'))).toEqual([]);
      expect(existsSync(join(d, 'prot', 'new'))).toBe(false);
      for (const bad of ['x/tmp', 'r', 'rrelative', `r${d}/../etc`]) {
        const r = spawnSync(helper, ['--mounts', bad, '--', '/bin/sh', '-c', `touch ${d}/ran`], { encoding: 'utf8' });
        expect(r.status, bad).toBe(125);
        expect(r.stderr).toMatch(/^bashguard-landlock: [^\n]*\n$/);
      }
      expect(existsSync(join(d, 'ran'))).toBe(false);
      // A symlink where a path is named: the call ends, saying so, before the program runs.
      symlinkSync(join(d, 'prot'), join(d, 'link'));
      const l = spawnSync(helper, ['--mounts', `r${d}/link`, '--', '/bin/sh', '-c', `touch ${d}/ran`], { encoding: 'utf8' });
      expect(l.status).toBe(122);
      expect(l.stderr).toMatch(/^bashguard-landlock: cannot reach without a symlink: /);
      expect(existsSync(join(d, 'ran'))).toBe(false);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });

  it.runIf(avail.ok)('opens every grant without following a symlink, and grants nothing where the name is not the kind named', () => {
    const helper = landlockHelper()!;
    const d = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-llkind-')));
    try {
      mkdirSync(join(d, 'prot'));
      mkdirSync(join(d, 'ok'));
      writeFileSync(join(d, 'prot', 'f'), 'kept\n');
      writeFileSync(join(d, 'file'), 'f\n');
      symlinkSync('prot', join(d, 'link'));
      symlinkSync(d, `${d}-via`);
      // (each run writes one target; exit 0 only where the write went through)
      const writes = (rules: string, target: string) => spawnSync(helper, ['--rules', rules, '--', '/bin/sh', '-c', 'echo x >> "$1"', 'sh', target], { encoding: 'utf8' }).status === 0;
      expect(writes(`D${d}/ok`, join(d, 'ok', 'a'))).toBe(true);
      expect(writes(`@${d}\ndok`, join(d, 'ok', 'b'))).toBe(true);
      expect(writes(`F${d}/file`, join(d, 'file'))).toBe(true);
      expect(writes(`@${d}\nffile`, join(d, 'file'))).toBe(true);
      // A symlink as the grant, a symlink on the way to it, a directory where a file was named, a file where a directory was.
      expect(writes(`D${d}/link`, join(d, 'prot', 'f'))).toBe(false);
      expect(writes(`F${d}/link`, join(d, 'prot', 'f'))).toBe(false);
      expect(writes(`@${d}\ndlink`, join(d, 'prot', 'f'))).toBe(false);
      expect(writes(`@${d}\nflink`, join(d, 'prot', 'f'))).toBe(false);
      expect(writes(`D${d}-via/prot`, join(d, 'prot', 'f'))).toBe(false);
      expect(writes(`@${d}-via\ndprot`, join(d, 'prot', 'f'))).toBe(false);
      expect(spawnSync(helper, ['--rw', `${d}/link`, '--', '/bin/sh', '-c', `echo x >> ${d}/prot/f`]).status).not.toBe(0);
      expect(writes(`F${d}/prot`, join(d, 'prot', 'f'))).toBe(false);
      expect(writes(`D${d}/file`, join(d, 'file'))).toBe(false);
      expect(readFileSync(join(d, 'prot', 'f'), 'utf8')).toBe('kept\n');
    } finally {
      rmSync(d, { recursive: true, force: true });
      rmSync(`${d}-via`, { force: true });
    }
  });
});

// Twice: the builtin confining the client's own shell (native/landlock-builtin.c: bash, the builtin
// installed, the client's tmp dir granted whole), and the helper (where the client's tmp dir is not
// granted whole, the wrapper does not use the builtin).
describe.skipIf(!avail.ok).each([
  { path: "the builtin, in the client's shell", inShell: true },
  { path: 'the helper', inShell: false },
])('enforcement under Landlock, for real: $path', ({ inShell }) => {
  let L: GitLayout;
  let home: string;
  let env: NodeJS.ProcessEnv;
  /** The same, with a trusted config (BASHGUARD_CONFIG) that chooses `"landlockWorktree": "whole"`. */
  let whole: NodeJS.ProcessEnv;
  const wrap = (command: string, cwd = L.worktree, e = env) => {
    const x = enforceCall(openWorkspace(cwd, { env: e }), command, 'landlock', e);
    if (x.kind !== 'landlock') throw new Error(`not enforced by Landlock: ${JSON.stringify(x).slice(0, 300)}`);
    return x;
  };
  const run = (command: string, cwd = L.worktree, e = env) => runAsClient(wrap(command, cwd, e).command, cwd, env);
  const protectedState = () => ({ main: snapshot(L.main), sibling: snapshot(L.sibling), claude: snapshot(join(home, '.claude')), status: git(L.main, ['status', '--porcelain']) });

  beforeAll(() => {
    L = makeGitLayout('bashguard-landlock-');
    home = join(L.root, 'home');
    mkdirSync(join(home, '.claude', 'hooks'), { recursive: true });
    mkdirSync(join(home, '.npm'), { recursive: true });
    writeFileSync(join(home, '.claude', 'settings.json'), '{"hooks":{}}\n');
    writeFileSync(join(home, '.claude', 'hooks', 'launcher.cjs'), '// launcher\n');
    mkdirSync(join(L.worktree, 'sub'), { recursive: true });
    writeFileSync(join(L.sibling, 'notes.txt'), 'sibling\n');
    // (a bash user: where SHELL names no bash, Claude Code picks zsh first and the builtin does not apply)
    env = cleanEnv({ HOME: home, TMPDIR: '/tmp', SHELL: '/bin/bash' });
    if (inShell) delete env.CLAUDE_CODE_TMPDIR;
    else env.CLAUDE_CODE_TMPDIR = home;
    delete env.XDG_CONFIG_HOME;
    delete env.XDG_CACHE_HOME;
    delete env.XDG_STATE_HOME;
    delete env.CLAUDE_CONFIG_DIR;
    writeFileSync(join(L.root, 'trusted-whole.json'), '{"landlockWorktree":"whole"}\n');
    whole = { ...env, BASHGUARD_CONFIG: join(L.root, 'trusted-whole.json') };
  });
  afterAll(() => L?.cleanup());

  it('the rules are the complement of the read-only set: no rule reaches a protected path', () => {
    // (by default the worktree's control files are held, so the worktree is granted entry by entry)
    const held = wrap('true');
    expect(held.plan.unheld ?? []).toEqual([]);
    expect(held.rules.rules.map((r) => r.path)).not.toContain(L.worktree);
    expect(held.rules.rules.map((r) => r.path)).toContain(join(L.worktree, 'sub'));
    const e = wrap('true', L.worktree, whole);
    expect(e.inShell).toBe(inShell);
    const ro = e.plan.grants.filter((g) => g.access === 'ro').map((g) => g.path);
    const widened = new Set(e.rules.widened.map((w) => w.path));
    for (const r of e.rules.rules) {
      for (const p of ro) if (!widened.has(p)) expect(p === r.path || p.startsWith(r.path === '/' ? '/' : r.path + '/'), `${r.path} reaches ${p}`).toBe(false);
      // and each rule is writable in the plan itself
      expect(effectiveAccess(r.path, e.plan.grants), r.path).toBe('rw');
    }
    // Protected paths that do not exist (bubblewrap cannot reserve them) cannot be created either.
    for (const u of e.plan.unreserved) for (const r of e.rules.rules) expect(u === r.path || u.startsWith(r.path === '/' ? '/' : r.path + '/'), `${r.path} reaches ${u}`).toBe(false);
    const paths = e.rules.rules.map((r) => r.path);
    expect(paths).toContain(realpathSync('/tmp'));
    expect(paths).toContain(join(home, '.npm'));
    expect(paths).not.toContain(home);
    // Under "whole" the worktree is granted whole (landlock-line.ts): its own control files are the analyzer's, listed as not held.
    expect(paths).toContain(L.worktree);
    const unheld = (e.plan.unheld ?? []).map((u) => u.path);
    expect(unheld).toEqual(expect.arrayContaining([join(L.worktree, '.git'), join(L.worktree, '.bashguard.json')]));
    for (const u of unheld) expect(u.startsWith(L.worktree + '/'), u).toBe(true);
    expect(e.plan.grants.filter((g) => g.access === 'ro' && g.path.startsWith(L.worktree + '/'))).toEqual([]);
    // Only the worktree's registration files are granted although protected, and said so.
    expect([...widened].sort()).toEqual([join(L.main, '.git', 'worktrees', 'b1', 'commondir'), join(L.main, '.git', 'worktrees', 'b1', 'gitdir')]);
  });

  it('the worktree, /tmp, HOME caches, a commit on the branch and a cd for the next call work; the exit status is the command\'s', () => {
    expect(run(`node -e "require('fs').writeFileSync('sub/made.txt','ok')"`).code).toBe(0);
    expect(readFileSync(join(L.worktree, 'sub', 'made.txt'), 'utf8')).toBe('ok');
    expect(run('echo more >> README.md && mkdir -p sub/a/b && echo deep > sub/a/b/c').code).toBe(0);
    expect(readFileSync(join(L.worktree, 'README.md'), 'utf8')).toBe('# scratch\nmore\n');
    const tmp = join('/tmp', `bashguard-landlock-${process.pid}`);
    expect(run(`node -e "require('fs').writeFileSync('${tmp}', 'ok')" && mv ${tmp} ${tmp}.2`).code).toBe(0);
    expect(readFileSync(`${tmp}.2`, 'utf8')).toBe('ok');
    rmSync(`${tmp}.2`);
    expect(run('echo ok > "$HOME/.npm/x"').code).toBe(0);
    const before = git(L.worktree, ['rev-parse', 'b1']);
    const c = run('git add -A && git commit -qm landlocked && git log -1 --format=%s');
    expect(c, c.stderr).toMatchObject({ code: 0, stdout: 'landlocked\n' });
    expect(git(L.main, ['rev-parse', 'b1'])).not.toBe(before);
    expect(git(L.main, ['log', '-1', '--format=%s', 'b1'])).toBe('landlocked');
    const cd = run('cd sub');
    expect(cd).toMatchObject({ code: 0, cwd: join(L.worktree, 'sub') });
    expect(run('echo rel > rel.txt', cd.cwd).code).toBe(0);
    expect(readFileSync(join(L.worktree, 'sub', 'rel.txt'), 'utf8')).toBe('rel\n');
    expect(run('echo out; echo err >&2; exit 7')).toMatchObject({ code: 7, stdout: 'out\n', stderr: 'err\n' });
    expect(run('false').code).toBe(1);
    // In the client's shell, `$$` is that shell, killed as it would be unwrapped; the helper's inner shell reports the signal.
    expect(run('kill -9 $$').code).toBe(inShell ? runAsClient('kill -9 $$', L.worktree, env).code : 137);
  });

  it('writes, creations, removals, renames, truncations, a hard link and a symlink swap fail and leave the protected files byte-identical', () => {
    const before = protectedState();
    const settings = join(home, '.claude', 'settings.json');
    const link = join('/tmp', `bashguard-ll-link-${process.pid}`);
    const escapes = [
      `echo x >> ${L.main}/README.md`,
      `node -e "require('fs').writeFileSync('${L.main}/README.md','x')"`,
      `touch ${L.main}/NEW`,
      `mkdir ${L.main}/newdir`,
      `rm ${L.main}/docs/guide.md`,
      `rmdir ${L.main}/docs`,
      `mv ${L.main}/docs ${L.main}/docs2`,
      `mv ${L.main}/README.md ${L.worktree}/stolen.md`,
      `truncate -s 0 ${L.main}/src/app.sh`,
      `: > ${L.main}/src/app.sh`,
      `echo x > ${L.sibling}/notes.txt`,
      `touch ${L.sibling}/NEW`,
      `rm ${L.sibling}/notes.txt`,
      `echo '{"disableAllHooks":true}' > ${settings}`,
      `rm ${settings}`,
      `mv ${home}/.claude ${home}/.claude-moved`,
      `echo x > ${home}/.claude/hooks/launcher.cjs`,
      `node -e "require('fs').appendFileSync('${L.main}/.git/config','[core]\\n\\thooksPath=/tmp\\n')"`,
      `echo x > ${L.main}/.git/hooks/post-commit`,
      // A hard link of a protected file into /tmp (Landlock's REFER: EXDEV), then written through.
      `ln ${settings} ${link}.hard && echo x >> ${link}.hard`,
      // A symlink to a benign file swapped for one to a protected file, then written through.
      `echo ok > ${link}.benign && ln -sfn ${link}.benign ${link} && ln -sfn ${settings} ${link} && echo x >> ${link}`,
      `echo x > /proc/self/root${L.main}/README.md`,
    ];
    // (under both lines: "whole" only gives up control files inside the worktree)
    for (const c of escapes) for (const e of [env, whole]) {
      const r = run(c, L.worktree, e);
      expect(r.code, `${c}: ${r.stderr}`).not.toBe(0);
    }
    expect(protectedState()).toEqual(before);
    expect(readFileSync(join(L.main, '.git', 'config'), 'utf8')).not.toContain('hooksPath');
    expect(existsSync(join(L.main, '.git', 'hooks', 'post-commit'))).toBe(false);
    expect(existsSync(`${link}.hard`)).toBe(false);
    for (const f of [link, `${link}.benign`]) rmSync(f, { force: true });
  });

  it('outside the write roots nothing can be written: beside the checkouts, in HOME, a new entry beside a protected path', () => {
    const before = protectedState();
    const beside = join(L.root, 'other-project');
    mkdirSync(beside);
    writeFileSync(join(beside, 'kept.txt'), 'kept\n');
    try {
      for (const c of [`touch ${L.root}/beside-new`, `mkdir ${L.root}/proj2`, `echo x >> ${beside}/kept.txt`, `touch ${beside}/new`, `rm ${beside}/kept.txt`, 'mkdir "$HOME/.newtool"', 'mkdir -p "$HOME/.local/bin" && touch "$HOME/.local/bin/tool"', `cd ${L.worktree}/.. && touch escaped`]) {
        for (const e of [env, whole]) {
          const r = run(c, L.worktree, e);
          expect(r.code, `${c}: ${r.stderr}`).not.toBe(0);
        }
      }
      expect(readdirSync(beside)).toEqual(['kept.txt']);
      expect(readFileSync(join(beside, 'kept.txt'), 'utf8')).toBe('kept\n');
      for (const p of [join(L.root, 'beside-new'), join(L.root, 'proj2'), join(home, '.newtool'), join(home, '.local'), join(L.worktree, '..', 'escaped')]) expect(existsSync(p), p).toBe(false);
      expect(protectedState()).toEqual(before);
    } finally {
      rmSync(beside, { recursive: true, force: true });
    }
  });

  it('ordinary work at the top of the worktree runs under "whole" (issue 51 item 1): new files and directories, npm install, sed -i, a build, a commit; under "held" all but the commit in sub/ are refused', () => {
    const base = git(L.worktree, ['rev-parse', 'HEAD']);
    const dep = join(L.root, `dep-${inShell ? 'a' : 'b'}`);
    mkdirSync(dep, { recursive: true });
    writeFileSync(join(dep, 'package.json'), '{"name":"tiny-dep","version":"1.0.0","main":"index.js"}\n');
    writeFileSync(join(dep, 'index.js'), 'module.exports = 42;\n');
    const steps: [string, string][] = [
      ['notes', 'echo hi > notes.md'],
      ['dist', 'mkdir dist && echo built > dist/out.txt'],
      ['npm', `npm init -y >/dev/null && npm install --offline --no-audit --no-fund ${dep} >/dev/null 2>&1 && node -e "process.exit(require('tiny-dep') === 42 ? 0 : 3)"`],
      ['sed -i', 'sed -i s/scratch/edited/ README.md'],
      ['make', `printf 'all:\\n\\tmkdir -p build && echo ok > build/app\\n' > Makefile && cd sub && ${hasMake ? 'make -C .. >/dev/null' : "sh -c 'cd .. && mkdir -p build && echo ok > build/app'"}`],
      ['commit', 'echo c >> sub/commit.txt && git add -A && git commit -qm ordinary && git log -1 --format=%s'],
    ];
    const failedHeld = steps.filter(([, c]) => run(c).code !== 0).map(([n]) => n);
    expect(failedHeld).toEqual(['notes', 'dist', 'npm', 'sed -i', 'make']);
    expect(existsSync(join(L.worktree, 'notes.md'))).toBe(false);
    const failed = steps.filter(([, c]) => run(c, L.worktree, whole).code !== 0).map(([n]) => n);
    expect(failed).toEqual([]);
    expect(readFileSync(join(L.worktree, 'notes.md'), 'utf8')).toBe('hi\n');
    expect(readFileSync(join(L.worktree, 'dist', 'out.txt'), 'utf8')).toBe('built\n');
    expect(existsSync(join(L.worktree, 'node_modules', 'tiny-dep'))).toBe(true);
    expect(readFileSync(join(L.worktree, 'README.md'), 'utf8')).toContain('edited');
    expect(readFileSync(join(L.worktree, 'build', 'app'), 'utf8')).toBe('ok\n');
    expect(git(L.main, ['log', '-1', '--format=%s', 'b1'])).toBe('ordinary');
    // (the next describe's run starts from a clean tree)
    git(L.worktree, ['reset', '-q', '--hard', base]);
    for (const n of ['notes.md', 'dist', 'node_modules', 'package.json', 'package-lock.json', 'Makefile', 'build']) rmSync(join(L.worktree, n), { recursive: true, force: true });
  });

  it('under "whole" the worktree\'s own control files are not held: listed, and a write to one lands (the analyzer decides them)', () => {
    const e = wrap('true', L.worktree, whole);
    expect((e.plan.unheld ?? []).map((u) => u.path)).toContain(join(L.worktree, '.claude'));
    // (what the kernel no longer holds: run directly, this lands; the hook's decision on it is tested below)
    expect(run(`mkdir -p ${L.worktree}/.claude && echo '{}' > ${L.worktree}/.claude/settings.local.json`, L.worktree, whole).code).toBe(0);
    rmSync(join(L.worktree, '.claude'), { recursive: true, force: true });
  });

  it('a directory with too many entries is not descended into, and too many rules in all is no Landlock, said why', () => {
    const plan = enforcementPlan(openWorkspace(L.worktree, { env }), landlockHelper()!, clientShell(env));
    const coarse = landlockRules(plan, { root: false, perDirLimit: 1 });
    if ('error' in coarse) throw new Error(coarse.error);
    // (the worktree holds protected paths: its entries are granted one by one, here none)
    expect(coarse.coarse.map((c) => c.path)).toContain(L.worktree);
    expect(coarse.rules.some((r) => r.path.startsWith(L.worktree + '/'))).toBe(false);
    const over = landlockRules(plan, { root: false, ruleLimit: 3 });
    expect(over).toMatchObject({ error: expect.stringMatching(/more than 3 Landlock rules/) });
  });

  it('as root, /proc and /sys get no rule and /dev only its harmless nodes', () => {
    const plan = enforcementPlan(openWorkspace(L.worktree, { env }), landlockHelper()!, clientShell(env));
    const r = landlockRules(plan, { root: true });
    if ('error' in r) throw new Error(r.error);
    const paths = r.rules.map((x) => x.path);
    expect(paths.filter((p) => p === '/proc' || p.startsWith('/proc/') || p === '/sys' || p.startsWith('/sys/'))).toEqual([]);
    expect(paths.filter((p) => p.startsWith('/dev/') && !p.startsWith('/dev/shm')).every((p) => /^\/dev\/(null|zero|full|random|urandom|tty|ptmx|pts)$/.test(p))).toBe(true);
    expect(paths).toContain('/dev/null');
    const nonRoot = landlockRules(plan, { root: false });
    if ('error' in nonRoot) throw new Error(nonRoot.error);
    expect(nonRoot.rules.map((x) => x.path)).toContain('/proc');
  });

  it('where the helper cannot set Landlock up, the command does not run and its one-line message reaches stderr', () => {
    const w = enforcementWrapper(`touch ${join(L.worktree, 'sub', 'never')}`, { bwrap: landlockHelper()!, args: ['--rw', 'relative/path'], shell: '/bin/bash', cwdFile: join(L.root, 'llfail-cwd') });
    const r = runAsClient(w, L.worktree, env);
    expect(r.code).toBe(125);
    expect(r.stderr).toBe('bashguard-landlock: not an absolute path: relative/path\n');
    expect(existsSync(join(L.worktree, 'sub', 'never'))).toBe(false);
  });

  it('a background process outlives the call, which returns at once', () => {
    const marker = join(L.worktree, 'sub', 'bg-done');
    const go = join(L.worktree, 'sub', 'bg-go');
    // The background process waits for a file the test makes only once the call has returned: a
    // wrapper that waited for it would never return (and the call's own time limit would end it),
    // whatever the machine's load.
    const r = run(`(i=0; while [ ! -e ${go} ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; echo done > ${marker}) >/dev/null 2>&1 & echo started`);
    expect(r).toMatchObject({ code: 0, stdout: 'started\n' });
    expect(existsSync(marker)).toBe(false);
    writeFileSync(go, '');
    const until = Date.now() + 30_000;
    while (!existsSync(marker) && Date.now() < until) spawnSync('sleep', ['0.1']);
    expect(readFileSync(marker, 'utf8')).toBe('done\n');
  });

  it("auto where the (cached) probe says bubblewrap cannot start: its mounts made without it where the helper's probe passed, Landlock where not; bubblewrap where it can", (ctx) => {
    const bwrap = findBwrap(env);
    // (without bwrap, auto is the helper's mounts or Landlock: the cases below)
    if (!bwrap) return ctx.skip(cannotRun('auto with a planted bubblewrap probe: bubblewrap (bwrap) is not installed'));
    const file = probeCacheFile(env)!;
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    const helper = landlockHelper()!;
    const plant = (bw: boolean, mounts: boolean) => writeFileSync(file, JSON.stringify({ boot: currentBootId(), probes: { [bwrapProbeKey(realpathSync(bwrap))]: { ok: bw, why: bw ? 'bubblewrap starts' : 'planted: no user namespaces' }, [bwrapProbeKey(bwrap)]: { ok: bw, why: 'planted' }, [helperMountsProbeKey(helper)]: { ok: mounts, why: 'planted' } } }));
    try {
      plant(false, true);
      const e = enforceCall(openWorkspace(L.worktree, { env }), `echo x >> ${L.main}/README.md`, 'auto', env);
      // (bash with its temp dir writable in the plan: the builtin, the helper behind it; else the helper; no bwrap either way)
      expect(e.kind).toBe('bwrap');
      expect(e.kind === 'bwrap' && e.by).toBe(e.kind === 'bwrap' && effectiveAccess(realpathSync(env.CLAUDE_CODE_TMPDIR ?? '/tmp'), e.plan.grants) === 'rw' ? 'shell' : 'helper');
      expect(e.kind === 'bwrap' && e.command).not.toMatch(/bwrap/);
      const before = readFileSync(join(L.main, 'README.md'), 'utf8');
      expect(runAsClient(e.kind === 'bwrap' ? e.command : '', L.worktree, env).code).not.toBe(0);
      expect(readFileSync(join(L.main, 'README.md'), 'utf8')).toBe(before);
      plant(false, false);
      expect(enforceCall(openWorkspace(L.worktree, { env }), 'true', 'auto', env).kind).toBe('landlock');
      plant(true, false);
      expect(enforceCall(openWorkspace(L.worktree, { env }), 'true', 'auto', env).kind).toBe('bwrap');
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('through the hook with "enforce": "landlock" in the user config: allowed with the Landlock wrapper, which runs', async () => {
    mkdirSync(join(home, '.config', 'bashguard'), { recursive: true });
    writeFileSync(join(home, '.config', 'bashguard', 'config.json'), '{"enforce":"landlock"}');
    try {
      const out: string[] = [];
      const event = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'echo hooked > sub/hooked.txt', description: 'd' }, cwd: L.worktree, tool_use_id: 'toolu_ll' };
      const io: IO = { stdout: (t) => void out.push(t), stderr: () => undefined, readStdin: async () => JSON.stringify(event), env, cwd: L.worktree, isTTY: false };
      await runHook(io, { exitCode: false, getParser: () => getParser(), client: CLIENTS.claude! });
      const o = (JSON.parse(out.join('')) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string; updatedInput: { command: string; description: string } } }).hookSpecificOutput;
      expect(o.permissionDecision).toBe('allow');
      expect(o.permissionDecisionReason).toMatch(/Landlock/);
      expect(o.updatedInput.description).toBe('d');
      expect(o.updatedInput.command).toContain('bashguard-landlock');
      expect(runAsClient(o.updatedInput.command, L.worktree, env).code).toBe(0);
      expect(readFileSync(join(L.worktree, 'sub', 'hooked.txt'), 'utf8')).toBe('hooked\n');
    } finally {
      rmSync(join(home, '.config'), { recursive: true, force: true });
    }
  });

  it('by default ("landlockWorktree": "held") the control files in the worktree stay read-only, at the cost of new top-level entries', () => {
    try {
      expect(wrap('true').plan.unheld ?? []).toEqual([]);
      for (const c of ['touch top-level-new', `mkdir -p ${L.worktree}/.claude && echo '{}' > ${L.worktree}/.claude/settings.local.json`, `echo x > ${L.worktree}/.git`]) expect(run(c).code, c).not.toBe(0);
      expect(existsSync(join(L.worktree, 'top-level-new'))).toBe(false);
      // (an empty `.claude/` may be there: bubblewrap's reservation, made by an earlier test's auto call)
      expect(existsSync(join(L.worktree, '.claude', 'settings.local.json'))).toBe(false);
      expect(readFileSync(join(L.worktree, '.git'), 'utf8')).toMatch(/^gitdir: /);
      expect(run('echo held >> sub/held.txt').code).toBe(0);
    } finally {
      rmSync(join(L.worktree, 'sub', 'held.txt'), { force: true });
    }
  });

  it("through the hook under Landlock's \"whole\" line, a write that may reach the worktree's control files stays an ask (the kernel does not hold them there); a certain one is denied; ordinary work is the enforced allow", async () => {
    mkdirSync(join(home, '.config', 'bashguard'), { recursive: true });
    writeFileSync(join(home, '.config', 'bashguard', 'config.json'), '{"enforce":"landlock","landlockWorktree":"whole"}');
    const hook = async (command: string) => {
      const out: string[] = [];
      const event = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: L.worktree, tool_use_id: 'toolu_ll2' };
      const io: IO = { stdout: (t) => void out.push(t), stderr: () => undefined, readStdin: async () => JSON.stringify(event), env, cwd: L.worktree, isTTY: false };
      await runHook(io, { exitCode: false, getParser: () => getParser(), client: CLIENTS.claude! });
      return (JSON.parse(out.join('')) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string; updatedInput?: { command: string } } }).hookSpecificOutput;
    };
    // (the client directories exist: under bubblewrap each would be read-only as a whole, and these asks the enforced allow: enforce.test.ts)
    for (const d of ['.claude', '.codex', '.gemini', '.cursor', '.github/hooks']) mkdirSync(join(L.worktree, d), { recursive: true });
    try {
      const certain = await hook('echo x > .claude/settings.local.json');
      expect(certain.permissionDecision).toBe('deny');
      const tree = await hook('tar -xf ../../../other.tar');
      expect(tree.permissionDecision).toBe('ask');
      expect(tree.permissionDecisionReason).toMatch(/asked although the OS enforcement is in effect: \[BG1005\] the kernel leaves \S+ writable \(.*the worktree is granted whole/);
      const unresolved = await hook('cd "$X" && touch marker');
      expect(unresolved.permissionDecision).toBe('ask');
      expect(unresolved.permissionDecisionReason).toMatch(/asked although the OS enforcement is in effect: \[BG4001\] the write lands somewhere unknown, and the kernel does not hold \S+/);
      const ordinary = await hook('echo hi > notes-top.md');
      expect(ordinary.permissionDecision).toBe('allow');
      expect(ordinary.permissionDecisionReason).toMatch(/Landlock.*granted whole, so its own control files \(.*\.git.*\) are held by the analyzer only/);
      expect(runAsClient(ordinary.updatedInput!.command, L.worktree, env).code).toBe(0);
      expect(readFileSync(join(L.worktree, 'notes-top.md'), 'utf8')).toBe('hi\n');
    } finally {
      rmSync(join(home, '.config'), { recursive: true, force: true });
      for (const d of ['.claude', '.codex', '.gemini', '.cursor', '.github', 'notes-top.md']) rmSync(join(L.worktree, d), { recursive: true, force: true });
    }
  });

  /** The hook's answer to `command` under `config` (the user config), run as the client runs it; the tamper's target is then read. */
  const tamper = async (config: string) => {
    mkdirSync(join(home, '.config', 'bashguard'), { recursive: true });
    writeFileSync(join(home, '.config', 'bashguard', 'config.json'), config);
    // (a script the agent wrote: the analyzer cannot read what it does, and allows it)
    writeFileSync(join(L.worktree, 'sub', 't4.js'), `const fs = require('fs'); fs.mkdirSync('.claude', { recursive: true }); fs.writeFileSync('.claude/settings.local.json', '{"disableAllHooks": true}');\n`);
    const target = join(L.worktree, '.claude', 'settings.local.json');
    try {
      const out: string[] = [];
      const event = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'node sub/t4.js' }, cwd: L.worktree, tool_use_id: 'toolu_t4' };
      const io: IO = { stdout: (t) => void out.push(t), stderr: () => undefined, readStdin: async () => JSON.stringify(event), env, cwd: L.worktree, isTTY: false };
      await runHook(io, { exitCode: false, getParser: () => getParser(), client: CLIENTS.claude! });
      const o = (JSON.parse(out.join('')) as { hookSpecificOutput: { permissionDecision: string; updatedInput: { command: string } } }).hookSpecificOutput;
      expect(o.permissionDecision).toBe('allow');
      expect(o.updatedInput.command).toContain('bashguard-landlock');
      runAsClient(o.updatedInput.command, L.worktree, env);
      return existsSync(target);
    } finally {
      rmSync(join(home, '.config'), { recursive: true, force: true });
      rmSync(join(L.worktree, 'sub', 't4.js'), { force: true });
      rmSync(target, { force: true });
    }
  };

  it("a script the analyzer allows cannot write the worktree's client settings on the default line (the e2e's t4 tamper)", async () => {
    expect(await tamper('{"enforce":"landlock"}')).toBe(false);
  });

  // The cost of "whole" (docs/limits.md, landlock-line.ts): the same script lands there, as with no enforcement.
  it('under "whole", a script the analyzer allows writes the worktree\'s client settings (the cost of "landlockWorktree": "whole")', async () => {
    expect(await tamper('{"enforce":"landlock","landlockWorktree":"whole"}')).toBe(true);
  });

  it('doctor names Landlock; auto picks bubblewrap where it starts; a worktree file cannot ask for Landlock', () => {
    const layer = (text: string) => parseConfigLayer(text, join(L.root, 'u.json'), L.root);
    const ws = openWorkspace(L.worktree, { env });
    const forced = Object.assign(Object.create(Object.getPrototypeOf(ws)), ws, { config: { ...ws.config, enforce: 'landlock' } });
    const s = enforcementStatus(forced, env, []);
    expect(s, s.detail).toMatchObject({ ok: true, mechanism: 'landlock' });
    expect(s.detail).toMatch(/^Landlock \(Landlock ABI \d+\): every allowed Bash call may write beneath \d+ paths only/);
    expect(s.detail).toMatch(/new entries beside a protected path are refused, at the top of the worktree too \(`"landlockWorktree": "whole"`/);
    const wholeWs = Object.assign(Object.create(Object.getPrototypeOf(ws)), ws, { config: { ...ws.config, enforce: 'landlock', landlockWorktree: 'whole' } });
    expect(enforcementStatus(wholeWs, env, []).detail).toMatch(/the worktree whole, new top-level entries included: its own control files are the analyzer's to decide, not the kernel's \([^)]*\/\.git\b/);
    const notices: string[] = [];
    expect(tighten(DEFAULT_CONFIG, layer('{"enforce":"landlock"}'), notices).enforce).toBe('auto');
    expect(notices.join('\n')).toMatch(/enforce: landlock/);
    const auto = enforceCall(ws, 'true', 'auto', env);
    const bw = spawnSync('bwrap', ['--unshare-user', '--unshare-pid', '--bind', '/', '/', '--proc', '/proc', '--', 'true']);
    expect(auto.kind).toBe(bw.status === 0 ? 'bwrap' : 'landlock');
  });

  it('a granted entry swapped after the hook answered (for a symlink to a protected directory, or for another kind) grants nothing there', () => {
    const store = memoryStore();
    const settings = join(home, '.claude', 'settings.json');
    // (entries of the worktree, which holds read-only paths (its control files; another worktree nested in it, under either line): each is granted by its own rule)
    const wt = L.worktree;
    git(L.main, ['worktree', 'add', '-q', join(wt, 'nested'), '-b', `nested-${inShell ? 'a' : 'b'}`]);
    const before = protectedState();
    mkdirSync(join(wt, 'cache-dir'), { recursive: true });
    writeFileSync(join(wt, 'granted.txt'), 'g\n');
    const a = enforceCall(openWorkspace(L.worktree, { env }), `echo x > ${join(wt, 'cache-dir', 'settings.json')}; touch ${join(wt, 'cache-dir', 'new')}`, 'landlock', env, undefined, store);
    const b = enforceCall(openWorkspace(L.worktree, { env }), `echo x > ${join(wt, 'granted.txt', 'inner')}`, 'landlock', env, undefined, store);
    if (a.kind !== 'landlock' || b.kind !== 'landlock') throw new Error('not enforced by Landlock');
    expect(a.rules.rules).toContainEqual({ path: join(wt, 'cache-dir'), file: false });
    expect(b.rules.rules).toContainEqual({ path: join(wt, 'granted.txt'), file: true });
    renameSync(join(wt, 'cache-dir'), join(wt, 'cache-away'));
    symlinkSync(join(home, '.claude'), join(wt, 'cache-dir'));
    rmSync(join(wt, 'granted.txt'));
    mkdirSync(join(wt, 'granted.txt'));
    writeFileSync(join(wt, 'granted.txt', 'inner'), 'kept\n');
    try {
      expect(runAsClient(a.command, L.worktree, env).code).not.toBe(0);
      expect(runAsClient(b.command, L.worktree, env).code).not.toBe(0);
      expect(protectedState()).toEqual(before);
      expect(readFileSync(settings, 'utf8')).toBe('{"hooks":{}}\n');
      expect(existsSync(join(home, '.claude', 'new'))).toBe(false);
      expect(readFileSync(join(wt, 'granted.txt', 'inner'), 'utf8')).toBe('kept\n');
      // The next call sees the change: computed again, no rule for either name.
      const c = enforceCall(openWorkspace(L.worktree, { env }), 'true', 'landlock', env, undefined, store);
      if (c.kind !== 'landlock') throw new Error('not enforced by Landlock');
      expect(c.rules.rules.map((r) => r.path)).not.toContain(join(wt, 'cache-dir'));
      expect(c.rules.rules).not.toContainEqual({ path: join(wt, 'granted.txt'), file: true });
    } finally {
      rmSync(join(wt, 'cache-dir'));
      renameSync(join(wt, 'cache-away'), join(wt, 'cache-dir'));
      rmSync(join(wt, 'granted.txt'), { recursive: true, force: true });
      git(L.main, ['worktree', 'remove', '--force', join(wt, 'nested')]);
    }
  });

  const runIn = (wrapper: string, prelude: string, launcher: string[] = []) => runWrapper(wrapper, { cwd: L.worktree, env, prelude, launcher });
  /** A test of the builtin's case only: registered there, not a skip in the helper's. */
  const itInShell = (name: string, fn: () => void) => (inShell ? it(name, fn) : undefined);

  itInShell("in the client's shell: its functions run, and a function named like the builtin or `enable` changes nothing", () => {
    const before = protectedState();
    expect(runIn(wrap('greet').command, 'greet() { echo "hello from the snapshot"; }')).toMatchObject({ code: 0, stdout: 'hello from the snapshot\n' });
    const decoy = 'enable() { :; }; bashguard_landlock() { :; }';
    const r = runIn(wrap(`echo x >> ${L.main}/README.md`).command, decoy);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Permission denied/);
    expect(protectedState()).toEqual(before);
  });

  itInShell('where the builtin cannot load or declines (a process group leader outside its own session, a session with a terminal), the helper runs the command, confined', () => {
    const before = protectedState();
    const e = wrap(`echo x >> ${L.main}/README.md`);
    const ok = wrap('echo fine; exit 4');
    // (the builtin's path replaced by one that does not exist: `enable -f` fails)
    const missing = (w: string) => w.replace(/enable -f \S+ bashguard_landlock/, `enable -f ${join(L.root, 'nope.so')} bashguard_landlock`);
    expect(missing(e.command)).not.toBe(e.command);
    const launchers: [string, string[]][] = [['the builtin missing', []]];
    const perl = spawnSync('perl', ['-e', '1']).status === 0;
    if (perl) launchers.push(['a process group leader', ['perl', '-e', 'setpgrp(0,0); exec @ARGV or exit 127']]);
    const script = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
    for (const [what, launcher] of launchers) {
      const w = (x: string) => (what === 'the builtin missing' ? missing(x) : x);
      const denied = runIn(w(e.command), '', launcher);
      expect(denied.code, what).not.toBe(0);
      expect(runIn(w(ok.command), '', launcher), what).toMatchObject({ code: 4, stdout: 'fine\n' });
      // (the helper's inner shell does not have the client's functions: the helper ran)
      expect(runIn(w(wrap('greet').command), 'greet() { echo hi; }', launcher).code, what).toBe(127);
    }
    expect(launchers.length).toBe(perl ? 2 : 1);
    // In a session with a terminal (script(1) gives the shell one), the command runs in a new session: it has no terminal.
    if (script) {
      const probe = 'if : </dev/tty; then echo tty; else echo no-tty; fi 2>/dev/null';
      const inTerminal = (w: string) => spawnSync('script', ['-qec', `/bin/bash -c 'eval "$BG_W"'`, '/dev/null'], { cwd: L.worktree, env: { ...env, BG_W: w }, encoding: 'utf8', timeout: 30_000 }).stdout.replace(/\r/g, '');
      expect(inTerminal(probe)).toBe('tty\n');
      expect(inTerminal(wrap(probe).command)).toBe('no-tty\n');
    }
    expect(protectedState()).toEqual(before);
  });
});

/** A FactStore in memory that counts its writes. */
function memoryStore() {
  const files = new Map<string, string>();
  let writes = 0;
  return { files, writes: () => writes, read: (n: string) => files.get(n) ?? null, write: (n: string, t: string) => void (writes++, files.set(n, t)) };
}

describe('the Landlock rules kept between calls', () => {
  let L: GitLayout;
  let home: string;
  let env: NodeJS.ProcessEnv;
  let plan: SandboxPlan;
  const opts = () => ({ root: false, gitDir: join(L.main, '.git', 'worktrees', 'b1') });
  const kept = (store: ReturnType<typeof memoryStore>, p = plan) => {
    const r = keptLandlockRules(p, opts(), store, 'rules');
    if ('error' in r) throw new Error(r.error);
    return r;
  };
  const fresh = (p = plan): LandlockRules => {
    const r = landlockRules(p, opts());
    if ('error' in r) throw new Error(r.error);
    return r;
  };
  const paths = (r: LandlockRules) => r.rules.map((x) => x.path);

  beforeAll(() => {
    L = makeGitLayout('bashguard-llkeep-');
    home = join(L.root, 'home');
    mkdirSync(join(home, '.claude'), { recursive: true });
    // (a directory of the worktree, which holds protected paths and so is listed entry by entry)
    mkdirSync(join(L.worktree, 'cache'), { recursive: true });
    writeFileSync(join(home, '.claude', 'settings.json'), '{}\n');
    // (a bash user: where SHELL names no bash, Claude Code picks zsh first and the builtin does not apply)
    env = cleanEnv({ HOME: home, TMPDIR: '/tmp', SHELL: '/bin/bash' });
    for (const k of ['XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME', 'CLAUDE_CONFIG_DIR']) delete env[k];
    plan = enforcementPlan(openWorkspace(L.worktree, { env }), landlockHelper() ?? '/bin/true', clientShell(env));
  });
  afterAll(() => L?.cleanup());

  it('are reused while nothing they were computed from changed, and computed again when an entry is added, removed, renamed or becomes a symlink', () => {
    const store = memoryStore();
    const first = kept(store);
    expect(store.writes()).toBe(1);
    expect(first).toEqual(fresh());
    expect(kept(store)).toEqual(first);
    expect(store.writes()).toBe(1);
    const step = (change: () => void) => {
      const writes = store.writes();
      change();
      const r = kept(store);
      expect(store.writes()).toBe(writes + 1);
      expect(r).toEqual(fresh());
      return paths(r);
    };
    expect(step(() => writeFileSync(join(L.worktree, 'added.txt'), 'a'))).toContain(join(L.worktree, 'added.txt'));
    const renamed = step(() => renameSync(join(L.worktree, 'added.txt'), join(L.worktree, 'renamed.txt')));
    expect(renamed).toContain(join(L.worktree, 'renamed.txt'));
    expect(renamed).not.toContain(join(L.worktree, 'added.txt'));
    expect(step(() => rmSync(join(L.worktree, 'renamed.txt')))).not.toContain(join(L.worktree, 'renamed.txt'));
    expect(paths(kept(store))).toContain(join(L.worktree, 'cache'));
    const swapped = step(() => {
      rmSync(join(L.worktree, 'cache'), { recursive: true });
      symlinkSync(join(home, '.claude'), join(L.worktree, 'cache'));
    });
    expect(swapped).not.toContain(join(L.worktree, 'cache'));
    rmSync(join(L.worktree, 'cache'));
    mkdirSync(join(L.worktree, 'cache'));
    expect(step(() => undefined)).toContain(join(L.worktree, 'cache'));
  });

  it('never grant what the plan now protects: another plan is another key', () => {
    const store = memoryStore();
    expect(paths(kept(store))).toContain(join(L.worktree, 'cache'));
    const secret = join(L.worktree, 'cache', 'secret');
    writeFileSync(secret, 's');
    try {
      const tighter: SandboxPlan = { ...plan, grants: [...plan.grants, { path: secret, access: 'ro', why: 'test' }] };
      const r = kept(store, tighter);
      expect(store.writes()).toBe(2);
      for (const x of r.rules) expect(secret === x.path || secret.startsWith(x.path + '/'), x.path).toBe(false);
      expect(r).toEqual(fresh(tighter));
    } finally {
      rmSync(secret);
    }
  });

  it('a listing that changed just before it was read is read again at each check until it has settled', () => {
    const store = memoryStore();
    writeFileSync(join(L.worktree, 'recent.txt'), 'r');
    kept(store);
    const stored = () => (JSON.parse(store.files.get('rules')!) as { facts: RuleFacts }).facts;
    const facts = stored();
    const listing = facts.listings.find((l) => l[0] === L.worktree)!;
    expect(listing[2]).toContain('frecent.txt');
    expect(listing[3]).toBe(true);
    expect(ruleFactsHold(structuredClone(facts))).toBeTruthy();
    // The same identity with other entries (a change within the same timestamp tick): does not hold.
    const other: RuleFacts = { ...facts, listings: facts.listings.map((l) => (l[0] === L.worktree ? [l[0], l[1], l[2]!.replace('frecent.txt', 'fother.txt'), true, l[4]] : l)) };
    expect(ruleFactsHold(other)).toBe(false);
    // Settled: holds, and is kept as no longer racy.
    const later = structuredClone(facts);
    expect(ruleFactsHold(later, Date.now() + 5000)).toBe('updated');
    expect(later.listings.find((l) => l[0] === L.worktree)![3]).toBe(false);
    rmSync(join(L.worktree, 'recent.txt'));
  });

  it('a directory that changed but whose entries are the same, or one with too many entries where no relevant entry changed, keeps them', () => {
    const store = memoryStore();
    const first = kept(store);
    // A file written and renamed over itself (an atomic writer): other identity, same entries.
    writeFileSync(join(L.worktree, 'atomic.json'), '1');
    kept(store);
    const writes = store.writes();
    writeFileSync(join(L.worktree, 'atomic.json.tmp'), '2');
    renameSync(join(L.worktree, 'atomic.json.tmp'), join(L.worktree, 'atomic.json'));
    const r = kept(store);
    expect(r).toEqual(fresh());
    expect(store.writes()).toBe(writes + 1); // the listing as it is now, not the rules computed again
    rmSync(join(L.worktree, 'atomic.json'));
    expect(paths(kept(store))).toEqual(paths(first));
    // Too many entries (a limit of 1): a new one changes nothing the rules take; a relevant one (.claude) does.
    const facts: RuleFacts = { facts: [], listings: [] };
    landlockRules(plan, { ...opts(), perDirLimit: 1 }, facts);
    expect(facts.listings.find((l) => l[0] === L.worktree)![4]).toContain('.claude');
    writeFileSync(join(L.worktree, 'another.txt'), 'a');
    expect(ruleFactsHold(structuredClone(facts), Date.now(), 1)).toBeTruthy();
    // (the worktree's .claude/, protected and missing, appears)
    mkdirSync(join(L.worktree, '.claude'));
    try {
      expect(ruleFactsHold(structuredClone(facts), Date.now(), 1)).toBe(false);
    } finally {
      rmSync(join(L.worktree, '.claude'), { recursive: true });
      rmSync(join(L.worktree, 'another.txt'));
    }
  });

  it('a kept value for another key, or damaged, is not used', () => {
    const store = memoryStore();
    kept(store);
    const text = store.files.get('rules')!;
    const k = JSON.parse(text) as { key: string; facts: RuleFacts; rules: { args: string[] } };
    expect(k.rules.args).toEqual(fresh().args);
    store.files.set('rules', JSON.stringify({ ...k, key: k.key.replace('landlock-rules-', 'other-'), rules: { ...k.rules, args: ['--rules', `D${L.main}`] } }));
    expect(kept(store)).toEqual(fresh());
    store.files.set('rules', JSON.stringify({ ...k, rules: { ...k.rules, args: ['--rw', L.main] } }));
    expect(kept(store)).toEqual(fresh());
    // What is kept reads back as the rules it was made from.
    expect(kept(store).rules).toEqual(fresh().rules);
    store.files.set('rules', '{"key":');
    expect(kept(store)).toEqual(fresh());
  });

  it('the helper gets them as one --rules word: entries of one directory under an @ line; a name with a newline gets no rule', () => {
    const rules = [{ path: '/a', file: false }, { path: '/x/y/b', file: true }, { path: '/x/y/c', file: false }, { path: '/z/one', file: true }, { path: '/x/y/new\nline', file: true }];
    const args = landlockArgs(rules);
    expect(args).toEqual(['--rules', 'D/a\n@/x/y\nfb\ndc\nF/z/one']);
    expect(rulesFromText(args[1]!)).toEqual([rules[0], rules[1], rules[2], rules[3]]);
  });
});
