// Where the hook's start finds its code cache (src/runtime/startup/cache-dir.ts cacheLocation, and
// cacheFilePath in src/runtime/startup/cache-name.ts, which the start entry's common case runs in every
// hook process): they skip the normalisation where there is nothing to normalise, and must give
// exactly what normalising always gives, and what the cache's writer uses.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { resolve } from 'node:path';
import { cacheDir, cacheLocation } from '../../../src/runtime/startup/cache-dir.js';
import { cacheFileName, cacheFilePath } from '../../../src/runtime/startup/cache-name.js';

const part = fc.oneof(fc.stringMatching(/^[A-Za-z0-9._-]{1,6}$/), fc.constantFrom('.', '..', '', '.cache', '..x'));
/** Absolute, relative and empty values, with every kind of part normalising touches. */
const value = fc.oneof(
  fc.array(part, { maxLength: 6 }).map((p) => '/' + p.join('/')),
  fc.array(part, { minLength: 1, maxLength: 4 }).map((p) => p.join('/')),
  fc.constantFrom('', '/', '//', '/./', '/root/', '/root//x', '/a/../b'),
);
const env = fc.record({ XDG_CACHE_HOME: fc.option(value, { nil: undefined }), HOME: fc.option(value, { nil: undefined }) }, { requiredKeys: [] });

/** The definition: $XDG_CACHE_HOME/bashguard when absolute, else $HOME/.cache/bashguard, normalised. */
function reference(e: Record<string, string | undefined>): string | null {
  if (e.XDG_CACHE_HOME?.startsWith('/')) return resolve('/', e.XDG_CACHE_HOME + '/bashguard');
  if (e.HOME?.startsWith('/')) return resolve('/', e.HOME + '/.cache/bashguard');
  return null;
}

describe('the code cache location', () => {
  it('cacheLocation is the normalised $XDG_CACHE_HOME/bashguard or $HOME/.cache/bashguard', () => {
    fc.assert(
      fc.property(env, (e) => {
        expect(cacheLocation(e)).toBe(reference(e));
      }),
      { numRuns: 5000 },
    );
  });

  it('cacheFilePath is cacheDir plus cacheFileName, for any environment and node flags', () => {
    const flags = fc.array(fc.constantFrom('--preserve-symlinks-main', '--no-sparkplug', '--max-old-space-size=100'), { maxLength: 3 });
    const extra = fc.record({ BASHGUARD_CODE_CACHE: fc.constantFrom(undefined, '0', 'off', '1'), NODE_OPTIONS: fc.constantFrom(undefined, '', '--stack-size=2000') });
    fc.assert(
      fc.property(env, extra, flags, fc.stringMatching(/^[0-9a-f]{8}(-lean)?$/), (e, x, argv, key) => {
        const all = { ...e, ...x };
        const dir = cacheDir(all);
        expect(cacheFilePath(key, all, argv)).toBe(dir === null ? null : `${dir}/${cacheFileName(key, argv, x.NODE_OPTIONS ?? '')}`);
      }),
      { numRuns: 3000 },
    );
  });
});
