/**
 * Where paths end: `exit` and `return` end a path only where bash reaches them on it, a function
 * call ends its caller's path only when every path through the function exits, and a condition
 * on a value the script does not fix keeps both paths. Each case writes outside the worktree
 * after the construct, so an interpreter that wrongly ends the path allows it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getParser, type BashParser } from '../../../../src/engine/parse/index.js';
import { analyzeWith } from '../../../../src/engine/analyze.js';
import { evaluate } from '../../../../src/policy/policy.js';
import { memoryFs, standardEnv, standardPolicy, WORKTREE } from '../../../../src/policy/scenario/standard.js';

let parser: BashParser;
beforeAll(async () => {
  parser = await getParser('native');
});

function decide(cmd: string, files: Record<string, string> = {}): string {
  // The scenario's directories, so a `cd` into one of them succeeds for certain.
  const { stat, searchable } = memoryFs();
  const analysis = analyzeWith(parser, cmd, { cwd: WORKTREE, env: standardEnv(), host: { readFile: (p) => files[p] ?? null, stat, searchable } });
  return evaluate(analysis.effects, standardPolicy(memoryFs())!).decision;
}

describe('a function that may return is not a function that exits', () => {
  it('a return on one branch keeps the path after the call', () => {
    expect(decide('f(){ if test true = "$X"; then return; fi; exit 0; }; f; touch ../../x')).not.toBe('allow');
    expect(decide('f(){ [ -n "$X" ] && return; exit 0; }; f; touch ../../x')).not.toBe('allow');
    expect(decide('f(){ case "$X" in a) return;; esac; exit 1; }; f; touch ../../x')).not.toBe('allow');
    expect(decide('f(){ while read -r l; do return; done; exit 1; }; f; touch ../../x')).not.toBe('allow');
  });

  it('the state of the path that returned is the one after the call', () => {
    // Only the returned path moved to the main checkout: `touch x` lands there on it.
    expect(decide('f(){ if test true = "$X"; then cd ../..; return; fi; exit 0; }; f; touch x')).toBe('deny');
    expect(decide('f(){ [ -n "$X" ] && { cd ../..; return; }; exit 0; }; f; touch x')).toBe('deny');
  });

  it('a nested function\'s returns stay its own', () => {
    expect(decide('g(){ if test true = "$X"; then return; fi; exit 0; }; f(){ g; exit 0; }; f; touch ../../x')).toBe('allow');
  });

  it('a function that exits on every path still ends the caller\'s path', () => {
    expect(decide('f(){ exit 0; }; f; touch ../../x')).toBe('allow');
    expect(decide('f(){ if test true = "$X"; then exit 1; fi; exit 0; }; f; touch ../../x')).toBe('allow');
    expect(decide('f(){ if test true = "$X"; then (return); fi; exit 0; }; f; touch ../../x')).toBe('allow');
  });

  it('the benign twin stays allowed', () => {
    expect(decide('f(){ if test true = "$X"; then return; fi; exit 0; }; f; touch x')).toBe('allow');
  });
});

describe('`return` in a sourced file ends that file', () => {
  it('the script that sourced it goes on', () => {
    const lib = { [`${WORKTREE}/lib.sh`]: 'return 0\necho never\n' };
    expect(decide('. ./lib.sh; touch ../../x', lib)).toBe('deny');
    expect(decide('. ./lib.sh; touch x', lib)).toBe('allow');
  });

  it('a sourced file that returns on one path and exits on the other keeps the path', () => {
    const lib = { [`${WORKTREE}/lib.sh`]: '[ -n "$X" ] && return 0\nexit 1\n' };
    expect(decide('. ./lib.sh; touch ../../x', lib)).not.toBe('allow');
  });
});

describe('a variable the script does not set decides no condition', () => {
  it('an unset variable is not known to be empty', () => {
    expect(decide('[ -n "${FOO:-}" ] || exit 0; touch ../../x')).not.toBe('allow');
    expect(decide('[ -z "${FOO-}" ] && exit 0; touch ../../x')).not.toBe('allow');
    expect(decide('[[ ${FOO:+set} == set ]] || exit 0; touch ../../x')).not.toBe('allow');
    expect(decide('test "${FOO:-no}" = no && exit 0; touch ../../x')).not.toBe('allow');
  });

  it('nor is a value copied from one, or printed from one', () => {
    expect(decide('x=${FOO:-}; [ -n "$x" ] || exit 0; touch ../../x')).not.toBe('allow');
    expect(decide('x=$(printf %s "${FOO:-}"); [ -n "$x" ] || exit 0; touch ../../x')).not.toBe('allow');
    expect(decide('for a in ${L:-x}; do exit 0; done; touch ../../x')).not.toBe('allow');
    expect(decide(': "${V:=no}"; [ "$V" = no ] && exit 0; touch ../../x')).not.toBe('allow');
  });

  it('nor a default over a value not known statically, nor a guess passed to a function', () => {
    // $1 of a function called with a value the script does not fix may be set and not empty.
    expect(decide('m(){ r=${1:-}; [ -z "$r" ] && exit 1; }; m "$(cat f)"; touch ../../x')).not.toBe('allow');
    expect(decide('m(){ [ -z "${1:-}" ] && exit 1; }; m "$(cat f)"; touch ../../x')).not.toBe('allow');
    expect(decide('c(){ [ -z "$1" ] && exit 1; }; r=${FOO:-}; c "$r"; touch ../../x')).not.toBe('allow');
    // A known argument still decides.
    expect(decide('c(){ [ -z "$1" ] && exit 1; }; c ""; touch ../../x')).toBe('allow');
  });

  it('a value of the analysis\' environment other than HOME decides nothing (the agent\'s shell has its own)', () => {
    const env = { ...standardEnv(), TMPDIR: '/tmp' };
    const run = (cmd: string, knownEnv?: string[]) => evaluate(analyzeWith(parser, cmd, { cwd: WORKTREE, env, knownEnv }).effects, standardPolicy(memoryFs())!).decision;
    expect(run('[ -n "$TMPDIR" ] && exit 0; touch ../../x')).not.toBe('allow');
    expect(run('[ -n "$HOME" ] && exit 0; touch ../../x')).toBe('allow');
    // Lint gives the variables it knows; HOME is not one of them there.
    expect(run('[ -n "$HOME" ] && exit 0; touch ../../x', [])).not.toBe('allow');
    expect(run('[ -n "$TMPDIR" ] && exit 0; touch ../../x', ['TMPDIR'])).toBe('allow');
  });

  it('what the script sets still decides', () => {
    expect(decide('FOO=1; [ -n "${FOO:-}" ] && exit 0; touch ../../x')).toBe('allow');
    expect(decide('FOO=; [ -n "${FOO:-}" ] || exit 0; touch ../../x')).toBe('allow');
    expect(decide('a=(x); [ -z "${a[1]:-}" ] && exit 0; touch ../../x')).toBe('allow');
  });

  it('the benign twin stays allowed', () => {
    expect(decide('[ -n "${FOO:-}" ] || exit 0; touch x')).toBe('allow');
  });
});

describe('what a command prints is known only where its spec computes it', () => {
  it('a writer, dd without of= and echo -e with escapes print what is not known', () => {
    expect(decide('[ -z "$(gzip -c f)" ] && exit 0; touch ../../x')).not.toBe('allow');
    expect(decide('u=$(dd bs=1 count=7); [ "$u" != nobody ] && exit; touch ../../x')).not.toBe('allow');
    expect(decide('[ "$(echo -e \'x\\c\')" = x ] || exit 0; touch ../../x')).not.toBe('allow');
    // Known output still decides.
    expect(decide('[ "$(echo x)" = x ] && exit 0; touch ../../x')).toBe('allow');
  });
});

describe('set reads its options as bash does', () => {
  it('`set -euo pipefail` leaves the positional parameters alone', () => {
    expect(decide('set -euo pipefail; [ -n "${1:-}" ] && exit 0; touch ../../x')).not.toBe('allow');
    expect(decide('set -- a; set -euo pipefail; [ "$1" = a ] && exit 0; touch ../../x')).toBe('allow');
    expect(decide('set -- a; set -euo pipefail; [ "$1" = a ] || exit 0; touch ../../x')).toBe('deny');
  });
});

describe('`return` outside a function and a sourced file ends nothing', () => {
  it('bash says so and goes on', () => {
    expect(decide('return 0; touch ../../x')).toBe('deny');
    expect(decide('[ -n "$X" ] || return; touch ../../x')).toBe('deny');
    expect(decide('(return 1); touch ../../x')).toBe('deny');
  });
});

describe('break and continue leave the loop body where bash reaches them', () => {
  it('an exit after a break does not end the path that left the loop', () => {
    expect(decide('for a in 1 2; do break; exit 0; done; touch ../../x')).toBe('deny');
    expect(decide('while read -r l; do [ -n "$l" ] && break; exit 0; done; touch ../../x')).not.toBe('allow');
    expect(decide('for a in 1 2; do for b in 1; do break 2; done; exit 0; done; touch ../../x')).toBe('deny');
  });

  it('a continue goes on with the next iteration, with its state', () => {
    expect(decide('for a in 1 2; do [ $a = 1 ] && continue; cd ../..; done; touch x')).toBe('deny');
    expect(decide('for a in 1 2; do [ $a = 2 ] && continue; exit 0; done; touch ../../x')).toBe('allow');
    expect(decide('for a in 1 2; do [ $a = 1 ] && continue; exit 0; done; touch ../../x')).toBe('allow');
  });

  it('outside a loop they end nothing (bash says so and goes on)', () => {
    expect(decide('f() { break; touch ../../x; }; f')).toBe('deny');
    // Nor in a function called from a loop (bash 5: "only meaningful in a loop"): the loop goes on.
    expect(decide('f() { break; }; for a in 1; do f; exit 0; done; touch ../../x')).toBe('allow');
    expect(decide('f() { break; }; for a in 1; do f; touch ../../x; done')).toBe('deny');
  });
});

describe('a loop run an unknown number of times holds what any number of passes leaves', () => {
  it('a value a later pass sets from what an earlier pass set is unknown after the loop', () => {
    // One pass sets a, only a second one sets b: after the loop b may be set, so the write runs.
    const twoPasses = 'a=; b=; while [ $# -gt 0 ]; do if [ -z "$a" ]; then a=$1; else b=$1; fi; shift; done; [ -z "$b" ] && exit 1';
    expect(decide(`${twoPasses}; touch ../../x`)).not.toBe('allow');
    expect(decide('a=; b=; for f in *; do if [ -z "$a" ]; then a=$f; else b=$f; fi; done; [ -z "$b" ] && exit 1; touch ../../x')).not.toBe('allow');
    // Three steps: c is set only on the third pass.
    expect(decide('a=; b=; c=; while read -r l; do if [ -z "$a" ]; then a=$l; elif [ -z "$b" ]; then b=$l; else c=$l; fi; done; [ -z "$c" ] && exit 1; touch ../../x')).not.toBe('allow');
  });

  it('a loop run again (its function called twice) is as sound the second time', () => {
    const f = 'f(){ a=; b=; while [ $# -gt 0 ]; do if [ -z "$a" ]; then a=$1; else b=$1; fi; shift; done; [ -z "$b" ] && exit 1; }';
    expect(decide(`${f}; f x; f y; touch ../../x`)).not.toBe('allow');
    // A counter read by the next pass: a later pass may see any count.
    expect(decide('i=0; ok=; while read -r l; do if [ "$i" = 1 ]; then ok=1; fi; i=$((i+1)); done; [ -z "$ok" ] && exit 1; touch ../../x')).not.toBe('allow');
  });

  it('a value no pass changes stays known', () => {
    expect(decide('a=; while [ $# -gt 0 ]; do shift; done; [ -z "$a" ] && exit 1; touch ../../x')).toBe('allow');
  });
});

describe('property: guards on what the command does not fix never hide a later write', () => {
  // Each guard may end the path only on some values of a variable the command never sets (not
  // $1 or $#: inside the function `g` below they are known, g is called without arguments).
  const cond = fc.constantFrom('[ -n "${V:-}" ]', '[ -z "$V" ]', 'test "${V-}" = a', '[[ ${V:+x} == x ]]', 'x=${V:-}; [ -n "$x" ]', '[ -n "$(printf %s "${V:-}")" ]');
  const guard = fc.tuple(cond, fc.integer({ min: 0, max: 5 })).map(([c, how]) =>
    [
      `${c} || exit 0`,
      `${c} && exit 1`,
      `if ${c}; then exit 0; fi`,
      `g(){ if ${c}; then return; fi; exit 0; }; g`,
      `for i in 1 2; do ${c} && break; exit 0; done`,
      `case "\${V:-}" in a) exit 0;; esac`,
    ][how]!,
  );

  it('the write after any sequence of them is reported', () => {
    fc.assert(
      fc.property(fc.array(guard, { minLength: 1, maxLength: 4 }), (guards) => {
        expect(decide(`${guards.join('; ')}; touch ../../x`)).not.toBe('allow');
      }),
      { numRuns: 150 },
    );
  });
});
