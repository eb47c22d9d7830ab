/**
 * src/runtime/startup/small-cache.ts: facts kept between hook calls in the private cache directory,
 * read back only from a file of the user's that nobody else can write.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { smallCache } from '../../../src/runtime/startup/small-cache.js';

describe('smallCache', () => {
  const home = mkdtempSync(join(tmpdir(), 'bashguard-small-cache-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const env = { HOME: home };

  it('keeps a fact whole, by name, and nothing when the cache is off', () => {
    const c = smallCache(env)!;
    expect(c.read('a')).toBeNull();
    c.write('a', 'one');
    c.write('b/../x', 'two');
    expect(c.read('a')).toBe('one');
    expect(c.read('b/../x')).toBe('two');
    const dir = join(home, '.cache', 'bashguard');
    expect(readdirSync(dir).filter((n) => n.startsWith('.tmp-'))).toEqual([]);
    expect(smallCache({ ...env, BASHGUARD_CODE_CACHE: '0' })).toBeNull();
  });

  it('does not read a file others can write, or one in a directory that is not private', () => {
    const c = smallCache(env)!;
    c.write('w', 'x');
    const dir = join(home, '.cache', 'bashguard');
    const file = readdirSync(dir).find((n) => n.includes('-w.'))!;
    chmodSync(join(dir, file), 0o666);
    expect(c.read('w')).toBeNull();
    chmodSync(join(dir, file), 0o600);
    expect(c.read('w')).toBe('x');
    chmodSync(dir, 0o755);
    expect(c.read('w')).toBeNull();
    chmodSync(dir, 0o700);
    writeFileSync(join(dir, file), 'y', { mode: 0o600 });
    expect(c.read('w')).toBe('y');
  });
});
