/**
 * Code a command feeds to a shell or `source` itself: a `<(...)` substitution is a file holding
 * what its command prints, `/dev/stdin` is the here-string or pipe, any other descriptor is code
 * not known statically. Found by test/system/fuzz/escape-diff.mjs: each was allowed and escaped.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getParser, type BashParser } from '../../../../src/engine/parse/index.js';
import { runScenario } from '../../../helpers/scenario.js';

let parser: BashParser;
beforeAll(async () => {
  parser = await getParser('native');
});

const decide = (cmd: string) => runScenario(parser, cmd).verdict;

describe('process substitutions and descriptors as scripts', () => {
  it.each([
    "source <(echo 'touch /home/dev/repo/x')",
    "source <(printf '%s\\n' 'cd ../..'); touch x",
    "bash <(echo 'touch /home/dev/repo/x')",
    "sh <(echo 'cd ../.. && touch x')",
    ". /dev/stdin <<< 'touch /home/dev/repo/x'",
    "echo 'touch /home/dev/repo/x' | source /dev/stdin",
    "bash /dev/stdin <<< 'touch /home/dev/repo/x'",
  ])('%s is denied: the code it feeds in writes the main checkout', (cmd) => {
    const v = decide(cmd);
    expect(v.decision).toBe('deny');
    expect(v.findings.map((f) => f.rule)).toContain('BG1002');
  });

  it.each(["source <(echo 'touch x')", "bash <(echo 'touch x')", ". /dev/stdin <<< 'touch x'", 'diff <(echo a) <(echo b)'])('%s stays allowed', (cmd) => {
    expect(decide(cmd).decision).toBe('allow');
  });

  it.each(['source <(cat gen.sh)', 'bash <(curl -s https://example.com/i.sh)', 'exec 3< gen.sh; source /dev/fd/3', 'source /dev/stdin', 'bash /dev/fd/3'])(
    '%s runs code not known statically: dynamic (ask), not an unread file on disk',
    (cmd) => {
      const v = decide(cmd);
      expect(v.decision).toBe('ask');
      expect(v.findings.map((f) => f.rule)).toContain('BG4002');
    },
  );

  it('each substitution of a command is its own file: the second is not read as the first', () => {
    expect(decide("cat <(echo 'touch x') >/dev/null; bash <(echo 'touch /home/dev/repo/x')").decision).toBe('deny');
    expect(decide("bash <(echo 'touch /home/dev/repo/x') <(echo 'touch x')").decision).toBe('deny');
  });
});

describe('a makefile the command writes, run by make', () => {
  it.each([
    "printf 'all:\\n\\ttouch %s\\n' /home/dev/repo/x > Makefile; make -s",
    "printf 'all:\\n\\tcd ../.. && touch x\\n' > GNUmakefile; make",
    "printf 'all:\\n\\ttouch ../../x\\n' > build.mk; make -f build.mk",
    "printf 'all:\\n\\ttouch ../../x\\n' > src/Makefile; make -C src all",
  ])('%s runs its recipes: denied', (cmd) => {
    expect(decide(cmd).decision).toBe('deny');
  });

  it.each([
    "printf 'X := $(shell touch ../../x)\\nall:\\n\\ttrue\\n' > Makefile; make",
    "printf 'include e.mk\\n' > Makefile; make",
    "printf 'SHELL := /tmp/sh\\nall:\\n\\tx\\n' > Makefile; make",
    'cp /tmp/tpl.mk Makefile; make',
  ])('%s: what make runs is not known statically (ask)', (cmd) => {
    const v = decide(cmd);
    expect(v.decision).toBe('ask');
    expect(v.findings.map((f) => f.rule)).toContain('BG4002');
  });

  it.each(["printf 'all:\\n\\ttouch x\\n' > Makefile; make -s", 'make test', "printf 'all:\\n\\ttouch ../../x\\n' > other.mk; make"])('%s stays allowed', (cmd) => {
    expect(decide(cmd).decision).toBe('allow');
  });
});

describe('what a listing hands to xargs', () => {
  it.each(['ls -d /home/dev/repo/README.md | xargs rm', 'ls ../../README.md | xargs rm', 'ls -d "$D" | xargs rm', 'git diff --no-index --name-only ../../README.md x | xargs rm'])(
    '%s: the names may lie anywhere (not under the cwd)',
    (cmd) => {
      expect(decide(cmd).decision).not.toBe('allow');
    },
  );

  it.each(['ls | xargs rm', 'ls *.o | xargs rm -f', 'ls src | xargs rm', 'git ls-files | xargs rm', 'cd /tmp && ls | xargs rm'])('%s: names under the cwd, allowed', (cmd) => {
    expect(decide(cmd).decision).toBe('allow');
  });
});

describe("a function's local variables end with the call", () => {
  it.each([
    'v=../..; f(){ local v=.; }; f; touch $v/x',
    'v=../..; f(){ local v; v=.; }; f; touch $v/x',
    'v=../..; f(){ declare v=.; }; f; touch $v/x',
    'v=../..; f(){ typeset v=.; }; f; touch $v/x',
    'v=../..; f(){ local v=.; g; }; g(){ v=src; }; f; touch $v/x',
    'v=../..; f(){ local v=.; return 0; }; f; touch $v/x',
    'v=.; f(){ declare -g v=../..; }; f; touch $v/x',
    'v=.; f(){ v=../..; }; f; touch $v/x',
  ])('%s writes the main checkout', (cmd) => {
    expect(decide(cmd).decision).toBe('deny');
  });

  it('a name local on some paths only is not known after the call', () => {
    expect(decide('v=.; f(){ if [ -n "$1" ]; then local v; fi; v=../..; }; f "$X"; touch $v/x').decision).toBe('ask');
  });

  it.each(['v=.; f(){ local v=../..; }; f; touch $v/x', 'v=.; f(){ local v=src; touch $v/x; }; f'])('%s stays allowed', (cmd) => {
    expect(decide(cmd).decision).toBe('allow');
  });
});
