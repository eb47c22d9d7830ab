/**
 * The Seatbelt enforcement (src/layers/sandbox/seatbelt.ts). No machine of this project runs
 * sandbox-exec, so:
 * - the profile's meaning is checked by reading it (test/helpers/sbpl.ts, which refuses any form
 *   outside the subset it knows) against the plan it came from, for random plans and hostile names;
 * - the probe that decides, on a Mac, whether the profile holds is run with runners that do not
 *   confine (it must refuse), that fail (it must refuse and say why), and that confine by running
 *   the profile's rules under bubblewrap (it must accept);
 * - the wrapper is run as the client runs a Bash call, with a stand-in for sandbox-exec that checks
 *   it received the profile byte for byte and applies its rules under bubblewrap: writes to the
 *   main checkout and the sibling fail, the worktree's work, the exit status and a `cd` hold.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSeatbelt, seatbeltCall, seatbeltEnforcementProfile, type SeatbeltRunner } from '../../../src/layers/sandbox/seatbelt.js';
import { clientShell, enforceCall, enforcementPlan, enforcementWrapper } from '../../../src/layers/sandbox/enforce.js';
import { effectiveAccess, type Grant, type SandboxPlan } from '../../../src/layers/sandbox/index.js';
import { openWorkspace } from '../../../src/policy/workspace/index.js';
import { parseConfigLayer } from '../../../src/policy/config.js';
import { denied, readProfile, type Rule } from '../../helpers/sbpl.js';
import { bwrapHere } from '../../helpers/bwrap.js';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { cleanEnv } from '../../helpers/layers.js';

const BW = bwrapHere('the Seatbelt tests that stand bubblewrap in for sandbox-exec');

/**
 * bubblewrap arguments that apply a profile's file-write rules: the catch-all deny and each allowed
 * subpath as the tree bound read-only or read-write, each read-only subpath a read-only bind with
 * read-write holes, each denied literal (a pin) a mount point. Device allows are bwrap's /dev.
 */
function bwrapFor(profile: Rule[]): string[] {
  const mounts: { path: string; access: 'ro' | 'rw' }[] = [];
  for (const { effect, filter: f } of profile) {
    if (f === null) mounts.push({ path: '/', access: 'ro' });
    else if (effect === 'allow') {
      if (f.kind === 'subpath') mounts.push({ path: f.path, access: 'rw' });
      else if (!(f.kind === 'literal' ? f.path.startsWith('/dev/') : f.kind === 'regex' && f.source.startsWith('^/dev/'))) throw new Error(`not translatable: ${JSON.stringify(f)}`);
    } else if (f.kind === 'subpath') mounts.push({ path: f.path, access: 'ro' });
    else if (f.kind === 'literal') mounts.push({ path: f.path, access: 'rw' });
    else if (f.kind === 'all') {
      for (const x of f.of) {
        if (x.kind === 'subpath') mounts.push({ path: x.path, access: 'ro' });
        else if (x.kind === 'not' && x.of.kind === 'subpath') mounts.push({ path: x.of.path, access: 'rw' });
        else throw new Error(`not translatable: ${JSON.stringify(x)}`);
      }
    } else throw new Error(`not translatable: ${JSON.stringify(f)}`);
  }
  mounts.sort((a, b) => a.path.length - b.path.length || (a.access === b.access ? 0 : a.access === 'rw' ? 1 : -1));
  // The tree itself is bound by the base arguments: read-only where the profile's last word on `/` is a deny.
  const base = mounts.filter((m) => m.path === '/');
  const rootRw = base.length > 0 && base[base.length - 1]!.access === 'rw';
  const root = process.getuid?.() === 0;
  const tree = rootRw ? (root ? ['--bind', '/', '/', '--dev', '/dev'] : ['--dev-bind', '/', '/']) : ['--ro-bind', '/', '/', '--dev', '/dev'];
  const args = ['--unshare-user', '--unshare-pid', ...(root ? ['--cap-drop', 'ALL'] : []), ...tree, '--proc', '/proc'];
  for (const m of mounts) if (m.path !== '/' && existsSync(m.path)) args.push(m.access === 'ro' ? '--ro-bind' : '--bind', m.path, m.path);
  return args;
}

