import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkoutContaining,
  discoverLayout,
  isInside,
  parseGitConfig,
  type LayoutFs,
  type LayoutStat,
} from '../../../src/policy/layout/discover.js';
import type { Checkout, Layout } from '../../../src/policy/layout/types.js';

// ---- git helpers --------------------------------------------------------------------------------

let T: string; // realpath'd temp root
let gitEnv: NodeJS.ProcessEnv;

function makeGitEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
  };
}

const GIT_OPTS = [
  '-c', 'init.defaultBranch=main',
  '-c', 'user.name=bashguard test',
  '-c', 'user.email=test@example.invalid',
  '-c', 'protocol.file.allow=always',
  '-c', 'advice.detachedHead=false',
];

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', [...GIT_OPTS, ...args], {
    cwd,
    env: gitEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).replace(/\n$/, '');
}

function gitTry(cwd: string, ...args: string[]): { ok: boolean; out: string } {
  try {
    return { ok: true, out: git(cwd, ...args) };
  } catch {
    return { ok: false, out: '' };
  }
}

/** A repo with the standard tracked files and one commit. */
function initRepo(dir: string, ...initArgs: string[]): string {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', ...initArgs);
  commitFiles(dir);
  return dir;
}

function commitFiles(dir: string): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'docs'), { recursive: true });
  writeFileSync(join(dir, 'README.md'), '# readme\n');
  writeFileSync(join(dir, 'src', 'app.sh'), 'echo app\n');
  writeFileSync(join(dir, 'docs', 'guide.md'), 'guide\n');
  git(dir, 'add', 'README.md', 'src/app.sh', 'docs/guide.md');
  git(dir, 'commit', '-q', '-m', 'init');
}

function realOrNormalized(p: string): string {
  return existsSync(p) ? realpathSync(p) : resolve(p);
}

interface GitTruth {
  top: string | null;
  gitDir: string;
  commonDir: string;
  bare: boolean;
}

/** What git itself says about `dir` (realpath'd). */
function gitTruth(dir: string): GitTruth {
  const top = gitTry(dir, 'rev-parse', '--show-toplevel');
  const gitDir = git(dir, 'rev-parse', '--git-dir');
  const commonDir = git(dir, 'rev-parse', '--git-common-dir');
  const bare = git(dir, 'rev-parse', '--is-bare-repository') === 'true';
  return {
    top: top.ok && top.out !== '' ? realpathSync(top.out) : null,
    gitDir: realpathSync(resolve(dir, gitDir)),
    commonDir: realpathSync(resolve(dir, commonDir)),
    bare,
  };
}

interface ListEntry {
  path: string;
  bare: boolean;
  prunable: boolean;
}

function worktreeList(dir: string): ListEntry[] {
  const out = git(dir, 'worktree', 'list', '--porcelain');
  return out
    .split(/\n\n+/)
    .filter((b) => b.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const wt = lines.find((l) => l.startsWith('worktree '));
      if (!wt) throw new Error(`bad porcelain block: ${block}`);
      return {
        path: realOrNormalized(wt.slice('worktree '.length)),
        bare: lines.includes('bare'),
        prunable: lines.some((l) => l.startsWith('prunable')),
      };
    });
}

function ok(dir: string): Layout {
  const res = discoverLayout(dir);
  if (!res.ok) throw new Error(`discoverLayout(${dir}) failed: ${res.reason}: ${res.message}`);
  return res.layout;
}

function roots(layout: Layout): string[] {
  const all = [layout.main?.root, layout.current.root, ...layout.siblings.map((s) => s.root)];
  return [...new Set(all.filter((r): r is string => typeof r === 'string'))].sort();
}

interface Expect {
  kind: Checkout['kind'];
  name?: string | null;
  /**
   * The main root when it differs from the first `git worktree list` entry (git's list ignores
   * core.worktree); checked against `git rev-parse --show-toplevel` in the main checkout by callers.
   */
  mainRoot?: string | null;
}

