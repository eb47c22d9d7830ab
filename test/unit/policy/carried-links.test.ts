/**
 * Symlinks the command moves or copies as links (`mv`, `cp -P/-d/-a/-R`, `rsync -l`) keep leading
 * where they led, and a link to a target not known statically leads anywhere. Found by
 * test/system/fuzz/escape-diff.mjs: each was allowed and escaped.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getParser, type BashParser } from '../../../src/engine/parse/index.js';
import { runScenario } from '../../helpers/scenario.js';

let parser: BashParser;
beforeAll(async () => {
  parser = await getParser('native');
});

const decide = (cmd: string, symlinks: Record<string, string> = {}) => runScenario(parser, cmd, { symlinks }).verdict;

describe('links carried to a new name', () => {
  it.each([
    'ln -s /home/dev/repo a; mv a b; touch b/x',
    'ln -s /home/dev/repo a; mv -T a b; touch b/x',
    'ln -s /home/dev/repo a; mv a src/; touch src/a/x',
    'ln -s /home/dev/repo a; mv -t src a; touch src/a/x',
    'ln -s /home/dev/repo a; mv a b; mv b c; echo x > c/x',
    'ln -s /home/dev/repo a; cp -P a b; touch b/x',
    'ln -s /home/dev/repo a; cp -d a b; touch b/x',
    'ln -s /home/dev/repo a; cp -a a b; touch b/x',
    'ln -s /home/dev/repo a; cp -r a b; touch b/x',
    'mkdir d; ln -s /home/dev/repo d/l; mv d e; touch e/l/x',
  ])('%s writes the main checkout', (cmd) => {
    const v = decide(cmd);
    expect(v.decision).toBe('deny');
    expect(v.findings.find((f) => f.rule === 'BG1002')?.path).toBe('/home/dev/repo/x');
  });

  it('a link already on disk, moved, still leads to its target', () => {
    expect(decide('mv link b && touch b/x', { '/home/dev/repo/.builders/b1/link': '/home/dev/repo' }).decision).toBe('deny');
    expect(decide('mv link b && touch b/x', { '/home/dev/repo/.builders/b1/link': '/tmp' }).decision).toBe('allow');
  });

  it.each(['ln -s /tmp a; mv a b; touch b/x', 'ln -s /tmp a; cp -P a b; touch b/x', 'mv a b; touch b/x', 'ln -s /home/dev/repo a; cp -L a b; touch b'])('%s stays allowed', (cmd) => {
    expect(decide(cmd).decision).toBe('allow');
  });

  it('a pair sees only the moves before it: moving a name onto its own child ends', () => {
    expect(decide('mkdir -p a/b; mv a/b x; mv x a/b; touch a/b/c').decision).toBe('allow');
  });
});

describe('a link to a target not known statically', () => {
  it.each(['ln -s "$(git rev-parse --git-common-dir)/.." up; touch up/x', 'ln -sfn "$D" up && echo x > up/f', 'ln -s "$X" l; touch l'])('%s: a write through it may land anywhere (ask)', (cmd) => {
    const v = decide(cmd);
    expect(v.decision).toBe('ask');
    expect(v.findings.map((f) => f.rule)).toContain('BG1001');
  });

  it('creating it, or removing it, writes nothing through it', () => {
    expect(decide('ln -s "$X" l').decision).toBe('allow');
    expect(decide('ln -s "$X" l; rm l').decision).toBe('allow');
  });
});
