/**
 * HOME in the regions (src/policy/regions.ts): never a write root, also where it lies in a scratch
 * dir; what lies inside it and is a root of its own (its tool caches, the worktree) stays writable;
 * a HOME that is the scratch dir itself or that the trusted config names stays writable.
 */
import { describe, expect, it } from 'vitest';
import { buildRegions, classify, type RegionInput } from '../../../src/policy/regions.js';

const base: RegionInput = { root: '/work/wt', layout: null, scratch: ['/tmp', '/var/tmp'], writeRoots: [], protect: [] };
const kind = (input: RegionInput, path: string) => classify(path, buildRegions(input)).kind;

describe('HOME in the regions', () => {
  it('a HOME under a scratch dir is outside the write roots; the scratch dir beside it is not', () => {
    const input = { ...base, home: '/tmp/h' };
    expect(kind(input, '/tmp/h/.ssh/authorized_keys')).toBe('outside');
    expect(kind(input, '/tmp/h')).toBe('outside');
    expect(kind(input, '/tmp/other/f')).toBe('scratch');
    expect(kind(input, '/tmp/hx/f')).toBe('scratch');
  });

  it('its tool caches and a worktree inside it keep their own regions', () => {
    const input = { ...base, root: '/tmp/h/proj', home: '/tmp/h', caches: [{ path: '/tmp/h/.npm', why: "npm's cache" }] };
    expect(kind(input, '/tmp/h/.npm/_cacache/x')).toBe('allowed');
    expect(kind(input, '/tmp/h/proj/src/a.ts')).toBe('worktree');
    expect(kind(input, '/tmp/h/.local/bin/x')).toBe('outside');
  });

  it('a HOME that is the scratch dir itself, inside the worktree, or in a configured write root stays as it was', () => {
    expect(kind({ ...base, home: '/tmp' }, '/tmp/.profile')).toBe('scratch');
    expect(kind({ ...base, root: '/tmp/w', home: '/tmp/w/home' }, '/tmp/w/home/x')).toBe('worktree');
    expect(kind({ ...base, home: '/tmp/h', writeRoots: ['/tmp/h'] }, '/tmp/h/.profile')).toBe('allowed');
    expect(kind({ ...base, home: '/tmp/h/u', writeRoots: ['/tmp/h'] }, '/tmp/h/u/.profile')).toBe('allowed');
  });

  it('a HOME outside every scratch dir adds no region', () => {
    expect(buildRegions({ ...base, home: '/home/u' })).toEqual(buildRegions(base));
  });
});