/** discoverLayout(dir) agrees with git rev-parse and git worktree list run from dir. */
function expectMatchesGit(dir: string, want: Expect): Layout {
  const layout = ok(dir);
  const truth = gitTruth(dir);
  expect(layout.current.kind).toBe(want.kind);
  expect(layout.current.root).toBe(truth.top);
  expect(layout.current.commonDir).toBe(truth.commonDir);
  if (want.kind !== 'bare') expect(layout.current.gitDir).toBe(truth.gitDir);
  else expect(layout.current.gitDir).toBe(truth.commonDir);
  if (want.name !== undefined) expect(layout.current.name).toBe(want.name);
  expect(truth.bare).toBe(want.kind === 'bare');

  const list = worktreeList(dir);
  const [first] = list;
  if (!first) throw new Error('empty worktree list');
  const mainRoot = want.mainRoot !== undefined ? want.mainRoot : first.bare ? null : first.path;
  expect(layout.main?.root ?? null).toBe(mainRoot);
  if (layout.main) {
    expect(layout.main.kind).toBe('main');
    expect(layout.main.gitDir).toBe(truth.commonDir);
    expect(layout.main.commonDir).toBe(truth.commonDir);
  }
  if (want.kind === 'main') expect(layout.main).toBe(layout.current);

  const gitRoots = [mainRoot, ...list.slice(1).map((e) => e.path)].filter((r): r is string => r !== null);
  expect(roots(layout)).toEqual([...new Set(gitRoots)].sort());
  // Siblings exclude current and main, and point at admin dirs under the common dir.
  for (const s of layout.siblings) {
    expect(s.kind).toBe('linked-worktree');
    expect(s.root).not.toBe(layout.current.root);
    expect(s.root).not.toBe(layout.main?.root);
    expect(s.gitDir).toBe(join(truth.commonDir, 'worktrees', s.name ?? '?'));
    expect(s.commonDir).toBe(truth.commonDir);
  }
  return layout;
}

beforeAll(() => {
  T = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-layout-')));
  const home = join(T, 'home');
  mkdirSync(home);
  gitEnv = makeGitEnv(home);
});

afterAll(() => {
  if (T) rmSync(T, { recursive: true, force: true });
});

// ---- pure helpers -------------------------------------------------------------------------------

describe('isInside', () => {
  it('compares whole path components', () => {
    expect(isInside('/a/b', '/a/b')).toBe(true);
    expect(isInside('/a/b/c', '/a/b')).toBe(true);
    expect(isInside('/a/bc', '/a/b')).toBe(false);
    expect(isInside('/a', '/a/b')).toBe(false);
    expect(isInside('/anything', '/')).toBe(true);
    expect(isInside('/', '/')).toBe(true);
  });
});

describe('checkoutContaining', () => {
  const co = (root: string | null, kind: Checkout['kind'] = 'linked-worktree'): Checkout => ({
    kind,
    root,
    gitDir: '/r/.git/worktrees/x',
    commonDir: '/r/.git',
    name: 'x',
  });
  const main = co('/r', 'main');
  const b1 = co('/r/.builders/b1');
  const b2 = co('/r/.builders/b2');
  const layout: Layout = { current: b1, main, siblings: [b2] };

  it('picks the longest root on component boundaries', () => {
    expect(checkoutContaining(layout, '/r/.builders/b1/src/x')).toEqual({ checkout: b1, role: 'current' });
    expect(checkoutContaining(layout, '/r/.builders/b1')).toEqual({ checkout: b1, role: 'current' });
    expect(checkoutContaining(layout, '/r/.builders/b2/x')).toEqual({ checkout: b2, role: 'sibling' });
    expect(checkoutContaining(layout, '/r/.builders/b1x/y')).toEqual({ checkout: main, role: 'main' });
    expect(checkoutContaining(layout, '/r/README.md')).toEqual({ checkout: main, role: 'main' });
    expect(checkoutContaining(layout, '/rr/x')).toBeNull();
    expect(checkoutContaining(layout, '/')).toBeNull();
  });

  it('normalizes the path and reports main-as-current as current', () => {
    const self: Layout = { current: main, main, siblings: [b1] };
    expect(checkoutContaining(self, '/r/src/../README.md')?.role).toBe('current');
    expect(checkoutContaining(self, '/r/.builders/b1/../b1/a')?.role).toBe('sibling');
  });

  it('ignores checkouts without a root', () => {
    const bare: Layout = { current: co(null, 'bare'), main: null, siblings: [b2] };
    expect(checkoutContaining(bare, '/r/x')).toBeNull();
    expect(checkoutContaining(bare, '/r/.builders/b2')?.role).toBe('sibling');
  });
});