const bwrapRunner: SeatbeltRunner = (profile, script) => {
  const r = spawnSync(BW.bwrap!, [...bwrapFor(readProfile(profile)), '--', '/bin/sh', '-c', script], { encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
};

describe('the enforcement profile', () => {
  const names = fc.constantFrom('a', 'b', 'c');
  const pathArb = fc.array(names, { minLength: 1, maxLength: 4 }).map((xs) => '/' + xs.join('/'));

  it('denies writing exactly where the most specific grant is read-only, and each directory grant itself (random plans)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.record({ path: pathArb, access: fc.constantFrom<'ro' | 'rw'>('ro', 'rw') }), { selector: (g) => g.path, maxLength: 8 }), fc.array(pathArb, { maxLength: 3 }), fc.array(pathArb, { minLength: 1, maxLength: 10 }), (gs, unreserved, probes) => {
        const grants: Grant[] = [{ path: '/', access: 'rw' as const, why: 'base' }, ...gs.map((g) => ({ ...g, why: 'g' }))].sort((a, b) => a.path.length - b.path.length);
        const plan: SandboxPlan = { worktree: '/a', grants, unreserved: unreserved.filter((u) => !grants.some((g) => g.path === u)) };
        const profile = readProfile(seatbeltEnforcementProfile(plan, () => true));
        const all = [...grants, ...plan.unreserved.map((path) => ({ path, access: 'ro' as const, why: 'u' }))];
        for (const p of probes) {
          const want = effectiveAccess(p, all) === 'ro' || grants.some((g) => g.access === 'rw' && g.path === p && p !== '/');
          expect(denied(profile, p), `${p} in ${JSON.stringify(all)}`).toBe(want);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every path byte for byte, whatever characters its names hold', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom('a', '"', '\\', ' ', ')', '(', ';', '\n', 'é', '#'), minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3 }), (parts) => {
        const p = '/' + parts.map((x) => x.replace(/\//g, '')).join('/');
        const plan: SandboxPlan = { worktree: '/w', unreserved: [], grants: [{ path: '/', access: 'rw', why: 'b' }, { path: p, access: 'ro', why: 'x' }] };
        const profile = readProfile(seatbeltEnforcementProfile(plan, () => false));
        expect(profile.filter((r) => r.effect === 'deny' && r.filter !== null).map((r) => r.filter)).toEqual([{ kind: 'subpath', path: p }]);
      }),
    );
  });

  it('leaves a read-write file grant writable by rename (git replaces packed-refs so) but pins directories', () => {
    const plan: SandboxPlan = {
      worktree: '/r/w',
      unreserved: [],
      grants: [
        { path: '/', access: 'rw', why: 'b' },
        { path: '/r', access: 'ro', why: 'main' },
        { path: '/r/.git/packed-refs', access: 'rw', why: 'file' },
        { path: '/r/w', access: 'rw', why: 'worktree' },
      ],
    };
    const profile = readProfile(seatbeltEnforcementProfile(plan, (p) => p !== '/r/.git/packed-refs'));
    expect(denied(profile, '/r/.git/packed-refs')).toBe(false);
    expect(denied(profile, '/r/w')).toBe(true);
    expect(denied(profile, '/r/w/x')).toBe(false);
    expect(denied(profile, '/r/README.md')).toBe(true);
  });
});

describe('the probe that decides whether Seatbelt holds here', () => {
  it('refuses a sandbox-exec that does not confine, saying what it saw', () => {
    const open: SeatbeltRunner = (_profile, script) => {
      const r = spawnSync('/bin/sh', ['-c', script], { encoding: 'utf8' });
      return { status: r.status, stderr: r.stderr };
    };
    const p = probeSeatbelt(open);
    expect(p.ok).toBe(false);
    expect(p.why).toMatch(/a read-only file was written/);
    expect(p.why).toMatch(/renamed/);
  });

  it('refuses, with its message, a sandbox-exec that cannot run the profile', () => {
    const p = probeSeatbelt(() => ({ status: 65, stderr: 'sandbox-exec: syntax error in profile\nmore' }));
    expect(p).toEqual({ ok: false, why: 'sandbox-exec cannot run the enforcement profile here (exit 65): sandbox-exec: syntax error in profile' });
  });

  it.skipIf(!BW.canRun)('accepts a mechanism that applies the profile, and leaves no scratch behind', () => {
    const parent = mkdtempSync(join(tmpdir(), 'bashguard-sbprobe-'));
    try {
      const p = probeSeatbelt(bwrapRunner, parent);
      expect(p).toEqual({ ok: true, why: 'sandbox-exec holds the profile', links: 'held' });
      expect(spawnSync('ls', ['-A', parent], { encoding: 'utf8' }).stdout).toBe('');
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!BW.canRun)('the Seatbelt wrapper, run as the client runs a Bash call (bubblewrap standing in for sandbox-exec)', () => {
  let L: GitLayout;
  let home: string;
  let standIn: string;
  let env: NodeJS.ProcessEnv;
  let wrap: (command: string) => string;
  beforeAll(() => {
    L = makeGitLayout('bashguard-seatbelt-');
    home = join(L.root, 'home');
    spawnSync('mkdir', ['-p', join(home, '.claude')]);
    writeFileSync(join(home, '.claude', 'settings.json'), '{}\n');
    env = cleanEnv({ HOME: home, TMPDIR: tmpdir() });
    const ws = openWorkspace(L.worktree, { env });
    const shell = clientShell(env);
    const plan = enforcementPlan(ws, '/usr/bin/sandbox-exec', shell);
    const profile = seatbeltEnforcementProfile(plan);
    // The stand-in: refuses unless its arguments are `-p <this very profile> <shell> -c <script>`.
    const expected = join(L.root, 'expected-profile');
    writeFileSync(expected, profile);
    standIn = join(L.root, 'sandbox-exec');
    writeFileSync(
      standIn,
      `#!/bin/bash\n{ [ "$1" = -p ] && printf '%s' "$2" | cmp -s - ${expected}; } || { echo "stand-in: wrong profile" >&2; exit 99; }\nshift 2\nexec ${BW.bwrap} ${bwrapFor(readProfile(profile))
        .map((a) => `'${a}'`)
        .join(' ')} -- "$@"\n`,
    );
    chmodSync(standIn, 0o755);
    wrap = (command) => {
      const e = seatbeltCall(command, { ok: true, why: 'test' }, standIn, {
        plan: () => plan,
        wrap: (c, argv) => enforcementWrapper(c, { bwrap: argv[0]!, args: argv.slice(1), shell, cwdFile: join(mkdtempSync(join(tmpdir(), 'bashguard-sbcwd-')), 'cwd'), dashDash: false }),
      });
      if (e.kind !== 'seatbelt') throw new Error(e.reason);
      return e.command;
    };
  });
  afterAll(() => L?.cleanup());

  function asClient(command: string) {
    const out = join(mkdtempSync(join(tmpdir(), 'bashguard-sbout-')), 'cwd');
    const r = spawnSync('/bin/bash', ['-c', 'eval "$BG_W"; __s=$?; pwd -P >| "$BG_OUT"; exit $__s'], { cwd: L.worktree, env: { ...env, BG_W: wrap(command), BG_OUT: out }, encoding: 'utf8' });
    return { code: r.status, stderr: r.stderr, cwd: readFileSync(out, 'utf8').trim() };
  }

  it('passes the profile on the command line byte for byte, with no `--`', () => {
    expect(wrap('true')).toContain(`${standIn} -p '(version 1)`);
    expect(asClient('true').code).toBe(0);
  });

  it('keeps the main checkout, the sibling and the user settings read-only, and the worktree writable, with exit status and cd', () => {
    const before = [join(L.main, 'README.md'), join(L.sibling, 'README.md'), join(home, '.claude', 'settings.json')].map((f) => readFileSync(f, 'utf8'));
    for (const c of ['echo x >> ../../README.md', `echo x >> ${L.sibling}/README.md`, `echo x > ${home}/.claude/settings.json`, `touch ${L.main}/new-file`]) expect(asClient(c).code, c).not.toBe(0);
    expect([join(L.main, 'README.md'), join(L.sibling, 'README.md'), join(home, '.claude', 'settings.json')].map((f) => readFileSync(f, 'utf8'))).toEqual(before);
    expect(existsSync(join(L.main, 'new-file'))).toBe(false);
    const ok = asClient('mkdir -p sub && cd sub && echo ok > f');
    expect(ok.code).toBe(0);
    expect(ok.cwd).toBe(join(L.worktree, 'sub'));
    expect(asClient('echo out; (exit 3)').code).toBe(3);
    expect(readFileSync(join(L.worktree, 'sub', 'f'), 'utf8')).toBe('ok\n');
  });
});

describe('where sandbox-exec cannot be used', () => {
  it.skipIf(process.platform === 'darwin')('"enforce": "seatbelt" says it needs macOS, and the config accepts the mode', () => {
    const L = makeGitLayout('bashguard-seatbelt-none-');
    try {
      const env = cleanEnv({ HOME: join(L.root, 'home') });
      const e = enforceCall(openWorkspace(L.worktree, { env }), 'true', 'seatbelt', env);
      expect(e).toEqual({ kind: 'none', reason: `sandbox-exec needs macOS (this is ${process.platform})` });
      expect(parseConfigLayer('{"enforce": "seatbelt"}', '/x/config.json', '/x').enforce).toBe('seatbelt');
    } finally {
      L.cleanup();
    }
  });
});
