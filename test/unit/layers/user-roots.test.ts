import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { userWriteHints } from '../../../src/layers/sandbox/user-roots.js';

describe('userWriteHints: what doctor names beside the write roots', () => {
  const home = mkdtempSync(join(tmpdir(), 'bashguard-hints-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it("names a user bin dir on PATH and npm's global prefix in HOME, unless a write root covers them; and the caches that do not exist", () => {
    writeFileSync(join(home, '.npmrc'), 'fund=false\nprefix=~/.npm-global\n');
    mkdirSync(join(home, '.npm'));
    const env = { HOME: home, PATH: `${home}/.local/bin:/usr/bin` };
    const hints = userWriteHints(env, []);
    expect(hints[0]).toContain(`${home}/.local (pip --user, pipx; on PATH)`);
    expect(hints[0]).toContain(`${home}/.npm-global (npm's global prefix`);
    expect(hints[0]).not.toContain('.cargo/bin');
    expect(hints[1]).toContain(`${home}/.cache`);
    expect(hints[1]).not.toContain(`${home}/.npm,`);
    const covered = userWriteHints(env, [`${home}/.local`, `${home}/.npm-global`]);
    expect(covered.join('\n')).not.toContain('on PATH');
    expect(covered.join('\n')).not.toContain('global prefix');
    expect(userWriteHints({ PATH: '/usr/bin' }, [])).toEqual([]);
  });

  it("names pyenv's shims on PATH, wherever PYENV_ROOT is, unless a write root covers them", () => {
    const env = { HOME: home, PATH: '/opt/py/.pyenv/shims:/usr/bin' };
    expect(userWriteHints(env, []).join('\n')).toContain('/opt/py/.pyenv/shims (pyenv rehash after pip install; on PATH)');
    expect(userWriteHints(env, ['/opt/py/.pyenv']).join('\n')).not.toContain('pyenv');
    expect(userWriteHints({ HOME: home, PATH: '/opt/pyenv-shims:/usr/bin' }, []).join('\n')).not.toContain('pyenv');
  });
});