describe('parseGitConfig', () => {
  it('reads plain sections, booleans, quotes and comments', () => {
    const cfg = parseGitConfig(
      [
        '# comment',
        '[core]',
        '\trepositoryformatversion = 0',
        '\tbare = false ; trailing comment',
        '[Core]',
        '  worktree = "../a b" # comment',
        '[core "sub"]',
        '  bare = true',
        '[remote "origin"]',
        '  url = /x',
        '[extensions]',
        '  worktreeConfig',
        '[core] logallrefupdates = tr\\',
        'ue',
      ].join('\n'),
    );
    expect(cfg.get('core.bare')).toBe('false');
    expect(cfg.get('core.worktree')).toBe('../a b');
    expect(cfg.get('extensions.worktreeconfig')).toBe(true);
    expect(cfg.get('core.logallrefupdates')).toBe('true');
    expect(cfg.has('remote.url')).toBe(false);
  });
});

// ---- real repositories --------------------------------------------------------------------------

describe('(1) main checkout with nested worktrees', () => {
  let repo: string;
  let b1: string;
  let b2: string;
  let w3: string;
  beforeAll(() => {
    repo = initRepo(join(T, 's1', 'repo'));
    b1 = join(repo, '.builders', 'b1');
    b2 = join(repo, '.builders', 'b2');
    w3 = join(repo, '.claude', 'worktrees', 'w3');
    git(repo, 'worktree', 'add', '-q', '-b', 'b1', b1);
    git(repo, 'worktree', 'add', '-q', '-b', 'b2', b2);
    git(repo, 'worktree', 'add', '-q', '-b', 'w3', w3);
  });

  it('matches git from the main checkout and its subdirectories', () => {
    for (const d of [repo, join(repo, 'src'), join(repo, 'docs'), join(repo, '.builders'), join(repo, '.claude')]) {
      const layout = expectMatchesGit(d, { kind: 'main', name: null });
      expect(layout.current.root).toBe(repo);
      expect(layout.siblings.map((s) => s.name)).toEqual(['b1', 'b2', 'w3']);
    }
  });

  it('matches git from each nested worktree and its subdirectories', () => {
    for (const [root, name] of [
      [b1, 'b1'],
      [b2, 'b2'],
      [w3, 'w3'],
    ] as const) {
      for (const d of [root, join(root, 'src'), join(root, 'docs')]) {
        const layout = expectMatchesGit(d, { kind: 'linked-worktree', name });
        expect(layout.current.root).toBe(root);
        expect(layout.current.gitDir).toBe(join(repo, '.git', 'worktrees', name));
        expect(layout.main?.root).toBe(repo);
        expect(layout.siblings.map((s) => s.name).sort()).toEqual(['b1', 'b2', 'w3'].filter((n) => n !== name));
      }
    }
  });

  it('classifies paths against the layout of b1', () => {
    const layout = ok(join(b1, 'src'));
    expect(checkoutContaining(layout, join(b1, 'src', 'app.sh'))?.role).toBe('current');
    expect(checkoutContaining(layout, join(b2, 'src', 'app.sh'))).toMatchObject({ role: 'sibling', checkout: { name: 'b2' } });
    expect(checkoutContaining(layout, join(w3, 'README.md'))).toMatchObject({ role: 'sibling', checkout: { name: 'w3' } });
    expect(checkoutContaining(layout, join(repo, 'README.md'))?.role).toBe('main');
    expect(checkoutContaining(layout, join(repo, '.builders', 'b1x', 'f'))?.role).toBe('main');
    expect(checkoutContaining(layout, join(repo, '.git', 'objects'))?.role).toBe('main');
    expect(checkoutContaining(layout, join(T, 'elsewhere'))).toBeNull();
  });

  it('reports the inside of the .git dir as not a checkout, as git has no work tree there', () => {
    for (const d of [join(repo, '.git'), join(repo, '.git', 'objects'), join(repo, '.git', 'worktrees', 'b1')]) {
      const res = discoverLayout(d);
      expect(res).toMatchObject({ ok: false, reason: 'not-a-checkout' });
      expect(gitTry(d, 'rev-parse', '--show-toplevel').ok).toBe(false);
      expect(git(d, 'rev-parse', '--is-inside-git-dir')).toBe('true');
    }
  });
});

