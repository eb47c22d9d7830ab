// src/util/under.ts: the hook's string-only path helpers must agree with node:path on the inputs
// they are used for (normalized absolute POSIX paths, clean relative names).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { basename, dirname, join, resolve } from 'node:path';
import { baseOf, parentOf, resolveFrom, resolvePath, under } from '../../../src/util/under.js';

const name = fc.stringMatching(/^[A-Za-z0-9._-]{1,8}$/).filter((s) => s !== '.' && s !== '..');
const absolute = fc.array(name, { maxLength: 6 }).map((parts) => '/' + parts.join('/'));
const relative = fc.array(fc.oneof(name, fc.constantFrom('.', '..', '')), { maxLength: 8 }).map((parts) => parts.join('/'));

describe('string path helpers', () => {
  it('under, parentOf and baseOf agree with join, dirname and basename', () => {
    fc.assert(
      fc.property(absolute, fc.array(name, { minLength: 1, maxLength: 3 }), (dir, parts) => {
        expect(under(dir, ...parts)).toBe(join(dir, ...parts));
        expect(parentOf(dir)).toBe(dirname(dir));
        expect(baseOf(dir)).toBe(basename(dir));
      }),
      { numRuns: 3000 },
    );
  });
  it('resolveFrom agrees with resolve for an absolute base', () => {
    fc.assert(
      fc.property(absolute, fc.oneof(relative, absolute, relative.map((r) => '/' + r)), (base, p) => {
        expect(resolveFrom(base, p)).toBe(resolve(base, p));
      }),
      { numRuns: 3000 },
    );
  });
  it('resolvePath agrees with resolve for any mix of absolute, relative and empty parts', () => {
    const part = fc.oneof(relative, absolute, relative.map((r) => '/' + r), fc.constant(''), relative.map((r) => r + '/'));
    fc.assert(
      fc.property(fc.array(part, { maxLength: 4 }), (parts) => {
        expect(resolvePath(...parts)).toBe(resolve(...parts));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('normalizeLogical', () => {
  it('returns an already normal path unchanged and normalizes the rest like path.normalize (no HOLE)', async () => {
    const { normalizeLogical } = await import('../../../src/engine/shell/paths.js');
    const { normalize } = await import('node:path');
    const any = fc.array(fc.oneof(name, fc.constantFrom('.', '..', '')), { maxLength: 8 }).map((parts) => '/' + parts.join('/'));
    fc.assert(
      fc.property(any, (p) => {
        const n = normalize(p);
        expect(normalizeLogical(p)).toBe(n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n);
      }),
      { numRuns: 5000 },
    );
  });
});
