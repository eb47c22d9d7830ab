/**
 * BG1005 for git commands that drop or rewrite a control file inside the worktree (issue #12
 * item 2): `git clean` (-x/-X), `git stash -u/-a`, `git stash`/`checkout`/`restore`/`reset --hard`
 * on a locally modified one, `git rm`/`git mv`. Real git layout, real `git status` probe; the
 * benign twins (the same command when the file is tracked, ignored or absent) stay allowed.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkspace } from '../../../src/policy/workspace/index.js';
import { getParser, type BashParser } from '../../../src/engine/parse/index.js';
import { controlRisk } from '../../../src/engine/commands/git-writes.js';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';

let layout: GitLayout;
let parser: BashParser;
let home: string;

beforeAll(async () => {
  layout = makeGitLayout('bashguard-gitctl-');
  home = join(layout.root, 'home');
  mkdirSync(home);
  parser = await getParser();
});
afterAll(() => layout?.cleanup());

const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: layout.worktree, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' } });

function decide(command: string): { decision: string; rules: string[]; messages: string[] } {
  const ws = openWorkspace(layout.worktree, { env: { HOME: home, PATH: process.env.PATH } });
  const { verdict } = ws.check(parser, command);
  return { decision: verdict.decision, rules: verdict.findings.map((f) => f.rule), messages: verdict.findings.map((f) => f.message) };
}
const settings = () => join(layout.worktree, '.claude', 'settings.json');
function writeSettings(text = '{"hooks":{}}\n'): void {
  mkdirSync(join(layout.worktree, '.claude'), { recursive: true });
  writeFileSync(settings(), text);
}
const denied = (cmd: string) => {
  const d = decide(cmd);
  expect(d.decision, cmd).toBe('deny');
  expect(d.rules, cmd).toContain('BG1005');
  return d;
};
const allowed = (cmd: string) => expect(decide(cmd).decision, cmd).toBe('allow');

describe('controlRisk (what each command drops)', () => {
  it('reads combined short flags, dry runs and pathspecs', () => {
    expect([...controlRisk('clean', ['-fdx'])!.states].sort()).toEqual(['ignored', 'untracked']);
    expect([...controlRisk('clean', ['-fdX'])!.states]).toEqual(['ignored']);
    expect([...controlRisk('clean', ['-fd'])!.states]).toEqual(['untracked']);
    expect(controlRisk('clean', ['-ndx'])).toBeNull();
    expect(controlRisk('clean', ['-fdx', '-e', 'keep', 'build/'])!.pathspecs).toEqual(['build/']);
    expect(controlRisk('stash', ['list'])).toBeNull();
    expect([...controlRisk('stash', ['push', '-u'])!.states].sort()).toEqual(['modified', 'untracked']);
    expect(controlRisk('stash', ['save', 'msg'])!.pathspecs).toBeNull();
    expect(controlRisk('reset', ['--soft', 'HEAD~1'])).toBeNull();
    expect(controlRisk('checkout', ['main'])!.pathspecs).toEqual(['main']);
    expect(controlRisk('restore', ['--staged', 'x'])).toBeNull();
    expect(controlRisk('rm', ['--cached', 'x'])).toBeNull();
  });
});

describe('an untracked .claude/settings.json in the worktree', () => {
  beforeAll(() => writeSettings());
  afterAll(() => rmSync(join(layout.worktree, '.claude'), { recursive: true, force: true }));

  it('git clean -fdx / -fd / stash -u / stash -a: deny, naming the file and its state', () => {
    const d = denied('git clean -fdx');
    expect(d.messages.join('\n')).toContain(settings());
    expect(d.messages.join('\n')).toContain('untracked');
    denied('git clean -fd');
    denied('git clean -f -d -x .claude');
    denied('git stash -u');
    denied('git stash push --include-untracked');
    denied('git stash --all');
    denied('cd src 2>/dev/null; git clean -fdx ..');
  });
  it('benign twins: dry run, -X (ignored only), another path, plain stash, reset --hard: allow', () => {
    allowed('git clean -ndx');
    allowed('git clean -fdX');
    allowed('git clean -fdx build/');
    allowed('git stash');
    allowed('git reset --hard');
    allowed('git checkout -- src');
  });
});

describe('an ignored .claude/settings.json', () => {
  beforeAll(() => {
    writeSettings();
    appendFileSync(join(layout.main, '.git', 'info', 'exclude'), '.claude/\n');
  });
  afterAll(() => rmSync(join(layout.worktree, '.claude'), { recursive: true, force: true }));

  it('-x, -X and stash -a drop it: deny; -fd and stash -u do not: allow', () => {
    denied('git clean -fdx');
    denied('git clean -fdX');
    denied('git stash -a');
    allowed('git clean -fd');
    allowed('git stash -u');
  });
});

describe('a tracked .claude/settings.json', () => {
  beforeAll(() => {
    execFileSync('sh', ['-c', `sed -i '/^.claude\\/$/d' ${join(layout.main, '.git', 'info', 'exclude')}`]);
    writeSettings('{"committed":true}\n');
    git('add', '.claude/settings.json');
    git('commit', '-q', '-m', 'settings');
  });

  it('clean: git clean -fdx and reset --hard allow; git rm / git mv of it deny', () => {
    allowed('git clean -fdx');
    allowed('git reset --hard');
    allowed('git stash');
    denied('git rm -r .claude');
    denied('git mv .claude/settings.json x.json');
    allowed('git rm --cached .claude/settings.json');
  });

  it('with a local change (an orchestrator added the hook): stash, checkout, restore, reset --hard deny', () => {
    writeSettings('{"committed":true,"hooks":{"PreToolUse":[]}}\n');
    const d = denied('git stash');
    expect(d.messages.join('\n')).toContain('modified');
    denied('git checkout -- .');
    denied('git checkout .claude');
    denied('git checkout -f main');
    denied('git restore .claude/settings.json');
    denied('git reset --hard HEAD');
    denied('git switch --discard-changes main');
    allowed('git checkout -b feature');
    allowed('git restore --staged .claude/settings.json');
    allowed('git clean -fdx');
  });
});

describe('no control file in the worktree', () => {
  it('git clean -fdx, git stash -a: allow', () => {
    rmSync(join(layout.worktree, '.claude'), { recursive: true, force: true });
    git('rm', '-q', '-r', '--cached', '--ignore-unmatch', '.claude');
    allowed('git clean -fdx');
    allowed('git stash -a');
  });
});