describe('(2) worktree outside the main checkout', () => {
  let repo: string;
  let wt: string;
  beforeAll(() => {
    repo = initRepo(join(T, 's2', 'repo'));
    wt = join(T, 's2', 'outside-wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'outside', wt);
  });

  it('matches git from both checkouts', () => {
    const fromWt = expectMatchesGit(join(wt, 'src'), { kind: 'linked-worktree', name: 'outside-wt' });
    expect(fromWt.current.root).toBe(wt);
    expect(fromWt.main?.root).toBe(repo);
    expect(fromWt.siblings).toEqual([]);
    const fromMain = expectMatchesGit(repo, { kind: 'main' });
    expect(fromMain.siblings.map((s) => s.root)).toEqual([wt]);
    expect(checkoutContaining(fromMain, join(wt, 'README.md'))?.role).toBe('sibling');
    expect(checkoutContaining(fromWt, join(repo, 'README.md'))?.role).toBe('main');
  });
});

describe('(3) plain checkout without worktrees', () => {
  it('is its own main with no siblings', () => {
    const repo = initRepo(join(T, 's3', 'plain'));
    for (const d of [repo, join(repo, 'src'), join(repo, 'docs')]) {
      const layout = expectMatchesGit(d, { kind: 'main', name: null });
      expect(layout.current.root).toBe(repo);
      expect(layout.current.gitDir).toBe(join(repo, '.git'));
      expect(layout.siblings).toEqual([]);
    }
  });
});

describe('(4) repository reached through symlinks', () => {
  let real: string;
  let repo: string;
  let linkParent: string;
  let linkRepo: string;
  beforeAll(() => {
    real = join(T, 's4', 'real');
    repo = initRepo(join(real, 'repo'));
    git(repo, 'worktree', 'add', '-q', '-b', 'b1', join(repo, '.builders', 'b1'));
    git(repo, 'worktree', 'add', '-q', '-b', 'b2', join(repo, '.builders', 'b2'));
    linkParent = join(T, 's4', 'link');
    symlinkSync(real, linkParent);
    linkRepo = join(T, 's4', 'repo-link');
    symlinkSync(repo, linkRepo);
    // Record b2's location through the symlink, as if it had been added via a symlinked path.
    writeFileSync(join(repo, '.git', 'worktrees', 'b2', 'gitdir'), join(linkParent, 'repo', '.builders', 'b2', '.git') + '\n');
  });

  it('matches git and reports realpaths from symlinked directories', () => {
    for (const d of [
      join(linkParent, 'repo'),
      join(linkParent, 'repo', 'src'),
      linkRepo,
      join(linkRepo, 'docs'),
    ]) {
      const layout = expectMatchesGit(d, { kind: 'main' });
      expect(layout.current.root).toBe(repo);
    }
    for (const d of [join(linkParent, 'repo', '.builders', 'b1', 'src'), join(linkRepo, '.builders', 'b1')]) {
      const layout = expectMatchesGit(d, { kind: 'linked-worktree', name: 'b1' });
      expect(layout.current.root).toBe(join(repo, '.builders', 'b1'));
      expect(layout.main?.root).toBe(repo);
      expect(layout.siblings.map((s) => s.root)).toEqual([join(repo, '.builders', 'b2')]);
    }
  });

  it('classifies realpath\'d paths', () => {
    const layout = ok(join(linkRepo, '.builders', 'b1'));
    expect(checkoutContaining(layout, realpathSync(join(linkRepo, '.builders', 'b2', 'src')))?.role).toBe('sibling');
  });
});

describe('(5) bare repository with linked worktrees', () => {
  let bare: string;
  let wt1: string;
  let wt2: string;
  beforeAll(() => {
    const src = initRepo(join(T, 's5', 'src'));
    bare = join(T, 's5', 'bare.git');
    git(T, 'clone', '-q', '--bare', src, bare);
    wt1 = join(T, 's5', 'wt1');
    wt2 = join(T, 's5', 'nested', 'wt2');
    git(bare, 'worktree', 'add', '-q', '-b', 'wt1', wt1);
    git(bare, 'worktree', 'add', '-q', '-b', 'wt2', wt2);
  });

  it('has no main checkout, seen from a linked worktree', () => {
    for (const d of [wt1, join(wt1, 'src')]) {
      const layout = expectMatchesGit(d, { kind: 'linked-worktree', name: 'wt1' });
      expect(layout.main).toBeNull();
      expect(layout.current.commonDir).toBe(bare);
      expect(layout.siblings.map((s) => s.root)).toEqual([wt2]);
    }
  });

  it('reports the bare repo itself as a bare current checkout with every worktree as a sibling', () => {
    for (const d of [bare, join(bare, 'refs'), join(bare, 'objects')]) {
      const layout = expectMatchesGit(d, { kind: 'bare' });
      expect(layout.current).toEqual({ kind: 'bare', root: null, gitDir: bare, commonDir: bare, name: null });
      expect(layout.main).toBeNull();
      expect(layout.siblings.map((s) => s.root)).toEqual([wt1, wt2]);
    }
  });

  it('maps a worktree admin dir inside a bare repo to the bare repo', () => {
    const d = join(bare, 'worktrees', 'wt1');
    const layout = ok(d);
    expect(layout.current.kind).toBe('bare');
    expect(layout.current.gitDir).toBe(bare);
    expect(gitTruth(d).commonDir).toBe(bare);
    expect(layout.siblings.map((s) => s.name)).toEqual(['wt1', 'wt2']);
  });

  it('treats a .git dir with core.bare = true as bare, like git', () => {
    const repo = initRepo(join(T, 's5', 'cb'));
    git(repo, 'config', 'core.bare', 'true');
    const layout = expectMatchesGit(repo, { kind: 'bare' });
    expect(layout.current.root).toBeNull();
    expect(layout.current.gitDir).toBe(join(repo, '.git'));
    expect(layout.main).toBeNull();
  });
});

describe('(6) core.worktree', () => {
  it('honours core.worktree of a .git dir, for the main checkout and from its linked worktrees', () => {
    const base = join(T, 's6', 'cw');
    const meta = join(base, 'meta');
    const wt = join(base, 'wt');
    mkdirSync(meta, { recursive: true });
    mkdirSync(wt, { recursive: true });
    git(meta, 'init', '-q');
    git(meta, 'config', 'core.worktree', '../../wt'); // relative to meta/.git
    writeFileSync(join(wt, 'README.md'), 'x\n');
    git(meta, 'add', 'README.md');
    git(meta, 'commit', '-q', '-m', 'init');
    const lw = join(base, 'lw');
    git(meta, 'worktree', 'add', '-q', '-b', 'lw', lw);

    expect(gitTruth(meta).top).toBe(wt);
    // `git worktree list` prints the common dir's parent for main, ignoring core.worktree.
    expect(worktreeList(meta)[0]?.path).toBe(meta);
    const fromMeta = expectMatchesGit(meta, { kind: 'main', mainRoot: wt });
    expect(fromMeta.current.gitDir).toBe(join(meta, '.git'));
    expect(fromMeta.siblings.map((s) => s.root)).toEqual([lw]);
    const fromLw = expectMatchesGit(lw, { kind: 'linked-worktree', name: 'lw', mainRoot: wt });
    expect(fromLw.current.root).toBe(lw); // common config's core.worktree does not apply to linked worktrees
  });

  it('honours core.worktree of submodules, including from a submodule\'s linked worktree', () => {
    const base = join(T, 's6', 'sm');
    const upstream = initRepo(join(base, 'upstream'));
    const superRepo = initRepo(join(base, 'super'));
    git(superRepo, 'submodule', 'add', '-q', upstream, 'sub');
    git(superRepo, 'commit', '-q', '-m', 'add sub');
    const sub = join(superRepo, 'sub');
    const modules = join(superRepo, '.git', 'modules', 'sub');
    const subwt = join(base, 'subwt');
    git(sub, 'worktree', 'add', '-q', '-b', 'subwt', subwt);

    // A submodule is a plain checkout whose gitdir lives under the superproject's .git/modules.
    for (const d of [sub, join(sub, 'src')]) {
      const layout = expectMatchesGit(d, { kind: 'main', name: null, mainRoot: sub });
      expect(layout.current.root).toBe(sub);
      expect(layout.current.gitDir).toBe(modules);
      expect(layout.siblings.map((s) => s.root)).toEqual([subwt]);
    }
    expect(gitTruth(sub).top).toBe(sub);
    const fromWt = expectMatchesGit(join(subwt, 'docs'), { kind: 'linked-worktree', name: 'subwt', mainRoot: sub });
    expect(fromWt.main?.gitDir).toBe(modules);
    // The superproject does not list the submodule's worktrees.
    const fromSuper = expectMatchesGit(superRepo, { kind: 'main' });
    expect(fromSuper.siblings).toEqual([]);
    // Inside the submodule's git dir there is no work tree.
    expect(discoverLayout(modules)).toMatchObject({ ok: false, reason: 'not-a-checkout' });
  });
});

describe('(7) removed worktrees', () => {
  let repo: string;
  let b1: string;
  let gone: string;
  beforeAll(() => {
    repo = initRepo(join(T, 's7', 'repo'));
    b1 = join(repo, '.builders', 'b1');
    gone = join(repo, '.builders', 'gone');
    git(repo, 'worktree', 'add', '-q', '-b', 'b1', b1);
    git(repo, 'worktree', 'add', '-q', '-b', 'gone', gone);
    rmSync(gone, { recursive: true, force: true });
  });

  it('still lists a prunable worktree whose directory is gone', () => {
    const list = worktreeList(b1);
    expect(list.find((e) => e.path === gone)?.prunable).toBe(true);
    for (const d of [b1, repo]) {
      const layout = expectMatchesGit(d, { kind: d === repo ? 'main' : 'linked-worktree' });
      const s = layout.siblings.find((x) => x.name === 'gone');
      expect(s?.root).toBe(gone);
      expect(existsSync(gone)).toBe(false);
    }
    expect(checkoutContaining(ok(b1), join(gone, 'src'))?.role).toBe('sibling');
  });

  it('resolves a missing directory through its nearest existing ancestor', () => {
    const layout = ok(join(gone, 'src', 'deeper'));
    const truth = gitTruth(join(repo, '.builders'));
    expect(layout.current.root).toBe(truth.top);
    expect(layout.current.kind).toBe('main');
  });

  it('reports a worktree whose admin dir was pruned as unreadable, where git fails too', () => {
    const orphan = join(repo, '.builders', 'orphan');
    git(repo, 'worktree', 'add', '-q', '-b', 'orphan', orphan);
    rmSync(join(repo, '.git', 'worktrees', 'orphan'), { recursive: true, force: true });
    const res = discoverLayout(join(orphan, 'src'));
    expect(res).toMatchObject({ ok: false, reason: 'unreadable' });
    expect(gitTry(orphan, 'rev-parse', '--git-dir').ok).toBe(false);
    // The others no longer list it.
    expect(ok(b1).siblings.map((s) => s.name)).not.toContain('orphan');
  });
});

describe('a linked worktree whose commondir was changed', () => {
  it('is broken (unreadable), not a checkout of its own: a missing commondir, or one leading to another repository', () => {
    const repo = initRepo(join(T, 'cd', 'repo'));
    const other = initRepo(join(T, 'cd', 'other'));
    const wt = join(repo, '.builders', 'x');
    git(repo, 'worktree', 'add', '-q', '-b', 'x', wt);
    const file = join(repo, '.git', 'worktrees', 'x', 'commondir');
    expect(ok(wt).current.kind).toBe('linked-worktree');
    writeFileSync(file, `${join(other, '.git')}\n`);
    const moved = discoverLayout(wt);
    expect(moved).toMatchObject({ ok: false, reason: 'unreadable' });
    if (!moved.ok) expect(moved.message).toContain('commondir');
    rmSync(file);
    expect(discoverLayout(join(wt, 'src'))).toMatchObject({ ok: false, reason: 'unreadable' });
    // The benign twin: what git worktree add writes.
    writeFileSync(file, '../..\n');
    expect(ok(wt).current.kind).toBe('linked-worktree');
  });
});

describe('failures', () => {
  it('not-a-checkout outside any repository (agreeing with git)', () => {
    const plain = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-norepo-')));
    try {
      mkdirSync(join(plain, 'a', 'b'), { recursive: true });
      const res = discoverLayout(join(plain, 'a', 'b'));
      const gitSays = gitTry(join(plain, 'a', 'b'), 'rev-parse', '--git-common-dir');
      if (gitSays.ok) {
        // The temp dir happens to live inside some repository: then we must find the same one.
        expect(res.ok && res.layout.current.commonDir).toBe(realpathSync(resolve(plain, 'a', 'b', gitSays.out)));
      } else {
        expect(res.ok).toBe(false);
        if (!res.ok) {
          expect(res.reason).toBe('not-a-checkout');
          expect(res.message).toContain(join(plain, 'a', 'b'));
        }
      }
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });

  it('unreadable for a garbage .git file (git fails too)', () => {
    const dir = join(T, 'garbage');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, '.git'), 'this is not\na gitfile\n');
    const res = discoverLayout(join(dir, 'sub'));
    expect(res).toMatchObject({ ok: false, reason: 'unreadable' });
    if (!res.ok) {
      expect(res.message).not.toMatch(/\n/);
      expect(res.message).toContain(join(dir, '.git'));
    }
    expect(gitTry(join(dir, 'sub'), 'rev-parse', '--git-dir').ok).toBe(false);
  });

  it('unreadable for a .git file pointing nowhere or at a non-repository', () => {
    const dir = join(T, 'dangling');
    mkdirSync(join(dir, 'empty'), { recursive: true });
    writeFileSync(join(dir, '.git'), `gitdir: ${join(T, 'no', 'such', 'dir')}\n`);
    expect(discoverLayout(dir)).toMatchObject({ ok: false, reason: 'unreadable' });
    writeFileSync(join(dir, '.git'), 'gitdir: empty\n');
    expect(discoverLayout(dir)).toMatchObject({ ok: false, reason: 'unreadable' });
    expect(gitTry(dir, 'rev-parse', '--git-dir').ok).toBe(false);
  });

  it('skips a .git directory that is not a repository, like git', () => {
    const repo = initRepo(join(T, 'fake-dotgit', 'repo'));
    const inner = join(repo, 'vendor');
    mkdirSync(join(inner, '.git'), { recursive: true });
    const layout = expectMatchesGit(inner, { kind: 'main' });
    expect(layout.current.root).toBe(repo);
  });
});

