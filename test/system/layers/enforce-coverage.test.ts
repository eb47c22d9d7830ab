/**
 * What the enforcement keeps read-only (src/layers/sandbox/enforce.ts, grants.ts): the protected set
 * computed independently of the plan (the main checkout, the sibling worktrees, the shared git dir
 * but this worktree's own git state, every control file of the workspace model, the enforcement's
 * own control paths: ~/.claude, ~/.claude.json, the managed settings, the bashguard package,
 * git's user config, the shell start-up files), each path checked with `planCovers` against the
 * plan the hook uses, and then for real: one wrapped command tries to write every one of them
 * (append nothing to a file, create a probe in a directory, create a missing name) and reports
 * what it could write. Fewer mounts must never mean less coverage.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { cleanEnv } from '../../helpers/layers.js';
import { openWorkspace } from '../../../src/policy/workspace/index.js';
import { planCovers } from '../../../src/layers/sandbox/index.js';
import { clientShell, enforceCall, enforcementArgs, enforcementControlPaths, enforcementPlan, mountsText } from '../../../src/layers/sandbox/enforce.js';
import type { Grant, SandboxPlan } from '../../../src/layers/sandbox/grants.js';
import { bwrapHere } from '../../helpers/bwrap.js';
import { landlockBuiltin, landlockHelper } from '../../../src/layers/sandbox/probes.js';

const { bwrap, canRun } = bwrapHere('the enforcement coverage checks');

describe.skipIf(!canRun)('enforcement coverage: every protected path stays read-only', () => {
  let L: GitLayout;
  let home: string;
  let env: NodeJS.ProcessEnv;
  let plan: SandboxPlan;
  /** Paths the command must not write, with why. */
  let protectedSet: { path: string; why: string }[];
  /** Paths the command must be able to write. */
  let writable: string[];

  beforeAll(() => {
    L = makeGitLayout('bashguard-coverage-');
    home = join(L.root, 'home');
    // ~/.claude is a symlink to a directory elsewhere: the real one is what must be covered.
    const claudeReal = join(L.root, 'claude-real');
    mkdirSync(join(claudeReal, 'hooks'), { recursive: true });
    writeFileSync(join(claudeReal, 'settings.json'), '{}\n');
    mkdirSync(home, { recursive: true });
    // (npm's cache exists: a tool cache that does not is not created, HOME being read-only)
    mkdirSync(join(home, '.npm'), { recursive: true });
    symlinkSync(claudeReal, join(home, '.claude'));
    writeFileSync(join(home, '.claude.json'), '{}\n');
    writeFileSync(join(home, '.profile'), '# profile\n');
    mkdirSync(join(L.main, '.claude'), { recursive: true });
    writeFileSync(join(L.main, '.claude', 'settings.json'), '{}\n');
    writeFileSync(join(L.main, '.bashguard.json'), '{}\n');
    mkdirSync(join(L.root, 'tmp'), { recursive: true });
    env = cleanEnv({ HOME: home, TMPDIR: join(L.root, 'tmp') });
    for (const k of ['XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME', 'CLAUDE_CONFIG_DIR', 'ZDOTDIR']) delete env[k];
    const ws = openWorkspace(L.worktree, { env });
    const e = enforceCall(ws, 'true', 'auto', env);
    if (e.kind !== 'bwrap') throw new Error(`not enforced: ${JSON.stringify(e)}`);
    plan = e.plan;
    const git = join(L.main, '.git');
    const shell = clientShell(env);
    protectedSet = [
      { path: join(L.main, 'README.md'), why: 'a file of the main checkout' },
      { path: join(L.main, 'new-file'), why: 'a new file in the main checkout' },
      { path: join(L.sibling, 'README.md'), why: 'a sibling worktree' },
      { path: join(L.sibling, 'new-dir', 'x'), why: 'a new path in a sibling' },
      ...['config', 'HEAD', 'index', 'description', 'info/exclude', 'hooks/pre-commit', 'worktrees/b2/HEAD', 'worktrees/b1/gitdir', 'worktrees/b1/commondir', 'modules/x', 'packed-refs.lock'].map((p) => ({ path: join(git, p), why: `the shared git dir: ${p}` })),
      { path: join(L.worktree, '.git'), why: "the worktree's .git file" },
      ...ws.regions.filter((r) => r.kind === 'protected').map((r) => ({ path: r.root, why: r.why ?? 'a protected region' })),
      ...enforcementControlPaths(env, bwrap!, shell).map((c) => ({ path: c.path, why: c.why })),
      { path: join(home, '.claude', 'settings.json'), why: 'the user settings, through the symlinked ~/.claude' },
      { path: join(claudeReal, 'hooks', 'launcher'), why: "a new hook file in ~/.claude's real directory" },
      { path: join(L.outside, 'x'), why: 'a directory beside the checkouts, outside every write root' },
      { path: join(home, 'x'), why: 'HOME, outside every write root' },
      // Shared git state (issue 51 item 2): another branch's ref and reflog, the main checkout's HEAD reflog, tags.
      ...['refs/heads/b2', 'logs/refs/heads/b2', 'logs/HEAD', 'refs/tags/v1', 'refs/stash', 'packed-refs'].map((p) => ({ path: join(git, p), why: `shared git state: ${p}` })),
    ];
    writable = [join(L.worktree, 'README.md'), join(L.worktree, 'new', 'x'), join(git, 'objects', 'ab'), join(git, 'refs', 'heads', 'b1'), join(git, 'logs', 'refs', 'heads', 'b1'), join(git, 'worktrees', 'b1', 'index'), join(home, '.npm', 'x')];
  });
  afterAll(() => L?.cleanup());

  it('planCovers: every protected path is read-only under the plan, but the few that cannot be reserved (listed, and watched by the analyzer)', () => {
    const uncovered = protectedSet.filter((p) => !planCovers(plan, p.path) && !plan.unreserved.includes(p.path));
    expect(uncovered).toEqual([]);
    // What is not reserved does not exist (a name that exists is always bound).
    for (const u of plan.unreserved) expect(existsSync(u), u).toBe(false);
    for (const w of writable) expect(planCovers(plan, w), w).toBe(false);
  });

  it('bwrap gets fewer mounts than grants: nested read-only grants are not bound again', () => {
    const args = enforcementArgs(plan, process.getuid?.() === 0);
    const binds = args.filter((a) => a === '--bind' || a === '--ro-bind' || a === '--dev-bind' || a === '--tmpfs').length;
    expect(binds).toBeLessThan(plan.grants.length);
    // ~/.claude's real directory lies outside every write root: read-only already, not bound, nor the settings file inside it.
    const claudeReal = join(L.root, 'claude-real');
    expect(args).not.toContain(claudeReal);
    expect(args).not.toContain(join(claudeReal, 'settings.json'));
  });

  // Each way the plan's mounts are made: the client's bash (the builtin), the helper for another
  // shell (here: the client's temp dir read-only, so its bash is not confined in place), bubblewrap.
  const helperHere = landlockHelper() !== null;
  const inShellHere = helperHere && landlockBuiltin(landlockHelper()!) !== null;
  it.each(['shell', 'helper', 'bwrap'] as const)('for real, the mounts made by %s: the wrapped command can write none of the protected paths, and the writable ones', (by) => {
    // One script: for each path, try to write it without changing it (append nothing to a file,
    // create and remove a probe in a directory, create and remove a missing name); print the
    // paths that could be written. In the shared git dir, a tmpfs under the mounts, a new name is
    // written there and vanishes with the call: it is left in place, and must not be on the disk after.
    const volatile = (p: string) => plan.grants.filter((g) => p.startsWith(`${g.path}/`)).reduce<Grant | null>((a, g) => (!a || g.path.length > a.path.length ? g : a), null)?.volatile === true;
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const tryWrite = (p: string) =>
      `if [ -d ${q(p)} ]; then if : 2>/dev/null > ${q(`${p}/.bg-probe`)}; then rm -f ${q(`${p}/.bg-probe`)}; echo W ${q(p)}; fi; ` +
      `elif [ -e ${q(p)} ]; then if : 2>/dev/null >> ${q(p)}; then echo W ${q(p)}; fi; ` +
      `elif mkdir -p "$(dirname ${q(p)})" 2>/dev/null && : 2>/dev/null > ${q(p)}; then ${volatile(p) ? 'echo V' : `rm -f ${q(p)}; echo W`} ${q(p)}; fi`;
    const all = [...protectedSet.map((p) => p.path), ...writable];
    const before = new Map(all.map((p) => [p, existsSync(p) && statSync(p).isFile() ? readFileSync(p) : null]));
    const existed = new Set(all.filter((p) => existsSync(p)));
    const script = all.map(tryWrite).join('\n');
    const runEnv: NodeJS.ProcessEnv = { ...env, SHELL: '/bin/bash' };
    if (by === 'helper') runEnv.CLAUDE_CODE_TMPDIR = join(home, '.claude');
    else delete runEnv.CLAUDE_CODE_TMPDIR;
    const ws = openWorkspace(L.worktree, { env: runEnv });
    const e = enforceCall(ws, script, by === 'bwrap' ? 'bwrap' : 'auto', runEnv);
    if (e.kind !== 'bwrap') throw new Error('not enforced');
    expect(e.by).toBe(by === 'shell' ? (inShellHere ? 'shell' : helperHere ? 'helper' : undefined) : by === 'helper' && helperHere ? 'helper' : undefined);
    expect(e.command).toMatch(e.by === undefined ? /--ro-bind/ : /['\n]r\//);
    const r = spawnSync('/bin/bash', ['-c', 'eval "$BG_W"'], { cwd: L.worktree, env: { ...runEnv, BG_W: e.command }, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    const wrote = new Set(r.stdout.split('\n').filter((l) => l.startsWith('W ')).map((l) => l.slice(2)));
    // (a name missing in the shared git dir, written in the call: there only, `packed-refs`
    // reserved with /dev/null included, so not on the disk after it)
    const gone = (p: string) => volatile(p) && !existed.has(p) && !existsSync(p);
    const escaped = protectedSet.filter((p) => wrote.has(p.path) && !plan.unreserved.includes(p.path) && !gone(p.path));
    expect(escaped).toEqual([]);
    const vanished = r.stdout.split('\n').filter((l) => l.startsWith('V ')).map((l) => l.slice(2));
    for (const v of vanished) expect(existsSync(v), `${v}: made in the call, on the disk after it`).toBe(false);
    // (git's lock beside packed-refs can be taken; `modules`, reserved, cannot take a submodule)
    expect(vanished).toEqual([join(L.main, '.git', 'packed-refs.lock')]);
    for (const w of writable) expect(wrote.has(w), w).toBe(true);
    // Nothing protected changed (the probes append nothing).
    for (const p of protectedSet) {
      const b = before.get(p.path);
      if (b instanceof Buffer) expect(readFileSync(p.path).equals(b), p.path).toBe(true);
    }
  });
});

describe('the kept plan (enforcementPlan with a store)', () => {
  let L: GitLayout;
  let env: NodeJS.ProcessEnv;
  beforeAll(() => {
    L = makeGitLayout('bashguard-kept-plan-');
    const home = join(L.root, 'home');
    mkdirSync(join(home, '.claude'), { recursive: true });
    mkdirSync(join(L.root, 'tmp'), { recursive: true });
    env = cleanEnv({ HOME: home, TMPDIR: join(L.root, 'tmp') });
    for (const k of ['XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME', 'CLAUDE_CONFIG_DIR', 'ZDOTDIR']) delete env[k];
  });
  afterAll(() => L?.cleanup());

  const memory = () => {
    const files = new Map<string, string>();
    let writes = 0;
    return { files, writes: () => writes, read: (n: string) => files.get(n) ?? null, write: (n: string, t: string) => void (writes++, files.set(n, t)) };
  };
  const plan = (store?: ReturnType<typeof memory>) => enforcementPlan(openWorkspace(L.worktree, { env }), '/usr/bin/bwrap', '/bin/bash', store);

  it('is used while every fact it was computed from holds, and computed again when one changes', () => {
    const store = memory();
    const first = plan(store);
    expect(store.writes()).toBe(1);
    expect(plan(store)).toEqual(first);
    expect(store.writes()).toBe(1);
    expect(plan(store)).toEqual(plan());
    // A control file appears: the kept plan no longer holds, and the new one covers it.
    const settings = join(L.main, '.claude', 'settings.json');
    expect(planCovers(first, settings)).toBe(true); // (its nearest existing directory was kept read-only)
    mkdirSync(join(L.main, '.claude'), { recursive: true });
    writeFileSync(settings, '{}\n');
    const second = plan(store);
    expect(store.writes()).toBe(2);
    expect(second).toEqual(plan());
    expect(planCovers(second, settings)).toBe(true);
    // A sibling worktree removed and a directory of that name made: computed again.
    spawnSync('git', ['worktree', 'remove', '--force', L.sibling], { cwd: L.main, env });
    mkdirSync(L.sibling, { recursive: true });
    const third = plan(store);
    expect(store.writes()).toBe(3);
    expect(third).toEqual(plan());
  });

  it("keeps `/`'s listing with the plan, used only while `/` is unchanged", () => {
    const store = memory();
    const fresh = plan(store);
    const [name, text] = [...store.files.entries()][0]!;
    const kept = JSON.parse(text) as { probes: [string, string][]; top: string[] };
    const dirs = readdirSync('/', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `/${d.name}`);
    expect(kept.top).toEqual(dirs);
    expect(mountsText(plan(store), false)).toEqual(mountsText(plan(), false));
    // A listing kept from an earlier `/` (here: one without /dev, whose line the text then lacks)
    // is what the call uses while `/`'s stamp holds ...
    expect(kept.top).toContain('/dev');
    expect(mountsText(plan(store), false)).toContain('\nw/dev\n');
    const earlier = kept.top.filter((d) => d !== '/dev');
    store.files.set(name, JSON.stringify({ ...kept, top: earlier }));
    expect(mountsText(plan(store), false)).not.toContain('\nw/dev\n');
    // ... and once `/` changed (its stamp differs), the plan and the listing are computed again.
    const stamp = kept.probes.findIndex(([p]) => p === '\u0001/');
    expect(stamp).toBeGreaterThanOrEqual(0);
    const probes = kept.probes.map((p, i) => (i === stamp ? [p[0], '1:1'] : p));
    store.files.set(name, JSON.stringify({ ...kept, probes, top: earlier }));
    const writes = store.writes();
    const again = plan(store);
    expect(store.writes()).toBe(writes + 1);
    expect(again).toEqual(fresh);
    expect(mountsText(again, false)).toContain('\nw/dev\n');
  });

  it('a kept plan for other inputs, or damaged, is not used', () => {
    const store = memory();
    plan(store);
    const [name, text] = [...store.files.entries()][0]!;
    const kept = JSON.parse(text) as { key: string; probes: unknown; plan: SandboxPlan };
    // The same facts under another key (another HOME, another layout): not used.
    store.files.set(name, JSON.stringify({ ...kept, key: kept.key.replace('/home', '/elsewhere'), plan: { ...kept.plan, grants: [{ path: '/', access: 'rw', why: 'x' }] } }));
    expect(plan(store)).toEqual(plan());
    store.files.set(name, '{"key":');
    expect(plan(store)).toEqual(plan());
    store.files.set(name, JSON.stringify({ ...kept, plan: { ...kept.plan, grants: [{ path: 'relative', access: 'rw', why: 'x' }] } }));
    expect(plan(store)).toEqual(plan());
  });
});
