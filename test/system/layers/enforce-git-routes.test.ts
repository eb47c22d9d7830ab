/**
 * The analyzer and the kernel agree on shared git state (issue 51 items 2 and 5): from a linked
 * worktree, through the hook as Claude Code calls it, each git route that certainly writes
 * shared state the mounts hold (src/layers/sandbox/git-refs.ts) is denied early, with what to do
 * instead, and really fails when run under the wrapper anyway; each route that writes only this
 * worktree's own state, and each alternative the reasons name, is allowed and runs under the
 * kernel. With enforcement off the analyzer's decisions are as before. Skips, saying why, where
 * bubblewrap cannot start.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { openWorkspace } from '../../../src/policy/workspace/index.js';
import { enforceCall } from '../../../src/layers/sandbox/enforce.js';
import { clientHome, git, gitStatus, runWrapper } from '../../helpers/layers.js';
import { bwrapHere } from '../../helpers/bwrap.js';
import { cannotRun } from '../../helpers/shared.js';
import { landlockBuiltin, landlockHelper } from '../../../src/layers/sandbox/probes.js';
import { runHook } from '../../../src/frontends/hook/hook.js';
import { CLIENTS } from '../../../src/frontends/hook/clients/index.js';
import { getParser } from '../../../src/engine/parse/index.js';
import type { IO } from '../../../src/frontends/io.js';

const { canRun } = bwrapHere('shared git routes run under bubblewrap');
const helper = landlockHelper();
const zsh = ['/usr/bin/zsh', '/bin/zsh'].find((z) => existsSync(z)) ?? null;
/** Each way the mounts are made: in the client's bash, by the helper for a zsh client, by bubblewrap. */
const MECHANISMS = [
  { path: "in the client's shell (bash)", mode: 'auto' as const, shell: '/bin/bash', by: 'shell' as const, here: helper !== null && landlockBuiltin(helper) !== null },
  { path: 'by the helper (zsh)', mode: 'auto' as const, shell: zsh ?? 'zsh', by: 'helper' as const, here: helper !== null && zsh !== null },
  { path: 'bwrap', mode: 'bwrap' as const, shell: '/bin/bash', by: undefined, here: true },
];
for (const m of MECHANISMS) if (canRun && !m.here) cannotRun(`shared git flows ${m.path}: ${helper === null ? "bashguard's helper is not built" : 'zsh is not installed'}`);