// ---- in-memory filesystem -----------------------------------------------------------------------

type Node = { type: 'dir' } | { type: 'file'; content: string };

class FakeFs implements LayoutFs {
  calls = 0;
  readonly nodes = new Map<string, Node>([['/', { type: 'dir' }]]);
  /** Paths that exist but cannot be read (like chmod 000: stat works, open fails). */
  denied = new Set<string>();

  dir(path: string): this {
    for (let p = path; p !== '/'; p = dirname(p)) if (!this.nodes.has(p)) this.nodes.set(p, { type: 'dir' });
    return this;
  }
  file(path: string, content: string): this {
    this.dir(dirname(path));
    this.nodes.set(path, { type: 'file', content });
    return this;
  }
  private get(path: string, forRead = false): Node {
    this.calls++;
    if (forRead && this.denied.has(path)) throw Object.assign(new Error(`EACCES: permission denied, '${path}'`), { code: 'EACCES' });
    const n = this.nodes.get(path);
    if (!n) throw Object.assign(new Error(`ENOENT: no such file or directory, '${path}'`), { code: 'ENOENT' });
    return n;
  }
  readFile(path: string): string {
    const n = this.get(path, true);
    if (n.type !== 'file') throw Object.assign(new Error(`EISDIR: '${path}'`), { code: 'EISDIR' });
    return n.content;
  }
  stat(path: string): LayoutStat | null {
    try {
      const n = this.get(path);
      return { isFile: () => n.type === 'file', isDirectory: () => n.type === 'dir' };
    } catch {
      return null;
    }
  }
  realpath(path: string): string {
    this.get(resolve(path));
    return resolve(path);
  }
  readdir(path: string): string[] {
    const n = this.get(path, true);
    if (n.type !== 'dir') throw Object.assign(new Error(`ENOTDIR: '${path}'`), { code: 'ENOTDIR' });
    const prefix = path === '/' ? '/' : path + '/';
    return [...this.nodes.keys()].filter((k) => k.startsWith(prefix) && !k.slice(prefix.length).includes('/') && k !== path).map((k) => k.slice(prefix.length));
  }
}

