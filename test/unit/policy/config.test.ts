/**
 * `.bashguard.json` validation (src/policy/config.ts): every invalid file gives one line naming
 * the file and the field; valid files load; BASHGUARD_CONFIG must exist when set.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_CONFIG, parseConfig } from '../../../src/policy/config.js';
import { loadTrustedConfig } from '../../../src/policy/workspace/config.js';
import { layoutBase } from '../../helpers/git-layout.js';

const FILE = '/proj/.bashguard.json';
const err = (text: string): string => {
  try {
    parseConfig(text, FILE, '/proj');
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error(`accepted: ${text}`);
};

describe('parseConfig', () => {
  it('accepts a full valid config and resolves relative write roots against the base', () => {
    const c = parseConfig(
      JSON.stringify({
        $schema: 'x',
        writeRoots: ['/abs/dir', 'rel/dir', '/a/../b'],
        rules: { BG1002: 'warning', BG2001: 'off' },
        decisions: { possible: 'deny', certain: 'ask' },
        unanalyzable: 'deny',
        enforceInPlainCheckout: true,
        ignore: ['vendor/**'],
      }),
      FILE,
      '/proj',
    );
    expect(c.writeRoots).toEqual(['/abs/dir', '/proj/rel/dir', '/b']);
    expect(c.decisions).toEqual({ certain: 'ask', likely: 'deny', possible: 'deny' });
    expect(c.unanalyzable).toBe('deny');
    expect(c.enforceInPlainCheckout).toBe(true);
    expect(c.ignore).toEqual(['vendor/**']);
    expect(c.source).toBe(FILE);
    expect(c.rules).toEqual({ BG1002: 'warning', BG2001: 'off' });
  });

  it('an empty object is the defaults (with its source)', () => {
    expect(parseConfig('{}', FILE, '/proj')).toEqual({ ...DEFAULT_CONFIG, source: FILE, sources: [FILE] });
  });

  it.each([
    ['{', /invalid JSON/],
    ['[]', /top level must be a JSON object/],
    ['null', /top level must be a JSON object/],
    ['{"writeroots": []}', /writeroots: unknown field \(known: writeRoots,/],
    ['{"writeRoots": "/tmp"}', /writeRoots: must be an array of non-empty path strings/],
    ['{"writeRoots": [""]}', /writeRoots: must be an array/],
    ['{"writeRoots": [1]}', /writeRoots: must be an array/],
    ['{"rules": []}', /rules: must be an object/],
    ['{"rules": {"BG9999": "error"}}', /rules\.BG9999: unknown rule/],
    ['{"rules": {"BG1002": "fatal"}}', /rules\.BG1002: must be one of error, warning, info, off/],
    ['{"decisions": {"sure": "deny"}}', /decisions\.sure: unknown confidence/],
    ['{"decisions": {"likely": "block"}}', /decisions\.likely: must be one of allow, ask, deny/],
    ['{"decisions": 1}', /decisions: must be an object/],
    ['{"unanalyzable": "allow"}', /unanalyzable: must be "ask", "deny" or "sandbox"/],
    ['{"enforceInPlainCheckout": "yes"}', /enforceInPlainCheckout: must be true or false/],
    ['{"ignore": [1]}', /ignore: must be an array of glob strings/],
  ])('%s -> one line naming the file and the field', (text, re) => {
    const m = err(text);
    expect(m).toMatch(re);
    expect(m.startsWith(`${FILE}: `)).toBe(true);
    expect(m).not.toContain('\n');
  });
});

describe('parseConfig paths', () => {
  it('expands ~, ~/x, $HOME/x and ${HOME}/x in writeRoots and protect against HOME', () => {
    const c = parseConfig(JSON.stringify({ writeRoots: ['~', '~/bin', '$HOME/.local', '${HOME}/x'], protect: ['~/.ssh'] }), FILE, '/proj', '/home/u');
    expect(c.writeRoots).toEqual(['/home/u', '/home/u/bin', '/home/u/.local', '/home/u/x']);
    expect(c.protect).toEqual(['/home/u/.ssh']);
  });
  it('~ without HOME, and ~user, are one-line errors', () => {
    expect(() => parseConfig('{"writeRoots": ["~/bin"]}', FILE, '/proj')).toThrow(`${FILE}: writeRoots: ~/bin needs HOME, which is not set`);
    expect(() => parseConfig('{"writeRoots": ["~bob/bin"]}', FILE, '/proj', '/home/u')).toThrow(/only ~ and ~\/ are expanded/);
  });
});

describe('loadTrustedConfig: layers and the tighten-only worktree file', () => {
  // Not under /tmp: a file the environment names there is one the agent can write (ignored; below).
  const dir = realpathSync(mkdtempSync(join(layoutBase(), 'bg-config-')));
  const project = join(dir, 'repo');
  const worktree = join(project, '.builders', 'b1');
  const xdg = join(dir, 'xdg');
  mkdirSync(worktree, { recursive: true });
  mkdirSync(join(xdg, 'bashguard'), { recursive: true });
  const env = { XDG_CONFIG_HOME: xdg, HOME: dir };
  const write = (file: string, obj: unknown) => writeFileSync(file, typeof obj === 'string' ? obj : JSON.stringify(obj));
  const clean = () => {
    for (const f of [join(project, '.bashguard.json'), join(worktree, '.bashguard.json'), join(xdg, 'bashguard', 'config.json')]) rmSync(f, { force: true });
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('no file anywhere: the defaults, no sources', () => {
    clean();
    const { config, notices } = loadTrustedConfig({ env, projectRoot: project, worktreeRoot: worktree });
    expect(config).toEqual(DEFAULT_CONFIG);
    expect(notices).toEqual([]);
  });

  it('user file, then the main checkout file: later fields win, lists add up, relative paths are against the file', () => {
    clean();
    write(join(xdg, 'bashguard', 'config.json'), { writeRoots: ['~/cache'], unanalyzable: 'deny', rules: { BG3003: 'warning' } });
    write(join(project, '.bashguard.json'), { writeRoots: ['../shared-build'], rules: { BG3003: 'off' } });
    const { config } = loadTrustedConfig({ env, projectRoot: project, worktreeRoot: worktree });
    expect(config.writeRoots).toEqual([join(dir, 'cache'), join(dir, 'shared-build')]);
    expect(config.unanalyzable).toBe('deny');
    expect(config.rules.BG3003).toBe('off');
    expect(config.sources).toEqual([join(xdg, 'bashguard', 'config.json'), join(project, '.bashguard.json')]);
  });

  it('BASHGUARD_CONFIG replaces the main checkout file, and must exist', () => {
    clean();
    const explicit = join(dir, 'orchestrator.json');
    write(explicit, { unanalyzable: 'deny' });
    write(join(project, '.bashguard.json'), { unanalyzable: 'ask', writeRoots: ['/srv'] });
    const { config } = loadTrustedConfig({ env: { ...env, BASHGUARD_CONFIG: explicit }, projectRoot: project, worktreeRoot: worktree });
    expect(config.unanalyzable).toBe('deny');
    expect(config.writeRoots).toEqual([]);
    const missing = join(dir, 'nope.json');
    expect(() => loadTrustedConfig({ env: { ...env, BASHGUARD_CONFIG: missing }, projectRoot: project, worktreeRoot: worktree })).toThrow(`${missing}: cannot read (ENOENT)`);
  });

  it('the worktree file cannot loosen anything: each attempt is ignored and reported', () => {
    clean();
    write(join(worktree, '.bashguard.json'), {
      writeRoots: ['/'],
      rules: { BG1002: 'off', BG2001: 'warning' },
      decisions: { certain: 'allow', likely: 'ask' },
      ignore: ['**'],
    });
    const { config, notices } = loadTrustedConfig({ env, projectRoot: project, worktreeRoot: worktree });
    expect(config.writeRoots).toEqual([]);
    expect(config.rules).toEqual({});
    expect(config.decisions).toEqual(DEFAULT_CONFIG.decisions);
    expect(config.ignore).toEqual([]);
    expect(notices).toHaveLength(6);
    for (const n of notices) expect(n).toMatch(/may only tighten/);
  });

  it('the worktree file can tighten: stricter decisions, unanalyzable deny, higher severity, protect', () => {
    clean();
    write(join(project, '.bashguard.json'), { rules: { BG3003: 'warning' }, decisions: { possible: 'ask' } });
    write(join(worktree, '.bashguard.json'), { rules: { BG3003: 'error' }, decisions: { possible: 'deny' }, unanalyzable: 'deny', protect: ['secrets'] });
    const { config, notices } = loadTrustedConfig({ env, projectRoot: project, worktreeRoot: worktree });
    expect(notices).toEqual([]);
    expect(config.rules.BG3003).toBe('error');
    expect(config.decisions.possible).toBe('deny');
    expect(config.unanalyzable).toBe('deny');
    expect(config.protect).toEqual([join(worktree, 'secrets')]);
  });

  it('a worktree file cannot lower a severity the trusted file set', () => {
    clean();
    write(join(project, '.bashguard.json'), { rules: { BG3003: 'warning' } });
    write(join(worktree, '.bashguard.json'), { rules: { BG3003: 'info' } });
    const { config, notices } = loadTrustedConfig({ env, projectRoot: project, worktreeRoot: worktree });
    expect(config.rules.BG3003).toBe('warning');
    expect(notices[0]).toContain('rules.BG3003: info ignored');
  });

  it('an invalid file names the file and the field; a dangling symlink is an error, not ignored', () => {
    clean();
    write(join(project, '.bashguard.json'), '{"unanalyzable": "allow"}');
    expect(() => loadTrustedConfig({ env, projectRoot: project, worktreeRoot: worktree })).toThrow(new RegExp(`^${join(project, '.bashguard.json').replace(/[.]/g, '\\.')}: unanalyzable:`));
    clean();
    symlinkSync(join(dir, 'gone.json'), join(worktree, '.bashguard.json'));
    expect(() => loadTrustedConfig({ env, projectRoot: project, worktreeRoot: worktree })).toThrow(`${join(worktree, '.bashguard.json')}: a symlink to a file that does not exist`);
    rmSync(join(worktree, '.bashguard.json'));
  });

  it('a config path that is a directory, or under a file, is an error; none at all is no layer', () => {
    clean();
    mkdirSync(join(worktree, '.bashguard.json'));
    expect(() => loadTrustedConfig({ env, projectRoot: project, worktreeRoot: worktree })).toThrow(`${join(worktree, '.bashguard.json')}: is a directory, not a JSON file`);
    rmSync(join(worktree, '.bashguard.json'), { recursive: true });
    const file = join(dir, 'plain-file');
    write(file, 'x');
    expect(() => loadTrustedConfig({ env: { ...env, BASHGUARD_CONFIG: join(file, 'config.json') }, projectRoot: project, worktreeRoot: worktree })).toThrow(`${join(file, 'config.json')}: cannot read (ENOTDIR)`);
    expect(loadTrustedConfig({ env, projectRoot: project, worktreeRoot: worktree }).config.sources).toEqual(DEFAULT_CONFIG.sources);
  });
});

describe('a config file the environment names is trusted only where the agent cannot write it', () => {
  const dir = realpathSync(mkdtempSync(join(layoutBase(), 'bg-config-trust-')));
  const project = join(dir, 'repo');
  const worktree = join(project, '.builders', 'b1');
  const scratch = join(dir, 'scratch');
  mkdirSync(worktree, { recursive: true });
  mkdirSync(join(scratch, 'xdg', 'bashguard'), { recursive: true });
  mkdirSync(join(dir, 'safe'), { recursive: true });
  const loose = JSON.stringify({ rules: { BG1002: 'off' }, writeRoots: ['/'] });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const load = (env: Record<string, string>) => loadTrustedConfig({ env: { HOME: join(dir, 'home'), TMPDIR: scratch, ...env }, projectRoot: project, worktreeRoot: worktree });

  it('BASHGUARD_CONFIG in the worktree, in a scratch dir, or reached through a symlink into one: ignored, with a notice; outside them: used', () => {
    for (const file of [join(worktree, 'cfg.json'), join(scratch, 'cfg.json')]) {
      writeFileSync(file, loose);
      const r = load({ BASHGUARD_CONFIG: file });
      expect(r.config.rules.BG1002).toBeUndefined();
      expect(r.config.writeRoots).toEqual([]);
      expect(r.ignored).toHaveLength(1);
      expect(r.notices[0]).toContain(`BASHGUARD_CONFIG=${file} ignored`);
    }
    // A name outside every write root whose directory is a symlink into one.
    symlinkSync(scratch, join(dir, 'via-link'));
    const r = load({ BASHGUARD_CONFIG: join(dir, 'via-link', 'cfg.json') });
    expect(r.config.rules.BG1002).toBeUndefined();
    expect(r.ignored).toHaveLength(1);
    const safe = join(dir, 'safe', 'cfg.json');
    writeFileSync(safe, loose);
    const ok = load({ BASHGUARD_CONFIG: safe });
    expect(ok.config.rules.BG1002).toBe('off');
    expect(ok.ignored).toBeUndefined();
  });

  it('an ignored BASHGUARD_CONFIG falls back to the main checkout file; an ignored XDG_CONFIG_HOME to ~/.config', () => {
    writeFileSync(join(project, '.bashguard.json'), JSON.stringify({ unanalyzable: 'deny' }));
    const r = load({ BASHGUARD_CONFIG: join(worktree, 'cfg.json') });
    expect(r.config.unanalyzable).toBe('deny');
    writeFileSync(join(scratch, 'xdg', 'bashguard', 'config.json'), loose);
    const x = load({ XDG_CONFIG_HOME: join(scratch, 'xdg') });
    expect(x.config.rules.BG1002).toBeUndefined();
    expect(x.notices[0]).toContain('XDG_CONFIG_HOME=');
    // XDG_CONFIG_HOME=$HOME/.config is the default place, trusted wherever HOME is.
    const home = join(scratch, 'home');
    mkdirSync(join(home, '.config', 'bashguard'), { recursive: true });
    writeFileSync(join(home, '.config', 'bashguard', 'config.json'), loose);
    const d = loadTrustedConfig({ env: { HOME: home, TMPDIR: scratch, XDG_CONFIG_HOME: join(home, '.config') }, projectRoot: project, worktreeRoot: worktree });
    expect(d.config.rules.BG1002).toBe('off');
    expect(d.ignored).toBeUndefined();
    rmSync(join(project, '.bashguard.json'));
  });

});
