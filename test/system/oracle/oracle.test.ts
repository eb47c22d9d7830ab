import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { invocations, oracleAvailability, preRunSkipReason, runOracle, type OracleCase, type OracleResult } from '../../tooling/oracle/oracle.js';

const MAIN = '/home/dev/repo';
const WT = '/home/dev/repo/.builders/b1';

/** A cheap fingerprint of a real directory tree (names, types, sizes, mtimes, link targets). */
function fingerprint(root: string): string {
  const h = createHash('sha1');
  const visit = (p: string, depth: number) => {
    let st;
    try {
      st = lstatSync(p, { bigint: true });
    } catch {
      h.update(`${p}:missing\n`);
      return;
    }
    h.update(`${p}:${st.mode}:${st.size}:${st.mtimeNs}:${st.isSymbolicLink() ? readlinkSync(p) : ''}\n`);
    if (st.isDirectory() && depth < 6) for (const n of readdirSync(p).sort()) visit(join(p, n), depth + 1);
  };
  visit(root, 0);
  return h.digest('hex');
}

const cases: OracleCase[] = [
  { id: 'main-readme', cmd: 'echo x > /home/dev/repo/README.md' },
  { id: 'cd-up-leak', cmd: 'cd ../.. && touch leak' },
  { id: 'inside', cmd: 'echo ok > notes.txt' },
  { id: 'scratch', cmd: 'echo t > /tmp/x' },
  { id: 'main-commit', cmd: 'git -C /home/dev/repo commit --allow-empty -m x' },
  { id: 'worktree-commit', cmd: 'git commit --allow-empty -m x' },
  { id: 'symlink', cmd: 'touch link/x', setup: { symlinks: { [`${WT}/link`]: MAIN } } },
  { id: 'missing-program', cmd: 'bashguard-no-such-program --flag' },
  { id: 'network', cmd: 'curl -o /home/dev/repo/x https://example.com/' },
  { id: 'main-status', cmd: 'git -C /home/dev/repo status && git status && git log --oneline -1' },
  { id: 'root-fs', cmd: 'echo hi > /etc/bashguard-oracle-test && rm -f /etc/hostname' },
  { id: 'setup-file', cmd: 'cat data/in.txt > out.txt', setup: { files: { 'data/in.txt': 'hello\n' } } },
  { id: 'timeout', cmd: 'sleep 30', timeoutMs: 500 },
  { id: 'touched', cmd: 'chmod +x /home/dev/repo/src/app.sh && chgrp root /home/dev/other' },
  { id: 'sibling-cwd', cmd: 'touch x ../b1/y', cwd: '/home/dev/repo/.builders/b2' },
  { id: 'pty', cmd: "script -qc 'touch /home/dev/other/pty' /dev/null" },
];

type Avail = Awaited<ReturnType<typeof oracleAvailability>>;
let avail: Avail;
let results: Map<string, OracleResult>;
let realHomeBefore: string;
let realEtcBefore: string;
let wallMs = 0;

// CI runs as root: there the oracle must work, and an unavailable oracle is a failure, not a skip.
const required = !!process.env.CI || (typeof process.getuid === 'function' && process.getuid() === 0);

beforeAll(async () => {
  avail = await oracleAvailability();
  if (!avail.available) return;
  realHomeBefore = fingerprint('/home');
  realEtcBefore = fingerprint('/etc/hostname') + fingerprint('/etc/bashguard-oracle-test') + fingerprint('/tmp/bashguard-oracle');
  const t0 = performance.now();
  const list = await runOracle(cases);
  wallMs = performance.now() - t0;
  results = new Map(list.map((r) => [r.id, r]));
  // Only a hung run fails here: each case stops at the oracle's own 5 s limit, and this bound is
  // every case at that limit, one after another (the machine's load decides the real time).
}, 60_000 + cases.length * 6000);

function get(id: string): OracleResult {
  const r = results.get(id);
  if (!r) throw new Error(`no result for ${id}`);
  return r;
}

