/**
 * Lint's unreachable regions (BG0005): said only where bash provably never goes, at the first
 * command of the region, with the reason.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getParser, type BashParser } from '../../../../src/engine/parse/index.js';
import { analyzeWith } from '../../../../src/engine/analyze.js';
import { standardEnv, WORKTREE } from '../../../../src/policy/scenario/standard.js';

let parser: BashParser;
beforeAll(async () => {
  parser = await getParser('native');
});

function unreachable(script: string, maxSteps?: number): string[] {
  const a = analyzeWith(parser, script, { cwd: WORKTREE, env: standardEnv(), everyFunction: true, knownEnv: [], deterministic: true, maxSteps });
  return (a.unreachable ?? []).map((u) => `${u.range.line}: ${u.reason}`);
}

describe('unreachable regions', () => {
  it('after exit and return', () => {
    expect(unreachable('echo a\nexit 0\necho b\necho c\n')).toEqual(['3: after `exit` on line 2']);
    expect(unreachable('f() {\n  return 1\n  echo x\n}\nf\n')).toEqual(['3: after `return` on line 2']);
  });

  it('after a function that exits on every path, and after an if whose branches all exit', () => {
    expect(unreachable('die() { echo "$*"; exit 1; }\ndie x\necho y\n')).toEqual(['3: `die` (line 1) exits on every path (called on line 2)']);
    expect(unreachable('if [ -n "$1" ]; then exit 1; else exit 2; fi\necho y\n')).toEqual(['2: every path through the `if` on line 1 exits']);
  });

  it('nothing where a path may go on', () => {
    expect(unreachable('[ -n "${FOO:-}" ] || exit 0\necho y\n')).toEqual([]);
    expect(unreachable('f() { if test true = "$X"; then return; fi; exit 0; }\nf\necho y\n')).toEqual([]);
    expect(unreachable('set -euo pipefail\n[ $# -eq 1 ] || exit 2\necho y\n')).toEqual([]);
    expect(unreachable('(exit 1)\necho y\n')).toEqual([]);
  });

  it('after break and continue, inside the loop only', () => {
    expect(unreachable('for a in 1 2; do\n  break\n  exit 0\ndone\necho x\n')).toEqual(['3: after `break` on line 2']);
  });

  it('nothing after a function that exits only when a guessed argument is empty', () => {
    expect(unreachable('check() {\n  if [ -z "$1" ]; then exit 1; fi\n}\nmain() {\n  url=${1:-}\n  check "$url"\n  echo a\n}\nmain "$@"\necho y\n')).toEqual([]);
  });

  it('nothing after a guard on a value a later pass of a loop may set', () => {
    expect(unreachable('a=\nb=\nwhile [ $# -gt 0 ]; do\n  if [ -z "$a" ]; then a=$1; else b=$1; fi\n  shift\ndone\nif [ -z "$b" ]; then exit 1; else exit 2; fi\necho y\n')).toEqual([
      '8: every path through the `if` on line 7 exits',
    ]);
    expect(unreachable('a=\nb=\nwhile [ $# -gt 0 ]; do\n  if [ -z "$a" ]; then a=$1; else b=$1; fi\n  shift\ndone\nif [ -z "$b" ]; then exit 1; fi\necho y\n')).toEqual([]);
  });

  it('nothing after a top-level return (an executed script goes on), nor in a file with a parse error', () => {
    expect(unreachable('echo a\nreturn 0\necho b\n')).toEqual([]);
    expect(unreachable('exit 0\necho b\nif then fi\n')).toEqual([]);
  });

  it('a region reached by one call is not unreachable because another call skipped it', () => {
    expect(unreachable('f() { [ "$1" = a ] && return; echo x; }\nf a\nf b\n')).toEqual([]);
  });

  it('an analysis stopped at its step limit says nothing', () => {
    const many = Array.from({ length: 50 }, (_, i) => `echo ${i}`).join('\n');
    expect(unreachable(`exit 0\n${many}\n`)).toHaveLength(1);
    expect(unreachable(`${many}\nexit 0\necho x\n`, 10)).toEqual([]);
  });

  it('the hook records none', () => {
    const a = analyzeWith(parser, 'exit 0; echo x', { cwd: WORKTREE, env: standardEnv() });
    expect(a.unreachable).toBeUndefined();
  });
});
