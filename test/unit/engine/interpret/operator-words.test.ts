/**
 * The word of a parameter operator (`${x:-w}`, `${x:+w}`, `${x/p/w}`) is expanded by bash on some
 * paths: where the analysis cannot tell which, its substitutions still run (never dropped); where
 * it can, as bash decides. Each case was checked with bash 5.2.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getParser, type BashParser } from '../../../../src/engine/parse/index.js';
import { runScenario } from '../../../helpers/scenario.js';

let parser: BashParser;
beforeAll(async () => {
  parser = await getParser('native');
});

const decide = (cmd: string) => runScenario(parser, cmd).verdict.decision;
const OUT = '$(touch ../../README.md)';
const IN = '$(touch notes.txt)';

describe('operator words whose expansion depends on a value not known statically', () => {
  it.each([
    // an array the command did not set: unset as far as it knows
    'echo ${a[1]:-W}',
    'echo ${a[@]-W}',
    // a value not known statically may be set and not empty
    'x=$(date); echo ${x:+W}',
    'x=$(date); echo ${x/q/W}',
    'a=($(date)); echo ${a[@]/q/W}',
  ])('%s: the word runs', (shape) => {
    expect(decide(shape.replace('W', OUT))).toBe('deny');
    expect(decide(shape.replace('W', IN))).toBe('allow');
  });
});

describe('${a[@]} with -, =, +, ?: bash tests the whole expansion, not each element', () => {
  it.each([
    ['a=(); echo ${a[@]:-W}', true],
    ['set --; echo "${@:-W}"', true],
    ['a=(""); echo ${a[@]:-W}', true],
    ['a=(""); echo ${a[@]-W}', false],
    ['a=("" ""); echo ${a[@]:-W}', false],
    ['a=(x); echo ${a[@]:-W}', false],
    ['a=(x); echo ${a[@]+W}', true],
    ['a=(); echo ${a[@]+W}', false],
  ])('%s: the word runs: %s', (shape, runs) => {
    expect(decide(shape.replace('W', OUT))).toBe(runs ? 'deny' : 'allow');
  });

  it('where the array is set, the elements stay separate words', () => {
    expect(decide('a=(x ../../README.md); touch "${a[@]:-y}"')).toBe('deny');
    expect(decide('a=(x notes.txt); touch "${a[@]:-../../README.md}"')).toBe('allow');
  });
});
