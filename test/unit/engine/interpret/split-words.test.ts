/**
 * `$a/$b/x` unquoted: tree-sitter-bash ends the first word at `/$` and starts a second at `b/x`.
 * Bash reads one word with two expansions (escape-diff found `install -D /dev/null $a/$b/x`
 * allowed: its destination was taken to be `b/x`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getParser, type BashParser } from '../../../../src/engine/parse/index.js';
import { runScenario } from '../../../helpers/scenario.js';

describe.each(['native', 'wasm'] as const)('one word split by the grammar at `/$` (%s)', (backend) => {
  let parser: BashParser;
  beforeAll(async () => {
    parser = await getParser(backend);
  });

  it('is read as the one word bash sees', () => {
    const r = runScenario(parser, 'a=/home/dev; b=repo; install -D /dev/null $a/$b/x');
    expect(r.verdict.decision).toBe('deny');
    expect(r.verdict.findings.find((f) => f.rule === 'BG1002')?.path).toBe('/home/dev/repo/x');
  });

  it('inside it stays allowed; at the main checkout it is denied', () => {
    expect(runScenario(parser, 'a=/tmp; b=x; touch $a/$b/y').verdict.decision).toBe('allow');
    expect(runScenario(parser, 'a=/home/dev; b=repo; touch $a/$b').verdict.decision).toBe('deny');
  });
});

describe.each(['native', 'wasm'] as const)('an assignment split from its word by the grammar (%s)', (backend) => {
  let parser: BashParser;
  beforeAll(async () => {
    parser = await getParser(backend);
  });

  it('`X=$a/$b/.git git ...` is read as bash reads it', () => {
    const v = runScenario(parser, 'a=/home; b=dev/repo; GIT_DIR=$a/$b/.git git branch e').verdict;
    expect(v.findings.map((f) => f.rule)).toContain('BG3003');
    expect(runScenario(parser, 'dir=/home/dev; vendor=repo; app=x; file_path=$dir/$vendor/$app; touch $file_path').verdict.decision).toBe('deny');
    expect(runScenario(parser, 'a=/home; b=dev/repo; X=$a/$b"x" true').verdict.decision).toBe('allow');
    expect(runScenario(parser, 'a=/tmp; X=$a/y touch z').verdict.decision).toBe('allow');
  });

  it('`time NAME=VALUE cmd`: the assignment is the environment of cmd', () => {
    expect(runScenario(parser, 'time GIT_WORK_TREE=../b2 git checkout -- README.md').verdict.decision).toBe('deny');
    expect(runScenario(parser, 'time GIT_WORK_TREE=. git checkout -- README.md').verdict.decision).toBe('allow');
  });
});

describe.each(['native', 'wasm'] as const)('an argument the grammar ends at `=` before a backquote (%s)', (backend) => {
  let parser: BashParser;
  beforeAll(async () => {
    parser = await getParser(backend);
  });

  it('`env X=`cmd`/y git ...` gives git that environment, as bash does', () => {
    const v = runScenario(parser, 'env GIT_DIR=`echo /home/dev/repo`/.git git commit --allow-empty -m x').verdict;
    expect(v.decision).toBe('deny');
    expect(v.findings.map((f) => f.rule)).toContain('BG2001');
    expect(runScenario(parser, 'env GIT_DIR=`echo .git` git log -1').verdict.decision).toBe('allow');
  });

  it('touching words join into one, whatever splits them', () => {
    expect(runScenario(parser, 'touch a=`echo /home/dev/repo`/x').verdict.decision).toBe('allow');
    expect(runScenario(parser, 'touch /home/dev/`echo repo`/x').verdict.decision).toBe('deny');
  });
});
