/**
 * `writeRootViolations` (src/policy/write-roots.ts), against the acceptance criteria of seed 003:
 * a changed path under any write root is no violation; a path outside every root (including `..`
 * escapes and absolute paths beyond the worktree) is one, in input order; relative paths resolve
 * against `base`; roots match whole components; no roots means every path is a violation.
 */
import { describe, expect, it } from 'vitest';
import { normalizeAgainst, writeRootViolations } from '../../../src/policy/write-roots.js';

const base = '/wt/loop-5';
const roots = ['/wt/loop-5', '/tmp'];

describe('writeRootViolations', () => {
  it('paths under a root (absolute or relative to base) are not violations', () => {
    expect(writeRootViolations(['/wt/loop-5/src/a.ts', 'src/b.ts', './c', '/tmp/x/y', '/wt/loop-5'], roots, { base })).toEqual([]);
  });

  it('paths outside every root are violations, in input order, as given', () => {
    const changed = ['/etc/passwd', 'ok.txt', '/wt/loop-5/../../etc/x', '../other/file', '/wt/loop-6/a', '/wt/loop-5/sub/../../loop-6/b'];
    expect(writeRootViolations(changed, roots, { base })).toEqual(['/etc/passwd', '/wt/loop-5/../../etc/x', '../other/file', '/wt/loop-6/a', '/wt/loop-5/sub/../../loop-6/b']);
  });

  it('`..` is resolved before the prefix test (seed example /wt/loop-5/../../etc/x)', () => {
    expect(normalizeAgainst('/wt/loop-5/../../etc/x', base)).toBe('/etc/x');
    expect(writeRootViolations(['/wt/loop-5/../../etc/x'], ['/wt/loop-5'], { base })).toEqual(['/wt/loop-5/../../etc/x']);
    // and a `..` that stays inside is fine
    expect(writeRootViolations(['/wt/loop-5/a/../b'], ['/wt/loop-5'], { base })).toEqual([]);
  });

  it('relative paths resolve against base', () => {
    expect(writeRootViolations(['a'], ['/wt/loop-5'], { base: '/wt/loop-5' })).toEqual([]);
    expect(writeRootViolations(['a'], ['/wt/loop-5'], { base: '/elsewhere' })).toEqual(['a']);
    expect(writeRootViolations(['../loop-5/x'], ['/wt/loop-5'], { base: '/wt/other' })).toEqual([]);
  });

  it('relative roots resolve against base too', () => {
    expect(writeRootViolations(['/wt/loop-5/build/o'], ['build'], { base })).toEqual([]);
    expect(writeRootViolations(['/wt/loop-5/src/o'], ['build'], { base })).toEqual(['/wt/loop-5/src/o']);
  });

  it('roots match whole components: /wt/a does not contain /wt/ab', () => {
    expect(writeRootViolations(['/wt/ab', '/wt/ab/x', '/wt/a', '/wt/a/x'], ['/wt/a'], { base: '/' })).toEqual(['/wt/ab', '/wt/ab/x']);
    expect(writeRootViolations(['/wt/ab'], ['/wt/a/'], { base: '/' })).toEqual(['/wt/ab']);
  });

  it('no roots: every path is a violation (no write grant)', () => {
    expect(writeRootViolations(['/wt/loop-5/a', 'b', '/tmp/c'], [], { base })).toEqual(['/wt/loop-5/a', 'b', '/tmp/c']);
  });

  it('root / contains everything; duplicates are kept; iterables are accepted', () => {
    expect(writeRootViolations(['/a', 'b'], ['/'], { base })).toEqual([]);
    expect(writeRootViolations(['/x', '/x'], ['/y'], { base })).toEqual(['/x', '/x']);
    const gen = function* () {
      yield '/etc/a';
      yield '/tmp/b';
    };
    expect(writeRootViolations(gen(), new Set(['/tmp']), { base })).toEqual(['/etc/a']);
  });

  it('is deterministic: identical inputs give identical output', () => {
    const changed = ['/etc/x', 'a', '../b'];
    expect(writeRootViolations(changed, roots, { base })).toEqual(writeRootViolations([...changed], [...roots], { base }));
  });
});
