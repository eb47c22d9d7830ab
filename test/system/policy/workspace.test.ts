/**
 * The workspace model (src/policy/workspace) on real git layouts: one place answers which region a path
 * is in, whether a write is allowed, and what a command does; the trusted configuration cannot be
 * loosened from inside the worktree; the files that control the guard are protected.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getParser, type BashParser } from '../../../src/engine/parse/index.js';
import { openWorkspace } from '../../../src/policy/workspace/index.js';
import { classify, protects, type Region } from '../../../src/policy/regions.js';
import { isInside } from '../../../src/engine/shell/paths.js';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { hookDecision } from '../../helpers/hook-decide.js';
import { decideHook } from '../../../src/frontends/hook/hook.js';
import { memoryIO } from '../../helpers/memory-io.js';

let parser: BashParser;
let L: GitLayout;
let env: Record<string, string>;

beforeAll(async () => {
  parser = await getParser();
  L = makeGitLayout('bashguard-ws-');
  // A user config dir and HOME of the test's own, so nothing on this machine leaks in.
  mkdirSync(join(L.root, 'home'));
  env = { HOME: join(L.root, 'home'), XDG_CONFIG_HOME: join(L.root, 'xdg') };
});
afterAll(() => L.cleanup());

describe('openWorkspace', () => {
  it('in a linked worktree: the worktree is the root and the regions are classified', () => {
    const ws = openWorkspace(L.worktree, { env });
    expect(ws.skipped).toBeNull();
    expect(ws.root).toBe(L.worktree);
    expect(ws.rootSource).toBe('linked-worktree');
    expect(ws.classify('src/app.sh').kind).toBe('worktree');
    expect(ws.classify(join(L.main, 'README.md')).kind).toBe('main');
    expect(ws.classify(join(L.sibling, 'x')).kind).toBe('sibling');
    expect(ws.classify(join(L.main, '.git', 'config'))).toMatchObject({ kind: 'git-dir', detail: 'config' });
    expect(ws.classify(join(L.main, '.git', 'objects', 'ab'))).toMatchObject({ kind: 'git-dir', detail: 'own' });
    expect(ws.classify('/tmp/x').kind).toBe('scratch');
    expect(ws.classify('.claude/settings.local.json').kind).toBe('protected');
    expect(ws.classify(join(L.outside, 'x')).kind).toBe('outside');
  });

  it('classify follows symlinks as the kernel does', () => {
    symlinkSync(L.main, join(L.worktree, 'mainlink'));
    try {
      expect(openWorkspace(L.worktree, { env }).classify('mainlink/README.md').kind).toBe('main');
    } finally {
      rmSync(join(L.worktree, 'mainlink'));
    }
  });

  it('in the main checkout (a plain checkout) it stays out of the way; outside a checkout it says why', () => {
    expect(openWorkspace(L.main, { env }).skipped).toMatch(/plain checkout/);
    expect(openWorkspace(L.outside, { env }).skipped).toBe('not inside a git checkout');
  });

  it('judgeWrite and check decide like the hook', () => {
    const ws = openWorkspace(L.worktree, { env });
    expect(ws.judgeWrite(join(L.main, 'README.md')).verdict.decision).toBe('deny');
    expect(ws.judgeWrite('README.md').verdict.decision).toBe('allow');
    expect(ws.check(parser, 'cd ../.. && git commit -am x').verdict.findings.map((f) => f.rule)).toEqual(['BG2001']);
    expect(ws.check(parser, 'echo hi > notes.txt').verdict.decision).toBe('allow');
  });

  it('GIT_DIR from the orchestrator environment reaches the analysis', () => {
    const ws = openWorkspace(L.worktree, { env: { ...env, GIT_DIR: join(L.main, '.git') } });
    expect(ws.check(parser, 'git commit -am x').verdict.decision).toBe('deny');
  });
});

describe('a worktree .bashguard.json cannot loosen the guard', () => {
  const file = () => join(L.worktree, '.bashguard.json');
  afterAll(() => rmSync(file(), { force: true }));

  it('turning the rules off from inside changes nothing, and the hook says so on stderr', async () => {
    writeFileSync(file(), JSON.stringify({ rules: { BG1002: 'off', BG2001: 'off' }, writeRoots: [L.main], decisions: { certain: 'allow' } }));
    const run = await hookDecision(parser, 'cd ../.. && git commit -am x', L.worktree, env);
    expect(run.decision).toBe('deny');
    expect((await hookDecision(parser, `echo x > ${L.main}/README.md`, L.worktree, env)).decision).toBe('deny');
    const m = memoryIO({ env, cwd: L.worktree });
    await decideHook(JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: L.worktree }), m.io, { getParser: async () => parser });
    expect(m.err()).toMatch(/may only tighten/);
  });

  it('tightening from inside works: possible findings deny', async () => {
    writeFileSync(file(), JSON.stringify({ decisions: { possible: 'deny' } }));
    expect((await hookDecision(parser, 'eval "$X"', L.worktree, env)).decision).toBe('deny');
    rmSync(file());
    expect((await hookDecision(parser, 'eval "$X"', L.worktree, env)).decision).toBe('ask');
  });

  it('the main checkout .bashguard.json is trusted: it can loosen', async () => {
    const mainFile = join(L.main, '.bashguard.json');
    writeFileSync(mainFile, JSON.stringify({ writeRoots: [L.outside] }));
    try {
      expect((await hookDecision(parser, `touch ${L.outside}/x`, L.worktree, env)).decision).toBe('allow');
    } finally {
      rmSync(mainFile);
    }
    expect((await hookDecision(parser, `touch ${L.outside}/x`, L.worktree, env)).decision).toBe('deny');
  });
});

describe('control files are protected (BG1005)', () => {
  const tool = async (name: string, path: string) => {
    const a = await decideHook(JSON.stringify({ tool_name: name, tool_input: { file_path: path }, cwd: L.worktree }), memoryIO({ env, cwd: L.worktree }).io, { getParser: async () => parser });
    return a?.decision ?? 'allow';
  };

  it.each([
    `echo '{"disableAllHooks": true}' > .claude/settings.local.json`,
    `: > .claude/settings.json`,
    `echo '{"rules":{"BG1002":"off"}}' > .bashguard.json`,
    `cp /tmp/x .claude/hooks/pre.sh`,
    `mv .claude/settings.json /tmp/`,
    `echo '{}' > ~/.claude/settings.json`,
    `rm -f .gemini/settings.json`,
    // The hook runs the bytecode in its code cache: planting a file there is tampering.
    `cp /tmp/evil.cache ~/.cache/bashguard/hook-0-node20-x64.cache`,
  ])('%s is denied', async (cmd) => {
    const run = await hookDecision(parser, cmd, L.worktree, env);
    expect(run.decision).toBe('deny');
    expect(run.reason).toContain('BG1005');
  });

  it('the tool caches are write roots of the analyzer as of the kernel (one model, issue 51); bashguard\'s own cache inside ~/.cache stays protected; the rest of HOME does not become one', async () => {
    const ws = openWorkspace(L.worktree, { env });
    const home = env.HOME!;
    for (const p of ['.npm/_cacache/x', '.cache/pip/x', '.cargo/registry/x', 'go/pkg/mod/x', '.m2/repository/x', '.gradle/caches/x']) expect(ws.classify(join(home, p)).kind, p).toBe('allowed');
    for (const p of ['x', '.local/bin/x', '.ssh/authorized_keys', '.cargo/bin/x', '.npmrc']) expect(ws.classify(join(home, p)).kind, p).toBe('outside');
    expect(ws.classify(join(home, '.cache', 'bashguard', 'x')).kind).toBe('protected');
    expect((await hookDecision(parser, `echo x > ~/.cache/pip/log.txt`, L.worktree, env)).decision).toBe('allow');
    expect((await hookDecision(parser, `echo x > ~/.local/bin/tool`, L.worktree, env)).decision).not.toBe('allow');
  });

  it('Write/Edit on them is denied too', async () => {
    expect(await tool('Write', join(L.worktree, '.claude', 'settings.local.json'))).toBe('deny');
    expect(await tool('Edit', join(L.worktree, '.bashguard.json'))).toBe('deny');
    expect(await tool('Write', join(L.worktree, '.claude', 'commands', 'x.md'))).toBe('allow');
  });

  it('rm -rf of a directory holding one is denied only when it is there', async () => {
    expect((await hookDecision(parser, 'rm -rf .claude', L.worktree, env)).decision).toBe('allow');
    mkdirSync(join(L.worktree, '.claude'), { recursive: true });
    writeFileSync(join(L.worktree, '.claude', 'settings.json'), '{}');
    try {
      expect((await hookDecision(parser, 'rm -rf .claude', L.worktree, env)).decision).toBe('deny');
      expect((await hookDecision(parser, 'rm -rf .claude/commands', L.worktree, env)).decision).toBe('allow');
    } finally {
      rmSync(join(L.worktree, '.claude'), { recursive: true, force: true });
    }
  });

  it('a trusted config can turn the rule off; the worktree cannot', async () => {
    writeFileSync(join(L.worktree, '.bashguard.json'), JSON.stringify({ rules: { BG1005: 'off' } }));
    try {
      expect((await hookDecision(parser, ': > .claude/settings.json', L.worktree, env)).decision).toBe('deny');
    } finally {
      rmSync(join(L.worktree, '.bashguard.json'));
    }
    const cfg = join(L.root, 'orchestrator.json');
    writeFileSync(cfg, JSON.stringify({ rules: { BG1005: 'off' } }));
    expect((await hookDecision(parser, 'mkdir -p .claude && : > .claude/settings.json', L.worktree, { ...env, BASHGUARD_CONFIG: cfg })).decision).toBe('allow');
  });
});

describe('classify (regions index) against the rule it implements', () => {
  // The rule, written out: among the regions whose root holds the path, the longest root; on a
  // tie a protecting region over a permissive one, then the earlier region.
  const brute = (path: string, regions: Region[]): Region => {
    let best: Region | null = null;
    for (const r of regions) {
      if (!isInside(path, r.root)) continue;
      if (!best || r.root.length > best.root.length || (r.root.length === best.root.length && protects(r) && !protects(best))) best = r;
    }
    return best ?? { kind: 'outside', root: '/' };
  };

  it('gives the same region for paths under, beside and above the worktree (the first region, which classify starts from)', () => {
    const wt = '/w/main/.claude/worktrees/a';
    const regions: Region[] = [
      { kind: 'worktree', root: wt },
      { kind: 'main', root: '/w/main' },
      { kind: 'sibling', root: '/w/main/.claude/worktrees/b' },
      { kind: 'protected', root: `${wt}/.claude/settings.json`, why: 'x' },
      { kind: 'protected', root: `${wt}/.git`, why: 'x' },
      { kind: 'protected', root: wt, why: 'same root as the worktree: protected wins' },
      { kind: 'scratch', root: '/tmp' },
      { kind: 'outside', root: '/', why: 'root' },
      { kind: 'allowed', root: '/w/main/.claude/' },
    ];
    const parts = ['a', 'b', '.claude', 'settings.json', '.git', 'x', 'worktrees', 'main'];
    const paths = [wt, `${wt}/`, `${wt}x`, `${wt}/x`, '/w', '/w/main', '/tmp/x', '/'];
    for (let i = 0; i < 400; i++) {
      let p = i % 2 ? wt : '/w';
      for (let k = 0; k < (i % 5); k++) p += '/' + parts[(i * 7 + k * 3) % parts.length];
      paths.push(p);
    }
    for (const regs of [regions, regions.slice(5), [regions[1]!, ...regions.slice(2)]]) {
      for (const p of paths) expect(classify(p, regs), p).toEqual(brute(p, regs));
    }
  });
});