describe('execution oracle', () => {
  it('is available (CI runs as root; the oracle must not silently skip there)', () => {
    if (!avail.available && !required) {
      console.warn(`oracle unavailable, its tests are skipped: ${avail.reason}`);
      return;
    }
    expect(avail, avail.available ? '' : `execution oracle unavailable: ${avail.reason}`).toEqual({ available: true });
  });

  const t = (name: string, fn: () => void) =>
    it(name, () => {
      if (!avail.available) {
        if (required) throw new Error(`execution oracle unavailable: ${avail.reason}`);
        return;
      }
      fn();
    });

  t('a write to the main checkout escapes', () => {
    const r = get('main-readme');
    expect(r.ran).toBe(true);
    expect(r.skipped).toBeUndefined();
    expect(r.changedOutside).toEqual([`${MAIN}/README.md`]);
    expect(r.changedInside).toEqual([]);
    expect(r.gitChanges.main).toContain('status + M README.md');
  });

  t('cd ../.. && touch leak creates /home/dev/repo/leak', () => {
    const r = get('cd-up-leak');
    expect(r.changedOutside).toEqual([`${MAIN}/leak`]);
  });

  t('a write in the worktree stays inside', () => {
    const r = get('inside');
    expect(r.exitCode).toBe(0);
    expect(r.changedOutside).toEqual([]);
    expect(r.changedInside).toEqual([`${WT}/notes.txt`]);
    expect(r.gitChanges.main).toEqual([]);
  });

  t('scratch writes are not escapes', () => {
    const r = get('scratch');
    expect(r.changedOutside).toEqual([]);
    expect(r.changedScratch).toEqual(['/tmp/x']);
  });

  t('a commit in the main checkout moves main', () => {
    const r = get('main-commit');
    expect(r.exitCode).toBe(0);
    expect(r.gitChanges.main.some((l) => l.startsWith('commit: '))).toBe(true);
    expect(r.gitChanges.worktree).toEqual([]);
    expect(r.changedOutside).toContain(`${MAIN}/.git/refs/heads/main`);
  });

  t('a commit in the worktree moves only the worktree branch', () => {
    const r = get('worktree-commit');
    expect(r.exitCode).toBe(0);
    expect(r.gitChanges.main).toEqual([]);
    expect(r.gitChanges.worktree.some((l) => l.startsWith('commit: '))).toBe(true);
    expect(r.gitChanges.shared).toEqual([]);
    expect(r.changedOutside).toEqual([]);
    expect(r.changedCommonDir).toContain(`${MAIN}/.git/refs/heads/b1`);
    expect(r.changedCommonDir.some((p) => p.startsWith(`${MAIN}/.git/objects/`))).toBe(true);
  });

  t('writing through a symlink to the main checkout escapes', () => {
    const r = get('symlink');
    expect(r.changedOutside).toEqual([`${MAIN}/x`]);
    expect(r.changedInside).toEqual([]); // the link itself is setup, not a change
  });

  t('a program that is not installed is skipped', () => {
    const r = get('missing-program');
    expect(r.skipped).toMatch(/^program not installed: bashguard-no-such-program/);
  });

  t('network commands are skipped without running', () => {
    const r = get('network');
    expect(r.ran).toBe(false);
    expect(r.skipped).toMatch(/^needs network: curl/);
  });

  t('read-only git commands on main change nothing outside', () => {
    const r = get('main-status');
    expect(r.exitCode).toBe(0);
    expect(r.changedOutside).toEqual([]);
    expect(r.gitChanges.main).toEqual([]);
  });

  t('writes to the root file system are captured by the overlay, not performed', () => {
    const r = get('root-fs');
    expect(r.changedOutside).toEqual(['/etc/bashguard-oracle-test', '/etc/hostname']);
    expect(r.changes.find((c) => c.path === '/etc/hostname')?.kind).toBe('deleted');
  });

  t('setup files exist for the run and do not count as changes', () => {
    const r = get('setup-file');
    expect(r.exitCode).toBe(0);
    expect(r.changedInside).toEqual([`${WT}/out.txt`]);
  });

  t('a command that runs too long times out', () => {
    const r = get('timeout');
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
  });

  t('a write without effect is reported as touched, not as a change', () => {
    const r = get('touched');
    expect(r.exitCode).toBe(0);
    expect(r.changedOutside).toEqual([]);
    expect(r.touchedOutside).toEqual(['/home/dev/other', `${MAIN}/src/app.sh`]);
  });

  t('inside/outside is relative to the linked worktree containing the cwd', () => {
    const r = get('sibling-cwd');
    expect(r.worktree).toBe(`${MAIN}/.builders/b2`);
    expect(r.changedInside).toEqual([`${MAIN}/.builders/b2/x`]);
    expect(r.changedOutside).toEqual([`${WT}/y`]);
  });

  t('programs that need a terminal get a pseudo-terminal', () => {
    const r = get('pty');
    expect(r.changedOutside).toEqual(['/home/dev/other/pty']);
  });

  t('the real file system was not touched', () => {
    expect(fingerprint('/home')).toBe(realHomeBefore);
    expect(fingerprint('/etc/hostname') + fingerprint('/etc/bashguard-oracle-test') + fingerprint('/tmp/bashguard-oracle')).toBe(realEtcBefore);
  });

  t('reports timing', () => {
    const ran = [...results.values()].filter((r) => r.ran && !r.timedOut);
    const avg = ran.reduce((s, r) => s + r.ms, 0) / ran.length;
    console.log(`oracle: ${cases.length} cases in ${Math.round(wallMs)} ms wall (incl. template), ${avg.toFixed(1)} ms per case in the driver`);
    expect(avg).toBeLessThan(1000);
  });
});

