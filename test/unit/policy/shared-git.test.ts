/**
 * The shared git state a call certainly writes from a linked worktree, as files of the common dir
 * (src/policy/shared-git.ts): what the hook checks against the enforcement's plan to deny early.
 * From the git effect's meaning, in the standard scenario (this worktree b1 on branch b1, main
 * in the main checkout, b2 in a sibling); analyzer-only decisions are not changed by it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getParser, type BashParser } from '../../../src/engine/parse/index.js';
import { DEFAULT_CONFIG } from '../../../src/policy/config.js';
import { COMMON, MAIN, memoryFs, standardWorkspace, WORKTREE } from '../../../src/policy/scenario/standard.js';
import { heldSharedGit } from '../../../src/frontends/held-asks.js';

let parser: BashParser;
beforeAll(async () => {
  parser = await getParser();
});

function check(cmd: string, cwd = WORKTREE, files: Record<string, string> = {}) {
  return standardWorkspace(memoryFs({}, files), cwd, DEFAULT_CONFIG).check(parser, cmd).verdict;
}
const paths = (cmd: string, cwd = WORKTREE, files: Record<string, string> = {}) => (check(cmd, cwd, files).sharedGit ?? []).flatMap((w) => w.paths);

describe('shared git state a call certainly writes', () => {
  it('names the files of the common dir git must write', () => {
    expect(paths('git stash')).toEqual([`${COMMON}/refs/stash`, `${COMMON}/logs/refs/stash`]);
    expect(paths('git stash pop')).toEqual([`${COMMON}/refs/stash`, `${COMMON}/logs/refs/stash`]);
    expect(paths('git stash drop')).toEqual([`${COMMON}/refs/stash`, `${COMMON}/logs/refs/stash`]);
    expect(paths('git fetch origin')).toEqual([`${COMMON}/refs/remotes`]);
    expect(paths('git pull origin main')).toEqual([`${COMMON}/refs/remotes`]);
    expect(paths('git tag v1')).toEqual([`${COMMON}/refs/tags`]);
    expect(paths('git notes add -m x')).toEqual([`${COMMON}/refs/notes`]);
    expect(paths('git branch feature')).toEqual([`${COMMON}/refs/heads/feature`, `${COMMON}/logs/refs/heads/feature`]);
    expect(paths('git checkout -b topic')).toEqual([`${COMMON}/refs/heads/topic`, `${COMMON}/logs/refs/heads/topic`]);
    expect(paths('git bisect start')).toEqual([`${COMMON}/packed-refs`]);
    expect(paths('git gc')).toEqual([`${COMMON}/packed-refs`]);
    expect(paths('git maintenance run')).toEqual([`${COMMON}/packed-refs`]);
    expect(check('git checkout -b topic').sharedGit?.[0]?.instead).toMatch(/commit on this worktree's own branch/);
    expect(check('git stash').sharedGit?.[0]?.instead).toMatch(/git stash create/);
    expect(check('git fetch origin').sharedGit?.[0]?.instead).toMatch(/--refmap= /);
  });

  it("nothing for what stays this worktree's own, or is not certain", () => {
    for (const cmd of ['git commit -m x', 'git stash create', 'git stash apply', 'git stash list', 'git fetch --refmap= origin main', 'git fetch https://example.com/r.git', 'git fetch', 'git pull', 'git pull -S https://example.com/x.git main', 'git checkout -B b1', 'git branch -f b1 HEAD', 'git bisect good', 'git push origin HEAD', 'git status', 'git gc --auto', 'git maintenance run --auto']) {
      expect(paths(cmd), cmd).toEqual([]);
    }
    // Not certainly this repository: a branch not known statically, a repository cloned inside the worktree, another git dir, find -execdir.
    expect(paths('git checkout -b "$X"')).toEqual([]);
    expect(paths('cd vendor && git fetch origin', WORKTREE, { [`${WORKTREE}/vendor/.git/HEAD`]: 'ref: refs/heads/main\n' })).toEqual([]);
    expect(paths('cd sub && git fetch origin')).toEqual([`${COMMON}/refs/remotes`]);
    expect(paths(`git --git-dir=${WORKTREE}/x/.git fetch origin`)).toEqual([]);
    expect(paths("find . -name .git -execdir git pull ';'")).toEqual([]);
    // From the main checkout (not a linked worktree: the enforcement holds no ref there).
    expect(paths('git stash', MAIN)).toEqual([]);
  });

  it("the early deny's reason holds when git has nothing to write, whatever the OS says", () => {
    const shared = [...(check('git stash').sharedGit ?? []), ...(check('git fetch origin').sharedGit ?? [])];
    const held = heldSharedGit(shared, (p) => p.startsWith(`${COMMON}/refs/`));
    expect(held?.decision).toBe('deny');
    // (a stash with no local changes, a fetch already up to date: git writes nothing and exits 0)
    expect(held?.reason).toMatch(/`git stash` writes the stash .*keeps \S+\/refs\/stash read-only for this worktree, so git fails there as soon as it has anything to write\. Instead:/);
    expect(held?.reason).toMatch(/`git fetch origin` writes the remote-tracking refs .*as soon as it has anything to write/);
    // (one OS's error, "Read-only file system" or macOS's "Operation not permitted", is not the other's)
    expect(held?.reason).not.toMatch(/Read-only file system|Operation not permitted|would fail/);
    expect(heldSharedGit(shared, () => false)).toBeNull();
  });

  it('changes no decision of the analyzer alone', () => {
    expect(check('git stash').decision).toBe('allow');
    expect(check('git fetch origin').decision).toBe('allow');
    expect(check('git checkout -b topic').decision).toBe('allow');
    expect(check('git tag v1').decision).toBe('ask');
  });

  it('a raw write of a ref other than the own branch is BG1004 from a linked worktree', () => {
    const rules = (cmd: string) => check(cmd).findings.map((f) => f.rule);
    expect(rules(`echo x > ${COMMON}/refs/heads/new`)).toContain('BG1004');
    expect(rules(`echo x > ${COMMON}/refs/tags/t`)).toContain('BG1004');
    expect(rules(`echo x >> ${COMMON}/logs/refs/heads/b2`)).toContain('BG1004');
    expect(rules(`echo x > ${COMMON}/packed-refs`)).toContain('BG1004');
    expect(check(`echo x > ${COMMON}/refs/heads/b1`).decision).toBe('allow');
    expect(check(`echo x >> ${COMMON}/logs/refs/heads/b1`).decision).toBe('allow');
    expect(check(`echo x > ${COMMON}/objects/ab/cd`).decision).toBe('allow');
  });
});
