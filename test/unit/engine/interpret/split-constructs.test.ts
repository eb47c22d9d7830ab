/**
 * `! { ...; }`, `time for ...`: tree-sitter-bash builds no construct there, but commands named by
 * the reserved word with the body as arguments. Bash runs the body, so such a command is never
 * allowed as if the word did nothing (escape-diff found `! { touch ../../x; }` allowed). And the
 * opposite: a wrapper that is a program (`env cd /tmp`) runs its command in a child process; and a
 * CDPATH entry not known statically makes `cd NAME` lead anywhere; a relative `--work-tree` is
 * resolved against each possible cwd.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getParser, type BashParser } from '../../../../src/engine/parse/index.js';
import { runScenario } from '../../../helpers/scenario.js';

let parser: BashParser;
beforeAll(async () => {
  parser = await getParser('native');
});

describe('a construct the grammar splits', () => {
  it.each(['! { touch ../../x; }', 'time { touch ../../x; }', '! for f in ../b2/x; do touch "$f"; done', '! while true; do touch ../../x; break; done', 'time for f in x; do touch ../../x; done'])(
    '%s is not analyzed (ask), never allowed',
    (cmd) => {
      const v = runScenario(parser, cmd).verdict;
      expect(v.decision).toBe('ask');
      expect(v.findings.map((f) => f.rule)).toContain('BG0001');
    },
  );

  it.each(['{ touch x; }', 'for f in a; do touch "$f"; done', 'time touch x', '! touch x'])('%s, built by the grammar, is analyzed', (cmd) => {
    expect(runScenario(parser, cmd).verdict.decision).toBe('allow');
  });
});

describe('a wrapper that is a program runs its command in a child process', () => {
  it('its cd and assignments end with it', () => {
    expect(runScenario(parser, 'env cd /home/dev/other; git branch e').verdict.decision).toBe('ask');
    expect(runScenario(parser, 'env cd /tmp; touch "$OLDPWD/e"').verdict.decision).toBe('ask');
    expect(runScenario(parser, 'nice cd /tmp; touch e').verdict.decision).toBe('allow');
  });

  it.each(['command cd ../..; touch x', 'builtin cd ../..; touch x', 'time cd ../..; touch x'])('%s: in this shell, the cd stays', (cmd) => {
    expect(runScenario(parser, cmd).verdict.decision).toBe('deny');
  });
});

describe('CDPATH with an entry not known statically', () => {
  it.each(['CDPATH="$X" cd repo; touch y', 'export CDPATH="$(git rev-parse --git-common-dir)/.."; cd src; touch y'])('%s: the cwd after cd is unknown (ask)', (cmd) => {
    expect(runScenario(parser, cmd).verdict.decision).toBe('ask');
  });

  it('known entries are tried as before', () => {
    expect(runScenario(parser, 'CDPATH=../.. cd src; touch y').verdict.decision).toBe('deny');
    expect(runScenario(parser, 'CDPATH=/tmp cd src; touch y').verdict.decision).toBe('allow');
  });
});

describe('a relative --work-tree with more than one possible cwd', () => {
  it('is resolved against each candidate', () => {
    expect(runScenario(parser, 'select x in /home/dev/repo; do cd "$x"; break; done <<< 1; git --work-tree=. reset -q --hard').verdict.decision).toBe('ask');
    expect(runScenario(parser, 'if [ -n "$X" ]; then cd /home/dev/repo; fi; git --git-dir=.git branch x').verdict.decision).toBe('ask');
    expect(runScenario(parser, 'if [ -n "$X" ]; then cd src; fi; git --work-tree=. status').verdict.decision).toBe('allow');
  });
});
