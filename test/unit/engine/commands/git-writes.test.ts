/**
 * What a git call writes, as meaning (src/engine/commands/git-writes.ts): the policy decides from
 * these alone, so each piece of state a call writes must be there, and nothing for one that
 * only reads. Analyzed in the standard scenario's worktree (no git process, no machine facts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeWith } from '../../../../src/engine/analyze.js';
import { getParser, type BashParser } from '../../../../src/engine/parse/index.js';
import { HOLE, type GitEffect, type GitWrite } from '../../../../src/engine/effects/types.js';
import { memoryFs, standardEnv, WORKTREE } from '../../../../src/policy/scenario/standard.js';

let parser: BashParser;
beforeAll(async () => {
  parser = await getParser();
});

function writes(cmd: string): GitWrite[] {
  const { effects } = analyzeWith(parser, cmd, { cwd: WORKTREE, env: standardEnv(WORKTREE), host: memoryFs(), gitToplevel: () => null, deterministic: true });
  const git = effects.filter((e): e is GitEffect => e.kind === 'git');
  expect(git, cmd).toHaveLength(1);
  return git[0]!.writes;
}
const states = (cmd: string) => writes(cmd).map((w) => w.state).sort();

describe('git effects say what a call writes', () => {
  it('reads write nothing', () => {
    for (const cmd of ['git status', 'git log --oneline', 'git branch --list', 'git tag -l', 'git stash list', 'git config --get user.name', 'git clean -n -d', 'git add -n .']) expect(writes(cmd), cmd).toEqual([]);
  });

  it('checkout changes name the parts of the checkout', () => {
    expect(writes('git add .')).toContainEqual({ state: 'checkout', parts: ['index'] });
    expect(writes('git commit -m x')).toContainEqual({ state: 'checkout', parts: ['index', 'head'] });
    expect(writes('git reset --hard')).toContainEqual({ state: 'checkout', parts: ['files', 'index', 'head'] });
    expect(states('git commit -m x')).toContain('objects');
    expect(states('git reset --hard')).not.toContain('objects');
    expect(states('git hash-object -w f')).toEqual(['objects']);
    expect(states('git hash-object f')).toEqual([]);
  });

  it('files dropped by their git state come with the states and pathspecs', () => {
    const drop = (cmd: string) => writes(cmd).find((w) => w.state === 'drops');
    expect(drop('git clean -fdx build/')).toEqual({ state: 'drops', states: expect.arrayContaining(['untracked', 'ignored']), pathspecs: ['build/'], verb: 'deletes' });
    expect(drop('git clean -fdX')).toMatchObject({ states: ['ignored'], pathspecs: null });
    expect(drop('git stash -u')).toMatchObject({ states: expect.arrayContaining(['modified', 'untracked']) });
    expect(drop('git reset --soft HEAD~1')).toBeUndefined();
    expect(drop('git rm --cached x')).toBeUndefined();
  });

  it('branches: named, unknown, or switched to', () => {
    expect(writes('git branch -f feature HEAD').filter((w) => w.state === 'branch')).toEqual([{ state: 'branch', name: 'feature', switches: false }]);
    expect(writes('git update-ref refs/heads/main HEAD').filter((w) => w.state === 'branch')).toEqual([{ state: 'branch', name: 'main', switches: false }]);
    expect(writes('git checkout -B topic').filter((w) => w.state === 'branch')).toEqual([{ state: 'branch', name: 'topic', switches: true }]);
    expect(writes('git rebase --update-refs main').filter((w) => w.state === 'branch')).toEqual([{ state: 'branch', name: HOLE, switches: false, confidence: 'possible' }]);
    expect(writes('git checkout -b "$x"').filter((w) => w.state === 'branch')).toEqual([{ state: 'branch', name: HOLE, switches: true, creates: true }]);
    expect(writes('git switch --create=topic').filter((w) => w.state === 'branch')).toEqual([{ state: 'branch', name: 'topic', switches: true, creates: true }]);
    expect(writes('git worktree add -b topic /tmp/w').filter((w) => w.state === 'branch')).toEqual([{ state: 'branch', name: 'topic', switches: true, creates: true }]);
    // Only named branches: no other shared refs.
    expect(states('git branch -D old')).not.toContain('refs');
  });

  it('shared refs name their namespace', () => {
    const refs = (cmd: string) => writes(cmd).find((w) => w.state === 'refs');
    expect(refs('git tag v1')).toMatchObject({ spaces: ['tags'], what: 'tags' });
    expect(refs('git update-ref refs/tags/v1 HEAD')).toMatchObject({ spaces: ['tags'] });
    expect(refs('git update-ref refs/notes/x HEAD')).toMatchObject({ spaces: ['notes'] });
    expect(refs('git replace a b')).toMatchObject({ spaces: ['replace'] });
    expect(refs('git pack-refs --all')).toMatchObject({ spaces: ['packed-refs'] });
    expect(refs('git reflog expire --all')).toMatchObject({ spaces: ['reflogs'] });
    expect(refs('git fetch . main:feature')).toMatchObject({ what: 'branches fetched into' });
    expect(refs('git update-ref --stdin')).toMatchObject({ spaces: ['other'] });
    // Housekeeping that may find nothing to do, or runs no task that packs refs, may write no ref.
    for (const cmd of ['git gc', 'git maintenance run', 'git maintenance run --task gc', 'git maintenance run --task=pack-refs']) expect(refs(cmd)?.confidence, cmd).toBeUndefined();
    for (const cmd of ['git gc --auto', 'git maintenance run --auto', 'git maintenance run --task=commit-graph', 'git maintenance register', 'git maintenance start']) expect(refs(cmd), cmd).toMatchObject({ spaces: ['packed-refs', 'reflogs'], confidence: 'possible' });
    // The stash is one ref every checkout shares: dropping entries touches no checkout.
    expect(writes('git stash clear')).toEqual([{ state: 'refs', spaces: ['stash'], what: 'the stash' }]);
    expect(states('git stash drop')).toEqual(['refs']);
    expect(states('git stash')).toEqual(['bookkeeping', 'checkout', 'drops', 'objects']);
  });

  it('bookkeeping: the stash entry of stash push/pop, the remote-tracking refs of fetch/pull from a named remote', () => {
    const kept = (cmd: string) => writes(cmd).find((w) => w.state === 'bookkeeping');
    for (const cmd of ['git stash', 'git stash push -m x -- a.txt', 'git stash save wip', 'git stash pop', 'git stash store abc', 'git stash branch b']) expect(kept(cmd), cmd).toMatchObject({ spaces: ['stash'] });
    for (const cmd of ['git stash apply', 'git stash list', 'git stash show -p', 'git stash create', 'git stash drop']) expect(kept(cmd), cmd).toBeUndefined();
    expect(kept('git fetch origin main')).toMatchObject({ spaces: ['remotes'], what: expect.stringContaining('refs/remotes/origin/') });
    expect(kept('git fetch --depth 1 origin')).toMatchObject({ spaces: ['remotes'], what: expect.stringContaining('refs/remotes/origin/') });
    expect(kept('git pull --rebase -X theirs origin main')).toMatchObject({ spaces: ['remotes'], what: expect.stringContaining('refs/remotes/origin/') });
    expect(kept('git pull -S origin main')).toMatchObject({ spaces: ['remotes'], what: expect.stringContaining('refs/remotes/origin/') });
    expect(kept('git pull --gpg-sign=KEY origin main')).toMatchObject({ spaces: ['remotes'], what: expect.stringContaining('refs/remotes/origin/') });
    expect(kept('git fetch --all')).toMatchObject({ spaces: ['remotes'], what: expect.stringContaining('refs/remotes/*/') });
    expect(kept('git fetch --multiple ../other origin')).toMatchObject({ spaces: ['remotes'], what: expect.stringContaining('refs/remotes/origin/') });
    // FETCH_HEAD only (an empty refmap, a URL or a path as the remote), nothing (a dry run), a
    // remote not known statically, or none named (the upstream may be `.`, this repository).
    for (const cmd of ['git fetch', 'git pull', 'git pull --rebase', 'git pull -S https://example.com/x.git main', 'git pull --gpg-sign https://example.com/x.git main', 'git fetch --multiple ../a ../b', 'git fetch --refmap= origin main', "git fetch --refmap '' origin main", 'git fetch https://example.com/r.git main', 'git fetch ../other main', 'git fetch . main:x', 'git fetch --dry-run origin', 'git fetch "$R"', 'git pull git@host:r.git main']) expect(kept(cmd), cmd).toBeUndefined();
  });

  it('config, hooks, worktrees, the git dir and unknown commands', () => {
    expect(states('git config user.name x')).toEqual(['config']);
    expect(states('git config core.hooksPath h')).toEqual(['hooks']);
    expect(states('git config --worktree user.name x')).toContain('checkout');
    expect(states('git worktree add ../w')).toEqual(['worktrees']);
    expect(states('git init --separate-git-dir ../g')).toEqual(['gitdir']);
    expect(states('git frobnicate')).toEqual(['unknown']);
  });
});
