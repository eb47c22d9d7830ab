/**
 * Arrays whose elements are not all known (escape-diff findings): `${a[-1]}` of an array with a
 * glob element (it may expand to any number of elements), and `([k]=$HOME/repo)`, which the
 * grammar reads as the literal text `$HOME` and a separate element `/repo`; and `read` with an IFS
 * other than the default (it split on blanks whatever IFS was).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getParser, type BashParser } from '../../../../src/engine/parse/index.js';
import { runScenario } from '../../../helpers/scenario.js';

let parser: BashParser;
beforeAll(async () => {
  parser = await getParser('native');
});

const decide = (cmd: string) => runScenario(parser, cmd).verdict.decision;

describe('array elements not known statically', () => {
  it.each(['a=(x /home/dev/rep?); touch ${a[-1]}/x', 'a=(x /home/dev/[r]epo); a[-1]=.; touch ${a[2]}/x', 'declare -A m=([k]=$HOME/repo); touch ${m[k]}/x', 'a=([0]=$HOME/repo); touch ${a[0]}/x'])(
    '%s is not allowed',
    (cmd) => {
      expect(decide(cmd)).not.toBe('allow');
    },
  );

  it.each([
    ['a=(x /home/dev/repo); touch ${a[-1]}/x', 'deny'],
    ['a=(x src); touch ${a[-1]}/x', 'allow'],
    ['declare -A m=([k]="$HOME/repo"); touch ${m[k]}/x', 'deny'],
    ['declare -A m=([k]=v [j]=src); touch ${m[j]}/x', 'allow'],
  ])('%s: %s, elements known', (cmd, want) => {
    expect(decide(cmd)).toBe(want);
  });
});

describe('read splits on IFS', () => {
  it('a prefix IFS other than the default or the empty one gives names not known here', () => {
    expect(decide('IFS=: read -r _ v <<< "x:/home/dev/repo"; git -C $v branch e')).toBe('ask');
    expect(decide('IFS=:; read -r _ v <<< "x:/home/dev/repo"; touch $v/x')).toBe('ask');
  });

  it('the empty IFS gives the whole line', () => {
    expect(decide('IFS= read -r v <<< "/home/dev/repo"; touch $v/x')).toBe('deny');
    expect(decide('IFS= read -r v <<< " src"; touch "$v/x"')).toBe('allow');
  });
});
