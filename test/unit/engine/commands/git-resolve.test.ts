/**
 * `git X` for a name git.ts does not classify, resolved as git does from the machine's facts
 * (src/engine/commands/git-resolve.ts): an external git-X, an alias, or "not a git command",
 * unless help.autocorrect runs a guess; whatever cannot be known stays unknown (possible).
 */
import { describe, expect, it } from 'vitest';
import { analyzeWith } from '../../../../src/engine/analyze.js';
import type { Host } from '../../../../src/engine/interpret/interpreter.js';
import type { Effect, GitEffect, WriteEffect } from '../../../../src/engine/effects/types.js';
import { parseConfig } from '../../../../src/engine/commands/git-resolve.js';
import { getParser } from '../../../helpers/scenario.js';

const parser = await getParser();

const REPO = '/home/u/repo';
const WT = '/home/u/repo/.wt/a';

/** A machine: these files and directories exist, nothing else does. */
function machine(files: Record<string, string>, dirs: string[] = []): Host {
  const allDirs = new Set<string>(['/', ...dirs]);
  for (const p of [...Object.keys(files), ...dirs]) {
    for (let d = p.slice(0, p.lastIndexOf('/')); d !== ''; d = d.slice(0, d.lastIndexOf('/'))) allDirs.add(d);
  }
  return {
    realpath: (p) => p,
    readFile: (p) => files[p] ?? null,
    stat: (p) => (files[p] !== undefined ? 'file' : allDirs.has(p) ? 'directory' : 'missing'),
  };
}

/** A main checkout with a linked worktree, git in /usr/bin with its exec path /usr/lib/git-core. */
function base(extra: Record<string, string> = {}, dirs: string[] = []): Host {
  return machine(
    {
      '/usr/bin/git': '',
      '/usr/lib/git-core/git-add': '',
      [`${REPO}/.git/HEAD`]: 'ref: refs/heads/main\n',
      [`${REPO}/.git/config`]: '[core]\n\tbare = false\n',
      [`${WT}/.git`]: `gitdir: ${REPO}/.git/worktrees/a\n`,
      [`${REPO}/.git/worktrees/a/commondir`]: '../..\n',
      ...extra,
    },
    [`${REPO}/src`, `${WT}/src`, ...dirs],
  );
}

const ENV = { HOME: '/home/u', PATH: '/usr/local/bin:/usr/bin:/bin' };

function run(cmd: string, host: Host | undefined, opts: { cwd?: string; env?: Record<string, string> } = {}): Effect[] {
  return analyzeWith(parser, cmd, { cwd: opts.cwd ?? WT, env: opts.env ?? ENV, host, gitToplevel: (d) => (d.startsWith(WT) ? WT : d.startsWith(REPO) ? REPO : null) }).effects;
}

const gits = (effects: Effect[]) => effects.filter((e): e is GitEffect => e.kind === 'git');
const writes = (effects: Effect[]) => effects.filter((e): e is WriteEffect => e.kind === 'write');
const lastGit = (effects: Effect[]) => gits(effects).at(-1)!;
const notes = (e: GitEffect) => e.evidence.map((x) => x.note).join(' | ');

describe('git X: not a git command', () => {
  it('nothing installed, no alias, no autocorrect: git fails and writes nothing (read)', () => {
    const g = lastGit(run('git fame', base()));
    expect(g.access).toBe('read');
    expect(notes(g)).toContain("is not a git command");
  });

  it('a builtin name is never an alias (git runs the builtin first)', () => {
    const g = lastGit(run('git status', base({ '/home/u/.gitconfig': '[alias]\n\tstatus = !rm -rf /\n' })));
    expect(g.access).toBe('read');
    expect(writes(run('git status', base({ '/home/u/.gitconfig': '[alias]\n\tstatus = !rm -rf /\n' })))).toEqual([]);
  });
});

