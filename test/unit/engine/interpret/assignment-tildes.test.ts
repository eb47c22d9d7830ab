/**
 * Tilde expansion inside assignments: after each unquoted `:` of a value, and after the first
 * `=` of an argument shaped like an assignment (`dd of=~/x`; bash outside POSIX mode). Found by
 * escape-diff: `dd of=~/x` and `s=x:~/repo` were read with a literal `~` and allowed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getParser, type BashParser } from '../../../../src/engine/parse/index.js';
import { runScenario } from '../../../helpers/scenario.js';
import { assignmentTildes } from '../../../../src/engine/syntax/word-text.js';

let parser: BashParser;
beforeAll(async () => {
  parser = await getParser('native');
});

const decide = (cmd: string) => runScenario(parser, cmd).verdict;

describe('tildes in assignments', () => {
  it.each(['dd if=/dev/null of=~/repo/x', 'dd if=/dev/null of=~/x', 's=x:~/repo; touch ${s#x:}/y', 'export D=a:~/repo; touch ${D#a:}/z'])('%s writes outside the worktree', (cmd) => {
    expect(decide(cmd).decision).toBe('deny');
  });

  it.each(['touch "x=~/y"', 'touch x=\\~/y', 'touch --x=~/y', 'dd of=~+/x', 's=x:~+; touch ${s#x:}/y'])('%s stays allowed', (cmd) => {
    expect(decide(cmd).decision).toBe('allow');
  });

  it('splits only where bash expands', () => {
    const t = (value: string) => [{ kind: 'text' as const, value, quoting: 'none' as const }];
    expect(assignmentTildes(t('of=~/x'), true)).toEqual([{ kind: 'text', value: 'of=', quoting: 'none' }, { kind: 'tilde', user: '' }, { kind: 'text', value: '/x', quoting: 'none' }]);
    expect(assignmentTildes(t('a:~b:c'), false)).toEqual([{ kind: 'text', value: 'a:', quoting: 'none' }, { kind: 'tilde', user: 'b' }, { kind: 'text', value: ':c', quoting: 'none' }]);
    expect(assignmentTildes(t('--x=~/y'), true)).toEqual(t('--x=~/y'));
    expect(assignmentTildes(t('a=b=~/y'), true)).toEqual(t('a=b=~/y'));
    expect(assignmentTildes([...t('a:~'), { kind: 'param', name: 'x', op: null, arg: null, quoted: false, text: '$x' }], false)).toHaveLength(2);
  });
});
