/**
 * `.bashguard.json` validation (src/policy/config.ts): every invalid file gives one line naming
 * the file and the field; valid files load; BASHGUARD_CONFIG must exist when set.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_CONFIG, loadConfig, parseConfig } from '../src/policy/config.js';

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
    expect(parseConfig('{}', FILE, '/proj')).toEqual({ ...DEFAULT_CONFIG, source: FILE });
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
    ['{"unanalyzable": "allow"}', /unanalyzable: must be "ask" or "deny"/],
    ['{"enforceInPlainCheckout": "yes"}', /enforceInPlainCheckout: must be true or false/],
    ['{"ignore": [1]}', /ignore: must be an array of glob strings/],
  ])('%s -> one line naming the file and the field', (text, re) => {
    const m = err(text);
    expect(m).toMatch(re);
    expect(m.startsWith(`${FILE}: `)).toBe(true);
    expect(m).not.toContain('\n');
  });
});

describe('loadConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bg-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('no .bashguard.json under the root: defaults', () => {
    expect(loadConfig(dir, {})).toBe(DEFAULT_CONFIG);
    expect(loadConfig(null, {})).toBe(DEFAULT_CONFIG);
  });

  it('reads <root>/.bashguard.json, resolving relative roots against the root', () => {
    writeFileSync(join(dir, '.bashguard.json'), '{"writeRoots": ["out"]}');
    const c = loadConfig(dir, {});
    expect(c.writeRoots).toEqual([join(dir, 'out')]);
    expect(c.source).toBe(join(dir, '.bashguard.json'));
    rmSync(join(dir, '.bashguard.json'));
  });

  it('an invalid file names the file and the field', () => {
    writeFileSync(join(dir, '.bashguard.json'), '{"unanalyzable": "allow"}');
    expect(() => loadConfig(dir, {})).toThrow(new RegExp(`^${join(dir, '.bashguard.json').replace(/[.]/g, '\\.')}: unanalyzable:`));
    rmSync(join(dir, '.bashguard.json'));
  });

  it('BASHGUARD_CONFIG wins over the root file, and a missing one is an error naming it', () => {
    const explicit = join(dir, 'explicit.json');
    writeFileSync(explicit, '{"unanalyzable": "deny"}');
    writeFileSync(join(dir, '.bashguard.json'), '{"unanalyzable": "ask"}');
    expect(loadConfig(dir, { BASHGUARD_CONFIG: explicit }).unanalyzable).toBe('deny');
    const missing = join(dir, 'nope.json');
    expect(() => loadConfig(dir, { BASHGUARD_CONFIG: missing })).toThrow(ConfigError);
    expect(() => loadConfig(dir, { BASHGUARD_CONFIG: missing })).toThrow(`${missing}: cannot read (ENOENT)`);
    rmSync(join(dir, '.bashguard.json'));
  });
});