describe('git X: an external git command', () => {
  it('git-X on PATH', () => {
    const g = lastGit(run('git fame', base({ '/usr/local/bin/git-fame': '' })));
    expect(g.access).toBe('unknown');
    expect(notes(g)).toContain('/usr/local/bin/git-fame');
  });

  it("git-X in git's exec path, found beside the git on PATH", () => {
    expect(lastGit(run('git stats', base({ '/usr/lib/git-core/git-stats': '' }))).access).toBe('unknown');
    expect(lastGit(run('git stats', base({ '/opt/git/libexec/git-core/git-stats': '', '/opt/git/bin/git': '' }), { env: { ...ENV, PATH: '/opt/git/bin' } })).access).toBe('unknown');
  });

  it('GIT_EXEC_PATH from the environment is where git looks', () => {
    expect(lastGit(run('git stats', base({ '/x/core/git-stats': '' }), { env: { ...ENV, GIT_EXEC_PATH: '/x/core' } })).access).toBe('unknown');
    expect(lastGit(run('git stats', base({}, ['/x/core']), { env: { ...ENV, GIT_EXEC_PATH: '/x/core' } })).access).toBe('read');
  });

  it("an external shadows an alias of the same name (git tries git-X before aliases)", () => {
    const g = lastGit(run('git fame', base({ '/usr/bin/git-fame': '', '/home/u/.gitconfig': '[alias]\n\tfame = log\n' })));
    expect(g.access).toBe('unknown');
  });
});

describe('git X: aliases', () => {
  it('a shell alias runs its code from the top-level directory', () => {
    const h = base({ '/home/u/.gitconfig': '[alias]\n\tout = !touch ../../escaped\n\there = "!touch made"\n' });
    expect(writes(run('git out', h, { cwd: `${WT}/src` })).map((w) => w.path)).toEqual([`${WT}/../../escaped`]);
    expect(writes(run('git here', h, { cwd: `${WT}/src` })).map((w) => w.path)).toEqual([`${WT}/made`]);
  });

  it('the arguments follow the alias code', () => {
    const h = base({ '/home/u/.gitconfig': '[alias]\n\tt = !touch\n' });
    expect(writes(run('git t /elsewhere/f', h)).map((w) => w.path)).toEqual(['/elsewhere/f']);
  });

  it('a git alias is a git command line, followed through other aliases', () => {
    const h = base({ '/home/u/.gitconfig': '[alias]\n\tmark = stamp v1\n\tstamp = tag\n\tlast = log -1\n' });
    const g = lastGit(run('git mark', h));
    expect([g.subcommand, g.access]).toEqual(['tag', 'refs']);
    expect(lastGit(run('git last', h)).access).toBe('read');
  });

  it('aliases that loop stay unknown', () => {
    const g = lastGit(run('git a', base({ '/home/u/.gitconfig': '[alias]\n\ta = b\n\tb = a\n' })));
    expect(g.access).toBe('unknown');
    expect(notes(g)).toContain('loop');
  });

  it("the repository's config (through a linked worktree's gitfile and commondir), the worktree's config, includes and XDG config", () => {
    expect(lastGit(run('git x', base({ [`${REPO}/.git/config`]: '[alias]\n\tx = tag v2\n' }))).access).toBe('refs');
    const wtConfig = { [`${REPO}/.git/config`]: '[extensions]\n\tworktreeConfig = true\n', [`${REPO}/.git/worktrees/a/config.worktree`]: '[alias]\n\tx = tag v2\n' };
    expect(lastGit(run('git x', base(wtConfig))).access).toBe('refs');
    const include = { '/home/u/.gitconfig': '[include]\n\tpath = more/aliases\n[includeIf "gitdir:/nowhere/"]\n\tpath = ~/other.inc\n', '/home/u/more/aliases': '[alias]\n\tx = tag v3\n', '/home/u/other.inc': '[alias]\n\ty = tag v4\n' };
    expect(lastGit(run('git x', base(include))).access).toBe('refs');
    expect(lastGit(run('git y', base(include))).access).toBe('refs');
    expect(lastGit(run('git x', base({ '/home/u/.config/git/config': '[alias]\n\tx = tag v5\n' }))).access).toBe('refs');
    expect(lastGit(run('git x', base({ '/etc/gitconfig': '[alias]\n\tx = tag v6\n' }))).access).toBe('refs');
  });

  it('GIT_CONFIG_NOSYSTEM skips the system config only when true', () => {
    const h = base({ '/etc/gitconfig': '[alias]\n\tx = tag v6\n' });
    expect(lastGit(run('git x', h, { env: { ...ENV, GIT_CONFIG_NOSYSTEM: '1' } })).access).toBe('read');
    expect(lastGit(run('git x', h, { env: { ...ENV, GIT_CONFIG_NOSYSTEM: '0' } })).access).toBe('refs');
  });

  it('an include in a path form not followed stays unknown', () => {
    expect(lastGit(run('git x', base({ '/home/u/.gitconfig': '[include]\n\tpath = ~other/aliases\n' }))).access).toBe('unknown');
  });

  it('the last value wins, the command line last of all', () => {
    const h = base({ '/home/u/.gitconfig': '[alias]\n\tx = tag v1\n', [`${REPO}/.git/config`]: '[alias]\n\tx = log\n' });
    expect(lastGit(run('git x', h)).access).toBe('read');
    expect(lastGit(run('git -c alias.x=tag\\ v9 x', h)).access).toBe('refs');
  });

  it("a command line's alias is analyzed even where the machine cannot be asked", () => {
    expect(writes(run("git -c alias.x='!touch /far/f' x", undefined)).map((w) => w.path)).toEqual(['/far/f']);
  });
});