/** The standard scenario of docs/conventions.md, in memory. */
function standardScenario(): FakeFs {
  const fs = new FakeFs();
  const common = '/home/dev/repo/.git';
  fs.file(`${common}/HEAD`, 'ref: refs/heads/main\n').dir(`${common}/objects`).dir(`${common}/refs`);
  fs.file(`${common}/config`, '[core]\n\trepositoryformatversion = 0\n\tbare = false\n');
  for (const [name, root] of [
    ['b1', '/home/dev/repo/.builders/b1'],
    ['b2', '/home/dev/repo/.builders/b2'],
    ['w3', '/home/dev/repo/.claude/worktrees/w3'],
  ] as const) {
    const admin = `${common}/worktrees/${name}`;
    fs.file(`${admin}/HEAD`, 'ref: refs/heads/x\n').file(`${admin}/commondir`, '../..\n').file(`${admin}/gitdir`, `${root}/.git\n`);
    fs.file(`${root}/.git`, `gitdir: ${admin}\n`).file(`${root}/src/app.sh`, '');
  }
  fs.dir('/home/dev/other');
  return fs;
}

describe('injected LayoutFs', () => {
  it('discovers the standard scenario in a handful of calls', () => {
    const fs = standardScenario();
    const res = discoverLayout('/home/dev/repo/.builders/b1', fs);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.layout.current).toEqual({
      kind: 'linked-worktree',
      root: '/home/dev/repo/.builders/b1',
      gitDir: '/home/dev/repo/.git/worktrees/b1',
      commonDir: '/home/dev/repo/.git',
      name: 'b1',
    });
    expect(res.layout.main).toEqual({
      kind: 'main',
      root: '/home/dev/repo',
      gitDir: '/home/dev/repo/.git',
      commonDir: '/home/dev/repo/.git',
      name: null,
    });
    expect(res.layout.siblings.map((s) => s.root)).toEqual([
      '/home/dev/repo/.builders/b2',
      '/home/dev/repo/.claude/worktrees/w3',
    ]);
    expect(fs.calls).toBeLessThanOrEqual(20);
  });

  it('not-a-checkout with a message, and no throw when everything fails', () => {
    const fs = standardScenario();
    expect(discoverLayout('/home/dev/other', fs)).toEqual({
      ok: false,
      reason: 'not-a-checkout',
      message: 'no git checkout at or above /home/dev/other',
    });
    const hostile: LayoutFs = {
      readFile: () => {
        throw 'boom';
      },
      stat: () => {
        throw new Error('boom');
      },
      realpath: () => {
        throw new Error('boom');
      },
      readdir: () => {
        throw new Error('boom');
      },
    };
    expect(discoverLayout('/x/y', hostile)).toMatchObject({ ok: false, reason: 'not-a-checkout' });
  });

  it('unreadable when the .git file cannot be read', () => {
    const fs = standardScenario();
    fs.denied.add('/home/dev/repo/.builders/b2/.git');
    const res = discoverLayout('/home/dev/repo/.builders/b2/src', fs);
    expect(res).toMatchObject({ ok: false, reason: 'unreadable' });
    if (!res.ok) expect(res.message).toContain('EACCES');
  });

  it('unreadable when commondir exists but cannot be read; siblings without gitdir are skipped', () => {
    const fs = standardScenario();
    fs.denied.add('/home/dev/repo/.git/worktrees/b1/commondir');
    expect(discoverLayout('/home/dev/repo/.builders/b1', fs)).toMatchObject({ ok: false, reason: 'unreadable' });

    const fs2 = standardScenario();
    fs2.denied.add('/home/dev/repo/.git/worktrees/w3/gitdir');
    fs2.file('/home/dev/repo/.git/worktrees/stray-file', '');
    const res = discoverLayout('/home/dev/repo', fs2);
    expect(res.ok && res.layout.siblings.map((s) => s.name)).toEqual(['b1', 'b2']);
  });

  it('resolves relative gitdir paths and honours config.worktree with extensions.worktreeConfig', () => {
    const fs = standardScenario();
    // worktree.useRelativePaths style entries are relative to the admin dir / the .git file's dir.
    fs.file('/home/dev/repo/.git/worktrees/b2/gitdir', '../../../.builders/b2/.git\n');
    fs.file('/home/dev/repo/.builders/b1/.git', 'gitdir: ../../.git/worktrees/b1\n');
    fs.file('/home/dev/repo/.git/config', '[core]\n\tbare = false\n[extensions]\n\tworktreeConfig = true\n');
    fs.file('/home/dev/repo/.git/config.worktree', '[core]\n\tworktree = /home/dev/checkout\n');
    fs.dir('/home/dev/checkout');
    const res = discoverLayout('/home/dev/repo/.builders/b1/src', fs);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.layout.current.gitDir).toBe('/home/dev/repo/.git/worktrees/b1');
    expect(res.layout.main?.root).toBe('/home/dev/checkout');
    expect(res.layout.siblings.map((s) => s.root)).toContain('/home/dev/repo/.builders/b2');
  });
});