describe.skipIf(!canRun)('shared git state: the hook and the kernel agree', () => {
  let L: GitLayout;
  let home: string;
  let env: NodeJS.ProcessEnv;
  let common: string;
  let origin: string;
  let upstream: string;
  const hook = async (command: string) => {
    const out: string[] = [];
    const event = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: L.worktree, tool_use_id: 'toolu_refs' };
    const io: IO = { stdout: (t) => void out.push(t), stderr: () => {}, readStdin: async () => JSON.stringify(event), env, cwd: L.worktree, isTTY: false };
    await runHook(io, { exitCode: false, getParser: () => getParser(), client: CLIENTS.claude! });
    const text = out.join('');
    const o = text ? (JSON.parse(text) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string; updatedInput?: { command?: string } } }).hookSpecificOutput : null;
    return { decision: o?.permissionDecision ?? 'allow', reason: o?.permissionDecisionReason ?? '', wrapped: o?.updatedInput?.command };
  };
  /** The command under the wrapper the hook's default (`auto`) enforcement gives it, as the client runs it. */
  const underKernel = (command: string, mode: 'auto' | 'bwrap' = 'auto', shell = '/bin/bash', by?: 'shell' | 'helper') => {
    const e = enforceCall(openWorkspace(L.worktree, { env }), command, mode, env, undefined, undefined, { shell });
    if (e.kind !== 'bwrap') throw new Error(`not enforced by the mounts: ${JSON.stringify(e)}`);
    if (mode === 'auto') expect(e.by, 'who makes the mounts').toBe(by ?? 'shell');
    if (shell === '/bin/bash') return runWrapper(e.command, { cwd: L.worktree, env });
    const r = spawnSync(shell, ['-c', e.command], { cwd: L.worktree, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  /** Every ref of the repository but this worktree's own branch, and the shared files a ref route writes. */
  const shared = () => ({
    refs: git(L.main, ['for-each-ref', '--format=%(refname) %(objectname)']).split('\n').filter((r) => !r.startsWith('refs/heads/b1 ')),
    files: ['packed-refs', 'logs/refs/stash', 'logs/refs/heads/loose'].map((f) => [f, existsSync(join(common, f)) ? readFileSync(join(common, f), 'latin1') : null]),
  });

  beforeAll(() => {
    L = makeGitLayout('bashguard-gitroutes-');
    common = join(L.main, '.git');
    const client = clientHome(L.root);
    ({ home, env } = client);
    // A remote in a write root (a push lands there), one commit ahead of the remote-tracking refs.
    origin = join(client.tmp, 'origin.git');
    git(L.root, ['clone', '-q', '--bare', L.main, origin]);
    git(L.main, ['remote', 'add', 'origin', origin]);
    git(L.main, ['fetch', '-q', 'origin']);
    const o2 = join(L.root, 'o2');
    git(L.root, ['clone', '-q', origin, o2]);
    git(o2, ['-c', 'user.name=u', '-c', 'user.email=u@u', 'commit', '-q', '--allow-empty', '-m', 'upstream']);
    git(o2, ['push', '-q', 'origin', 'HEAD:main', 'HEAD:feature']);
    upstream = git(o2, ['rev-parse', 'HEAD']);
    git(L.main, ['tag', 'v1']);
    git(L.main, ['branch', 'loose']);
    // A stash entry made in the main checkout: another checkout's.
    writeFileSync(join(L.main, 'README.md'), 'stashed in the main checkout\n');
    git(L.main, ['stash', '-q']);
  });
  afterAll(() => L?.cleanup());

  it('each route that writes held shared state is denied early with what to do instead, and fails under the kernel', async () => {
    const before = shared();
    const routes: [string, RegExp][] = [
      ['echo change >> README.md && git stash', /the stash .*Instead: .*git stash create/s],
      ['git stash pop', /the stash .*Instead: .*git commit -am wip/s],
      ['git fetch origin', /remote-tracking refs \(refs\/remotes\/origin\/.*Instead: `git fetch --refmap= <remote> <branch>`/s],
      ['git pull origin main', /remote-tracking refs .*FETCH_HEAD/s],
      ['git tag v2', /tags \(refs\/tags\)/],
      ['git tag -d v1', /tags \(refs\/tags\)/],
      ['git notes add -m n HEAD', /notes \(refs\/notes\)/],
      ['git update-ref refs/tags/v3 HEAD', /refs\/tags\/v3/],
      ['git branch newb', /the branch `newb`.*logs\/refs\/heads\/newb read-only/s],
      ['git branch -D loose', /the branch `loose`/],
      // (after a commit of its own: moving loose to where it already is would be no write at all)
      ['git commit -q --allow-empty -m mine && git branch -f loose HEAD', /the branch `loose`/],
      ['git checkout -q -b created', /a new branch `created`.*commit on this worktree's own branch/s],
      ['git switch -q -c created2', /a new branch `created2`/],
      ['git bisect start', /packed-refs.*bisect by hand/s],
    ];
    for (const [command, why] of routes) {
      const h = await hook(command);
      expect(h.decision, `${command}: ${h.reason}`).toBe('deny');
      expect(h.reason, command).toMatch(/the OS enforcement keeps \S+ read-only for this worktree, so git fails there as soon as it has anything to write\./);
      expect(h.reason, command).toMatch(why);
      const k = underKernel(command);
      expect(k.code, `${command} under the kernel: ${k.stdout}${k.stderr}`).not.toBe(0);
      expect(`${k.stdout}${k.stderr}`, command).toMatch(/Read-only file system|unable to create directory|Cannot save the current status|packed-refs: Device or resource busy/);
      git(L.worktree, ['checkout', '-q', '--', '.']);
    }
    expect(shared()).toEqual(before);
  });

  it("this worktree's own state and the alternatives the reasons name are allowed and run under the kernel", async () => {
    const before = shared();
    const run = async (command: string) => {
      const h = await hook(command);
      expect(h.decision, `${command}: ${h.reason}`).toBe('allow');
      expect(h.wrapped, command).toBeDefined();
      const r = runWrapper(h.wrapped!, { cwd: L.worktree, env });
      expect(r.code, `${command}: ${r.stdout}${r.stderr}`).toBe(0);
      return r;
    };
    await run('git commit -q --allow-empty -m own');
    // The stash without its ref: a commit id to keep.
    writeFileSync(join(L.worktree, 'README.md'), 'kept aside\n');
    expect((await run('git stash create')).stdout.trim()).toMatch(/^[0-9a-f]{40}$/);
    git(L.worktree, ['checkout', '-q', '--', '.']);
    // A fetch into FETCH_HEAD only (this worktree's admin dir), then merged into the own branch.
    await run('git fetch -q --refmap= origin main');
    expect(readFileSync(join(common, 'worktrees', 'b1', 'FETCH_HEAD'), 'utf8')).toContain(upstream);
    await run('git merge -q --no-edit FETCH_HEAD');
    expect(git(L.worktree, ['merge-base', '--is-ancestor', upstream, 'HEAD'])).toBe('');
    // Bisecting by hand: a detached HEAD and back (HEAD and its reflog are the worktree's own).
    await run('git checkout -q --detach HEAD~1 && git checkout -q b1');
    expect(git(L.worktree, ['rev-parse', '--abbrev-ref', 'HEAD'])).toBe('b1');
    // A push reaches the remote; git's own update of refs/remotes/origin/b1 afterwards is held (it says so and exits 0).
    const push = await run('git push -q origin HEAD:b1');
    expect(git(origin, ['rev-parse', 'refs/heads/b1'])).toBe(git(L.worktree, ['rev-parse', 'HEAD']));
    expect(push.stderr).toMatch(/refs\/remotes\/origin\/b1.*Read-only file system/s);
    // A repository cloned inside the worktree has refs of its own, inside the line.
    git(L.worktree, ['clone', '-q', origin, 'vendor']);
    await run('cd vendor && git fetch -q origin');
    expect(git(join(L.worktree, 'vendor'), ['rev-parse', 'refs/remotes/origin/feature'])).toBe(upstream);
    rmSync(join(L.worktree, 'vendor'), { recursive: true, force: true });
    expect(shared()).toEqual(before);
  });

  it('a fetch or pull that names no remote is not denied early: with a local upstream it runs under the kernel', async () => {
    const before = shared();
    // (set up outside the kernel: the config is shared, and the upstream `.` is this repository)
    git(L.worktree, ['branch', '-q', '-u', 'main']);
    try {
      expect(git(L.worktree, ['config', 'branch.b1.remote'])).toBe('.');
      for (const command of ['git fetch -q', 'git pull -q']) {
        const h = await hook(command);
        expect(h.decision, `${command}: ${h.reason}`).toBe('allow');
        expect(h.wrapped, command).toBeDefined();
        const r = runWrapper(h.wrapped!, { cwd: L.worktree, env });
        expect(r.code, `${command}: ${r.stdout}${r.stderr}`).toBe(0);
      }
      expect(readFileSync(join(common, 'worktrees', 'b1', 'FETCH_HEAD'), 'utf8')).toContain(git(L.main, ['rev-parse', 'main']));
    } finally {
      git(L.worktree, ['branch', '-q', '--unset-upstream']);
    }
    expect(shared()).toEqual(before);
  });

  it('housekeeping that may have nothing to do (gc --auto, maintenance run --auto) is not denied early, and exits 0 under the kernel', async () => {
    const before = shared();
    for (const command of ['git gc --auto', 'git maintenance run --auto']) {
      const h = await hook(command);
      expect(h.decision, `${command}: ${h.reason}`).not.toBe('deny');
      const k = underKernel(command);
      expect(k.code, `${command} under the kernel: ${k.stdout}${k.stderr}`).toBe(0);
    }
    expect(shared()).toEqual(before);
  });

  it("the early deny's reason holds where git has nothing to write: a clean `git stash` and an up-to-date `git fetch origin` exit 0 under the kernel", async () => {
    // (brought up to date outside the kernel: refs/remotes is shared)
    git(L.main, ['fetch', '-q', 'origin']);
    const before = shared();
    for (const command of ['git stash', 'git fetch origin']) {
      const h = await hook(command);
      expect(h.decision, command).toBe('deny');
      expect(h.reason, command).toMatch(/so git fails there as soon as it has anything to write\./);
      const k = underKernel(command);
      expect(k.code, `${command} under the kernel: ${k.stdout}${k.stderr}`).toBe(0);
    }
    expect(shared()).toEqual(before);
  });

  it("refs only this worktree has (refs/worktree, FETCH_HEAD) are written under the kernel", () => {
    const r = underKernel('git update-ref refs/worktree/mine HEAD && git rev-parse refs/worktree/mine');
    expect(r, r.stderr).toMatchObject({ code: 0 });
    expect(existsSync(join(common, 'worktrees', 'b1', 'refs', 'worktree', 'mine'))).toBe(true);
  });

  it('a raw write of a new name in refs/heads, which no mount can hold, is denied by the analyzer; a raw write of the own ref is not', async () => {
    const evil = join(common, 'refs', 'heads', 'evil');
    const raw = `git rev-parse HEAD > ${evil}`;
    const h = await hook(raw);
    expect(h.decision, h.reason).toBe('deny');
    expect(h.reason).toMatch(/BG1004.*refs\/heads\/evil, inside the shared git directory/s);
    for (const other of [`echo x > ${common}/refs/tags/raw`, `echo x >> ${common}/logs/refs/heads/loose`, `echo x > ${common}/packed-refs`]) expect((await hook(other)).decision, other).toBe('deny');
    expect((await hook(`git rev-parse HEAD > ${common}/refs/heads/b1`)).decision).toBe('allow');
    // The kernel alone does not hold it (docs/limits.md): the name lands.
    const k = underKernel(raw);
    expect(k.code, k.stderr).toBe(0);
    expect(existsSync(evil)).toBe(true);
    rmSync(evil);
  });

  // git's files backend locks the shared packed-refs for every ref deletion, this worktree's own
  // pseudo-refs included: under the mounts the common dir is a tmpfs with its entries bound back
  // (src/layers/sandbox/git-refs.ts `volatileGrants`), so the lock lands there and vanishes, and
  // each flow runs as it does unconfined: the same exit, no lock error, no more state left behind
  // than git itself leaves (git 2.39 leaves AUTO_MERGE after a clean revert or cherry-pick). Not
  // bisect: it deletes its refs in one batch, for which git (2.39) rewrites packed-refs itself,
  // and a rename over the held file fails (so `bisect start` stays denied early).
  describe.each(MECHANISMS.filter((m) => m.here))("flows that delete one of this worktree's own refs, under the kernel, $path", ({ mode, shell, by }) => {
    const LOCK = /packed-refs\.lock|Read-only file system|Device or resource busy/;
    let admin: string;
    let unconfined: Record<'revert' | 'pick', string[]>;
    const runs: Record<'bisect' | 'revert' | 'pick' | 'del' | 'pack', { code: number | null; stdout: string; stderr: string; left: string[] }> = {} as never;
    const leftovers = (dir: string) => ['AUTO_MERGE', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'MERGE_MSG', 'BISECT_LOG', 'BISECT_START'].filter((f) => existsSync(join(dir, f)));
    // (files of their own per mechanism: the flows of each run in the same worktree)
    const f = `${mode}-${by ?? 'bwrap'}`;
    const flows: [keyof typeof runs, string][] = [
      ['bisect', 'git bisect start && git bisect bad HEAD && git bisect reset'],
      ['revert', `echo r > reverted-${f}.txt && git add reverted-${f}.txt && git commit -q -m r1 && git revert --no-edit HEAD`],
      ['pick', `echo c > picked-${f}.txt && git add picked-${f}.txt && git commit -q -m c1 && git reset -q --hard HEAD~1 && git cherry-pick HEAD@{1}`],
      ['del', 'git update-ref refs/worktree/gone HEAD && git update-ref -d refs/worktree/gone'],
      // (packs every loose ref, this worktree's branch among them, then prunes the loose files)
      ['pack', 'git pack-refs --all'],
    ];
    let before: ReturnType<typeof shared>;
    let packedBefore: boolean;
    beforeAll(() => {
      before = shared();
      packedBefore = existsSync(join(common, 'packed-refs'));
      admin = join(common, 'worktrees', 'b1');
      // What git leaves after the same flows with no sandbox at all, in a layout of its own.
      const U = makeGitLayout('bashguard-gitroutes-plain-');
      try {
        const uAdmin = join(U.main, '.git', 'worktrees', 'b1');
        unconfined = { revert: [], pick: [] };
        for (const [name, command] of flows) {
          if (name !== 'revert' && name !== 'pick') continue;
          const r = runWrapper(command, { cwd: U.worktree, env });
          expect(r.code, r.stderr).toBe(0);
          unconfined[name] = leftovers(uAdmin);
          for (const x of unconfined[name]) rmSync(join(uAdmin, x));
        }
      } finally {
        U.cleanup();
      }
      for (const [name, command] of flows) {
        runs[name] = { ...underKernel(command, mode, shell, by), left: leftovers(admin) };
        // (what a flow leaves behind is its own finding, not the next one's)
        if (name === 'bisect') gitStatus(L.worktree, ['bisect', 'reset']);
        for (const x of leftovers(admin)) rmSync(join(admin, x));
      }
    });

    it('git bisect takes the packed-refs lock, and fails only on rewriting the held packed-refs (git 2.39); runs cleanly where git does not rewrite it', () => {
      expect(runs.bisect.stderr).not.toMatch(/packed-refs\.lock|Read-only file system/);
      if (runs.bisect.code === 0) expect(runs.bisect.left).toEqual([]);
      else expect(runs.bisect.stderr).toMatch(/error replacing \S+\/packed-refs: Device or resource busy/);
      if (runs.bisect.code !== 0) expect(runs.bisect.stderr.split('\n').filter((l) => l && !/^error: could not delete reference \S+: (error replacing \S+\/packed-refs: Device or resource busy)?$/.test(l))).toEqual([]);
    });

    it('git revert and git cherry-pick land their commits with no lock error and no more state behind than unconfined', () => {
      expect(runs.revert, runs.revert.stderr).toMatchObject({ code: 0 });
      expect(runs.pick, runs.pick.stderr).toMatchObject({ code: 0 });
      expect(git(L.worktree, ['log', '--format=%s', '-2'])).toBe('c1\nRevert "r1"');
      const noise = (r: (typeof runs)['revert']) => ({ lock: LOCK.test(r.stderr), left: r.left });
      expect({ revert: noise(runs.revert), pick: noise(runs.pick) }).toEqual({ revert: { lock: false, left: unconfined.revert }, pick: { lock: false, left: unconfined.pick } });
    });

    it('git update-ref -d of a refs/worktree/ ref runs cleanly, and the ref is gone', () => {
      expect(runs.del, runs.del.stderr).toMatchObject({ code: 0 });
      expect(runs.del.stderr).not.toMatch(LOCK);
      expect(existsSync(join(admin, 'refs', 'worktree', 'gone'))).toBe(false);
    });

    it("git pack-refs cannot prune this worktree's branch: packed-refs is held (reserved in the call where it does not exist), so it fails before pruning", () => {
      // (this layout has no packed-refs: the reservation made in the call is what holds)
      expect(packedBefore).toBe(false);
      expect(runs.pack.code).not.toBe(0);
      expect(runs.pack.stderr).toMatch(/packed-refs: Device or resource busy/);
      expect(existsSync(join(common, 'refs', 'heads', 'b1'))).toBe(true);
      expect(existsSync(join(common, 'packed-refs'))).toBe(packedBefore);
    });

    it('nothing of it reached the shared git dir: no lock file, no packed-refs where there was none, the shared refs as they were', () => {
      expect(readdirSync(common).filter((n) => n.endsWith('.lock') || n === 'gc.pid')).toEqual([]);
      expect(readdirSync(join(common, 'refs', 'heads'))).not.toContain('b1.lock');
      expect(shared()).toEqual(before);
    });
  });

  it('with enforcement off, the analyzer decides as before: the stash, a fetch and a new branch it checks out are allowed', async () => {
    mkdirSync(join(home, '.config', 'bashguard'), { recursive: true });
    writeFileSync(join(home, '.config', 'bashguard', 'config.json'), JSON.stringify({ enforce: 'off' }));
    try {
      for (const command of ['git stash', 'git fetch origin', 'git checkout -b created']) {
        const h = await hook(command);
        expect(h.decision, `${command}: ${h.reason}`).toBe('allow');
        expect(h.wrapped, command).toBeUndefined();
      }
      // (what the analyzer asks about on its own stays an ask)
      expect((await hook('git tag v2')).decision).toBe('ask');
    } finally {
      rmSync(join(home, '.config'), { recursive: true, force: true });
    }
  });
});