describe('git X: help.autocorrect', () => {
  for (const v of ['immediate', 'prompt', '5', '-1', '1', 'true']) {
    it(`help.autocorrect=${v} may run the closest command: unknown`, () => {
      expect(lastGit(run(`git -c help.autocorrect=${v} stauts`, base())).access).toBe('unknown');
    });
  }
  for (const v of ['0', 'never', 'false', 'show']) {
    it(`help.autocorrect=${v} only shows: read`, () => {
      expect(lastGit(run(`git -c help.autocorrect=${v} stauts`, base())).access).toBe('read');
    });
  }
  it('from a config file too', () => {
    expect(lastGit(run('git stauts', base({ '/home/u/.gitconfig': '[help]\n\tautocorrect = immediate\n' }))).access).toBe('unknown');
  });
});

describe('git X: what cannot be known stays unknown', () => {
  it('without the disk (the library, lint without --read-disk)', () => {
    expect(lastGit(run('git fame', undefined)).access).toBe('unknown');
    const h = base();
    const treeOnly: Host = { realpath: h.realpath, readFile: h.readFile };
    expect(lastGit(run('git fame', treeOnly)).access).toBe('unknown');
  });

  it('without PATH, or with a HOME the host cannot answer about', () => {
    expect(lastGit(run('git fame', base(), { env: { HOME: '/home/u' } })).access).toBe('unknown');
    const h = base();
    const blind: Host = { ...h, stat: (p) => (p.startsWith('/home/u/.') ? null : h.stat!(p)) };
    expect(lastGit(run('git fame', blind)).access).toBe('unknown');
  });

  it('a config file git cannot be followed in', () => {
    expect(lastGit(run('git fame', base({ '/home/u/.gitconfig': '[alias\n\tfame = log\n' }))).access).toBe('unknown');
    expect(lastGit(run('git fame', base({ '/home/u/.gitconfig': '[alias]\n\tfame = "log\n' }))).access).toBe('unknown');
  });

  it('the environment moves the repository or the config (GIT_DIR, GIT_CONFIG_GLOBAL, GIT_CONFIG_PARAMETERS)', () => {
    for (const k of ['GIT_DIR', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_PARAMETERS']) expect(lastGit(run('git fame', base(), { env: { ...ENV, [k]: '/x' } })).access).toBe('unknown');
    expect(lastGit(run('git --git-dir=/x fame', base())).access).toBe('unknown');
  });

  it('what the command did before git runs', () => {
    const h = base();
    expect(lastGit(run('unknown-installer; git fame', h)).access).toBe('unknown');
    expect(lastGit(run('export PATH=/opt/bin:$PATH; git fame', h)).access).toBe('unknown');
    expect(lastGit(run('GIT_EXEC_PATH=/x git fame', h)).access).toBe('unknown');
    expect(lastGit(run('cp tool /usr/local/bin/git-fame; git fame', h)).access).toBe('unknown');
    expect(lastGit(run('echo "[alias] fame = tag" >> ~/.gitconfig; git fame', h)).access).toBe('unknown');
    expect(lastGit(run('git config alias.fame tag; git fame', h)).access).toBe('unknown');
    expect(lastGit(run('eval "$X"; git fame', h)).access).toBe('unknown');
    // A write that cannot reach what git consults changes nothing.
    expect(lastGit(run('echo hi > notes.txt; git status; git fame', h)).access).toBe('read');
  });
});

describe('parseConfig', () => {
  it("reads git's syntax: subsections, quotes, escapes, continuations, comments", () => {
    const text = '# c\n[Alias]\n\tA = "!echo \\"x\\"" ; note\n\tb = one \\\n two\n[remote "Origin"]\n\turl = u\n[core]\n\tbare\n';
    expect(parseConfig(text, 'f').map((e) => [e.key, e.value])).toEqual([
      ['alias.a', '!echo "x"'],
      // (git keeps the blanks on both sides of a continuation: config.c, parse_value)
      ['alias.b', 'one  two'],
      ['remote.Origin.url', 'u'],
      ['core.bare', ''],
    ]);
  });
});