describe('oracle skip detection (static)', () => {
  it('finds programs behind wrappers, shells and substitutions', () => {
    const names = (cmd: string) => invocations(cmd).map((i) => i.program);
    expect(names('sudo -u root env A=1 timeout 5 rsync -a x y')).toEqual(['rsync']);
    expect(names(`bash -c 'cd /x && curl -s u | sh'`)).toEqual(['bash', 'cd', 'curl', 'sh']);
    expect(names('echo "$(wget -qO- u)" > f 2>&1')).toEqual(['echo', 'wget']);
    expect(names('find . -name x -exec rm {} \\;')).toEqual(['find', 'rm']);
    expect(names('f() { ls; }; f')).toEqual(['ls', 'f']);
    expect(names('cat <<EOF > x\ncurl in heredoc\nEOF\nls')).toEqual(['cat', 'ls']);
    expect(names('for f in a b; do echo $f; done')).toEqual(['echo']);
  });

  it('flags network and interactive programs', () => {
    expect(preRunSkipReason('curl https://x')).toMatch(/needs network/);
    expect(preRunSkipReason('curl -s -o x file:///home/dev/repo/README.md')).toBeNull();
    expect(preRunSkipReason('curl -o x file:///a https://x')).toMatch(/needs network/);
    expect(preRunSkipReason('curl -K cfg file:///a')).toMatch(/needs network/);
    expect(preRunSkipReason('tmux new-session -d make')).toBeNull();
    expect(preRunSkipReason('tmux attach')).toMatch(/interactive program: tmux/);
    expect(preRunSkipReason('git clone https://github.com/a/b ../../x')).toMatch(/needs network: git clone/);
    expect(preRunSkipReason('git clone /home/dev/repo /home/dev/other/c')).toBeNull();
    expect(preRunSkipReason('git push')).toMatch(/needs network/);
    expect(preRunSkipReason('git push . HEAD:main')).toBeNull();
    expect(preRunSkipReason('npm install')).toMatch(/needs network/);
    expect(preRunSkipReason('vim README.md')).toMatch(/interactive/);
    expect(preRunSkipReason('git rebase -i HEAD~2')).toMatch(/interactive/);
    expect(preRunSkipReason('echo "use curl to fetch"')).toBeNull();
    expect(preRunSkipReason('rsync -a src/ /home/dev/other/')).toBeNull();
    expect(preRunSkipReason('rsync -a src/ host:/x')).toMatch(/needs network/);
    expect(preRunSkipReason(':(){ :|:& };:')).toBe('fork bomb');
  });
});
