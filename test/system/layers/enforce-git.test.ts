/**
 * Shared git state held by the mounts (issue 51 item 2, src/layers/sandbox/git-refs.ts): from a
 * linked worktree, under each way the mounts are made, every git route to a shared ref or shared
 * state fails (porcelain, `update-ref`, raw writes under the common dir), while this worktree's
 * own commits move its own branch. Skips, saying why, where bubblewrap cannot start.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { openWorkspace } from '../../../src/policy/workspace/index.js';
import { enforceCall } from '../../../src/layers/sandbox/enforce.js';
import { landlockBuiltin, landlockHelper } from '../../../src/layers/sandbox/probes.js';
import { clientHome, git } from '../../helpers/layers.js';
import { bwrapHere } from '../../helpers/bwrap.js';

function runAsClient(wrapper: string, cwd: string, env: NodeJS.ProcessEnv) {
  const out = join(mkdtempSync(join(tmpdir(), 'bashguard-cwdout-')), 'cwd');
  const script = 'eval "$BG_W"; __s=$?; builtin pwd -P >| "$BG_OUT"; exit $__s';
  const r = spawnSync('/bin/bash', ['-c', script, 'bash'], { cwd, env: { ...env, BG_W: wrapper, BG_OUT: out }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
  rmSync(join(out, '..'), { recursive: true, force: true });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const { canRun } = bwrapHere('the enforcement runs under bubblewrap');
const helper = landlockHelper();
const inShellHere = helper !== null && landlockBuiltin(helper) !== null;

describe.skipIf(!canRun).each([
  { path: "in the client's shell", mode: 'auto' as const, by: 'shell', here: inShellHere },
  { path: 'by the helper', mode: 'auto' as const, by: 'helper', here: helper !== null },
  { path: 'bwrap', mode: 'bwrap' as const, by: undefined, here: true },
])('shared git state under the mounts, $path', ({ mode, by, here }) => {
  let L: GitLayout;
  let home: string;
  let env: NodeJS.ProcessEnv;
  let common: string;
  /** Every ref of the repository and the shared files, as git and the disk show them. */
  const shared = () => ({
    refs: git(L.main, ['for-each-ref', '--format=%(refname) %(objectname)']).split('\n').filter((r) => !r.startsWith('refs/heads/b1 ')),
    files: ['HEAD', 'index', 'config', 'packed-refs', 'logs/HEAD', 'logs/refs/heads/b2', 'hooks/post-commit'].map((f) => [f, existsSync(join(common, f)) ? readFileSync(join(common, f), 'latin1') : null]),
  });
  const run = (command: string) => {
    const e = enforceCall(openWorkspace(L.worktree, { env }), command, mode, env);
    if (e.kind !== 'bwrap') throw new Error(`not enforced by the mounts: ${JSON.stringify(e)}`);
    if (mode === 'auto') expect(e.by, 'who makes the mounts').toBe(by);
    return runAsClient(e.command, L.worktree, env);
  };

  beforeAll(() => {
    L = makeGitLayout('bashguard-gitrefs-');
    common = join(L.main, '.git');
    ({ home, env } = clientHome(L.root));
    if (by === 'helper') env.CLAUDE_CODE_TMPDIR = join(home, '.claude');
    // Shared state of every kind: a tag, a remote-tracking ref, a note, a packed ref, a nested branch.
    git(L.main, ['tag', 'v1']);
    git(L.main, ['update-ref', 'refs/remotes/origin/main', 'HEAD']);
    git(L.main, ['notes', 'add', '-m', 'n', 'HEAD']);
    git(L.main, ['branch', 'feat/x']);
    git(L.main, ['branch', 'packed']);
    git(L.main, ['pack-refs', '--all']);
    git(L.main, ['branch', 'loose']);
    // (the main checkout's branch loose again, as after its next commit: a packed branch has no
    // file to bind, and a raw write of a new loose file shadows it: docs/limits.md)
    writeFileSync(join(common, 'refs', 'heads', git(L.main, ['rev-parse', '--abbrev-ref', 'HEAD'])), `${git(L.main, ['rev-parse', 'HEAD'])}\n`);
  });
  afterAll(() => L?.cleanup());

  it.runIf(here)("every route to a shared ref or shared git state fails; the worktree's own commits move its own branch", () => {
    const before = shared();
    const main = git(L.main, ['rev-parse', '--abbrev-ref', 'HEAD']);
    writeFileSync(join(L.worktree, 'work.txt'), 'w\n');
    const commit = run('git add work.txt && git commit -qm own && git rev-parse HEAD');
    expect(commit, commit.stderr).toMatchObject({ code: 0 });
    const head = commit.stdout.trim();
    expect(git(L.main, ['rev-parse', 'refs/heads/b1'])).toBe(head);
    const attempts = [
      // porcelain and plumbing
      `git branch -f ${main} HEAD`,
      'git branch -f b2 HEAD',
      'git branch -f loose HEAD',
      'git branch -f feat/x HEAD',
      'git branch -f packed HEAD',
      'git tag -f v1 HEAD',
      'git tag v2',
      'git update-ref refs/remotes/origin/main HEAD',
      'git update-ref refs/heads/b2 HEAD',
      'git update-ref -d refs/heads/loose',
      'git notes add -f -m changed HEAD~1',
      'git replace HEAD~1 HEAD',
      'echo change >> README.md && git stash',
      'git config user.name changed',
      'git pack-refs --all',
      // raw writes under the common dir
      `echo ${head} > ${common}/refs/heads/${main}`,
      `echo ${head} > ${common}/refs/heads/feat/x`,
      `echo ${head} > ${common}/refs/tags/v3`,
      `echo ${head} > ${common}/refs/stash`,
      `python3 -c "open('${common}/packed-refs','a').write('${head} refs/heads/raw\\n')"`,
      `echo x >> ${common}/logs/HEAD`,
      `echo x >> ${common}/logs/refs/heads/b2`,
      `echo 'ref: refs/heads/b2' > ${common}/HEAD`,
      `cp ${common}/worktrees/b1/index ${common}/index`,
      `printf '#!/bin/sh\\ntouch ${L.main}/ESC\\n' > ${common}/hooks/post-commit`,
      `mv ${common}/refs/heads/loose ${common}/refs/heads/loose2`,
      `rm -f ${common}/refs/heads/loose`,
    ];
    for (const c of attempts) {
      const r = run(c);
      expect(r.code, `${c}: ${r.stdout}${r.stderr}`).not.toBe(0);
    }
    expect(shared()).toEqual(before);
    expect(existsSync(join(L.main, 'ESC'))).toBe(false);
    // The own branch still moves, by porcelain and by plumbing.
    run('git checkout -q -- README.md');
    expect(run('git commit -q --allow-empty -m again && git update-ref refs/heads/b1 HEAD~1').code).toBe(0);
    expect(git(L.main, ['rev-parse', 'refs/heads/b1'])).toBe(head);
  });
});
