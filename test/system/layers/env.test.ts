/**
 * `bashguard env` for real: with the environment it prints, git run from the main checkout's
 * directory acts on the worktree and commits land on the worktree's branch; the hook's analysis
 * under the same environment judges `cd <main> && git commit` as acting on the worktree.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { openWorkspace } from '../../../src/policy/workspace/index.js';
import { gitEnv, formatGitEnv } from '../../../src/layers/env/index.js';
import { getParser, type BashParser } from '../../../src/engine/parse/index.js';
import { cleanEnv, cli, git, gitStatus } from '../../helpers/layers.js';

let L: GitLayout;
let parser: BashParser;
beforeAll(async () => {
  L = makeGitLayout('bashguard-env-');
  parser = await getParser();
});
afterAll(() => L?.cleanup());

describe('bashguard env', () => {
  it('points GIT_DIR at the linked worktree\'s admin dir, GIT_WORK_TREE at the worktree', () => {
    const env = gitEnv(openWorkspace(L.worktree, { env: cleanEnv() }));
    expect(env.GIT_DIR).toBe(join(L.main, '.git', 'worktrees', 'b1'));
    expect(env.GIT_WORK_TREE).toBe(L.worktree);
    expect(env.GIT_CEILING_DIRECTORIES.split(':')).toContain(L.main);
    // The same answer from a subdirectory of the worktree.
    mkdirSync(join(L.worktree, 'sub'), { recursive: true });
    expect(gitEnv(openWorkspace(join(L.worktree, 'sub'), { env: cleanEnv() }))).toEqual(env);
  });

  it('with that environment, git run from the main checkout commits on the worktree\'s branch', async () => {
    const { stdout, code } = await cli(['env', '--format', 'json'], L.worktree);
    expect(code).toBe(0);
    const env = JSON.parse(stdout) as Record<string, string>;
    const mainHead = git(L.main, ['rev-parse', 'main']);
    const b1Head = git(L.main, ['rev-parse', 'b1']);
    writeFileSync(join(L.worktree, 'from-env.txt'), 'x\n');
    // From the main checkout's directory: status, add and commit act on the worktree.
    expect(git(L.main, ['rev-parse', '--show-toplevel'], env)).toBe(L.worktree);
    expect(git(L.main, ['status', '--porcelain'], env)).toContain('from-env.txt');
    git(L.main, ['add', '-A'], env);
    git(L.main, ['commit', '-q', '-m', 'committed from the main checkout dir'], env);
    expect(git(L.main, ['rev-parse', 'main'])).toBe(mainHead);
    expect(git(L.main, ['rev-parse', 'b1^'])).toBe(b1Head);
    expect(git(L.main, ['log', '-1', '--format=%s', 'b1'])).toBe('committed from the main checkout dir');
    // The main checkout saw nothing.
    expect(git(L.main, ['status', '--porcelain'])).toBe('');
  });

  it('the shell format evaluates in bash, quoting a worktree path with spaces and quotes', async () => {
    const odd = join(L.main, '.builders', `it's "odd" $x`);
    git(L.main, ['worktree', 'add', '-q', '-b', 'odd', odd]);
    const { stdout } = await cli(['env'], odd);
    expect(stdout).toMatch(/^export GIT_DIR=/m);
    writeFileSync(join(odd, 'o.txt'), 'o\n');
    execFileSync('bash', ['-c', `${stdout}\ncd "$1" && git add -A && git commit -q -m via-shell`, 'bash', L.main], { env: cleanEnv(), stdio: 'pipe' });
    expect(git(L.main, ['log', '-1', '--format=%s', 'odd'])).toBe('via-shell');
    expect(formatGitEnv(gitEnv(openWorkspace(odd, { env: cleanEnv() })), 'shell')).toBe(stdout);
  });

  it('GIT_CEILING_DIRECTORIES: a child that drops GIT_DIR finds no repository below the main checkout', async () => {
    const env = JSON.parse((await cli(['env', '--format', 'json'], L.worktree)).stdout) as Record<string, string>;
    const r = gitStatus(join(L.main, 'src'), ['rev-parse', '--git-dir'], { GIT_CEILING_DIRECTORIES: env.GIT_CEILING_DIRECTORIES! });
    expect(r.status).not.toBe(0);
    // ... while inside the worktree discovery still works.
    expect(gitStatus(join(L.worktree, 'src'), ['rev-parse', '--show-toplevel'], { GIT_CEILING_DIRECTORIES: env.GIT_CEILING_DIRECTORIES! }).stdout.trim()).toBe(L.worktree);
  });

  it('the hook\'s analysis takes GIT_DIR/GIT_WORK_TREE from its environment: cd <main> && git commit acts on the worktree', () => {
    const command = `cd ${L.main} && git commit -qam wip`;
    const plain = openWorkspace(L.worktree, { env: cleanEnv() }).check(parser, command).verdict;
    expect(plain.decision).toBe('deny');
    expect(plain.findings.map((f) => f.rule)).toContain('BG2001');
    const env = gitEnv(openWorkspace(L.worktree, { env: cleanEnv() }));
    const pinned = openWorkspace(L.worktree, { env: cleanEnv({ ...env }) }).check(parser, command).verdict;
    expect(pinned.findings).toEqual([]);
    expect(pinned.decision).toBe('allow');
    // Pinned to a sibling instead, the same command is an escape.
    const sib = gitEnv(openWorkspace(L.sibling, { env: cleanEnv() }));
    expect(openWorkspace(L.worktree, { env: cleanEnv({ ...sib }) }).check(parser, command).verdict.decision).toBe('deny');
  });

  it('git -C <main> does not escape either: GIT_DIR/GIT_WORK_TREE win over -C, and the hook knows', () => {
    const env = gitEnv(openWorkspace(L.worktree, { env: cleanEnv() }));
    const before = git(L.main, ['rev-parse', 'main']);
    git(L.main, ['-C', L.main, 'commit', '--allow-empty', '-q', '-m', 'via -C'], { ...env });
    expect(git(L.main, ['rev-parse', 'main'])).toBe(before);
    expect(git(L.main, ['log', '-1', '--format=%s', 'b1'])).toBe('via -C');
    const command = `git -C ${L.main} commit --allow-empty -qm x`;
    expect(openWorkspace(L.worktree, { env: cleanEnv() }).check(parser, command).verdict.decision).toBe('deny');
    expect(openWorkspace(L.worktree, { env: cleanEnv({ ...env }) }).check(parser, command).verdict.decision).toBe('allow');
  });

  it('outside a checkout: one line, exit 2', async () => {
    const r = await cli(['env'], L.outside);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^bashguard: .*not inside a git checkout.*\n$/);
    expect((await cli(['env', '--format', 'yaml'], L.worktree)).stderr).toMatch(/--format must be shell or json/);
  });
});
