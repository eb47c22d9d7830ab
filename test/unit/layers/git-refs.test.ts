/**
 * The shared git dir as a tmpfs with its entries bound back (src/layers/sandbox/git-refs.ts
 * `volatileGrants`): what is bound back, with which access, what is reserved inside the call, and
 * where the plan is left as it was.
 */
import { describe, expect, it } from 'vitest';
import { volatileGrants } from '../../../src/layers/sandbox/git-refs.js';

const DIR = { path: '/r/.git', access: 'ro' as const, why: 'the shared git dir' };
const rwInside = (p: string) => (p === '/r/.git/objects' ? 'rw' : 'ro');

describe('volatileGrants', () => {
  it('binds every entry back with the access the plan gives it, and reserves a missing packed-refs and modules', () => {
    const v = volatileGrants(DIR, [
      { name: 'HEAD', kind: 'f' },
      { name: 'objects', kind: 'd' },
      { name: 'refs', kind: 'd' },
    ], rwInside);
    expect(v?.dir).toMatchObject({ path: '/r/.git', access: 'ro', volatile: true });
    expect(v?.back.map((b) => [b.path, b.access, b.back])).toEqual([
      ['/r/.git/HEAD', 'ro', true],
      ['/r/.git/objects', 'rw', true],
      ['/r/.git/refs', 'ro', true],
      ['/r/.git/modules', 'ro', 'empty-dir'],
      ['/r/.git/packed-refs', 'ro', 'empty'],
    ]);
  });

  it('binds an existing packed-refs and modules back read-only, reserving nothing', () => {
    const v = volatileGrants(DIR, [{ name: 'modules', kind: 'd' }, { name: 'packed-refs', kind: 'f' }], rwInside);
    expect(v?.back.map((b) => [b.path, b.back])).toEqual([['/r/.git/modules', true], ['/r/.git/packed-refs', true]]);
  });

  it("leaves a lock file of a git at work outside unbound (the call takes its own, which it cannot commit)", () => {
    const v = volatileGrants(DIR, [{ name: 'packed-refs', kind: 'f' }, { name: 'packed-refs.lock', kind: 'f' }, { name: 'x.lock', kind: 'd' }], rwInside);
    expect(v?.back.map((b) => b.path)).toEqual(['/r/.git/packed-refs', '/r/.git/x.lock', '/r/.git/modules']);
  });

  it('is null (the plan as it was) where an entry cannot be bound back as it is, the listing failed, or the dir is writable', () => {
    expect(volatileGrants(DIR, [{ name: 'hooks', kind: 'l' }], rwInside)).toBeNull();
    expect(volatileGrants(DIR, [{ name: 'a\nb', kind: 'f' }], rwInside)).toBeNull();
    expect(volatileGrants(DIR, null, rwInside)).toBeNull();
    expect(volatileGrants({ ...DIR, access: 'rw' }, [], rwInside)).toBeNull();
  });
});
