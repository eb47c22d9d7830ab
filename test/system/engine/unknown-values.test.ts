/**
 * What bash fixes only at run time stays unknown to the analysis: the program a glob or an
 * expansion names (its relative arguments and the cwd it runs in may be written), and the element
 * an index not known statically writes. Every input is checked against the real bash where it has
 * one, on both backends.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { getParser, type BashParser } from '../../../src/engine/parse/index.js';
import { runScenario } from '../../helpers/scenario.js';

const parsers: Record<string, BashParser> = {
  native: await getParser('native'),
  wasm: await getParser('wasm'),
};
const MAIN = '/home/dev/repo';
const hasBash = spawnSync('bash', ['-c', 'exit 0']).status === 0;

describe.each(Object.keys(parsers))('unknown stays unknown (%s)', (backend) => {
  const parser = parsers[backend]!;

  it('a command name that is a glob or unknown (`r[m]`, `$X`): relative paths it is given, and a cwd moved to, may be written', () => {
    const wt = `${MAIN}/.builders/b1`;
    for (const cmd of ['$X -rf ../../f', '/bin/r[m] -rf ../../f', 'r[m] -rf ../../f', 'cd ../.. && /bin/r? -rf f']) {
      const v = runScenario(parser, `cd ${wt} && ${cmd}`).verdict;
      expect(v.decision, cmd).not.toBe('allow');
      expect(v.findings.map((f) => f.path), cmd).toContain(cmd.startsWith('cd') ? MAIN : `${MAIN}/f`);
    }
    expect(runScenario(parser, `cd ${wt} && $X -rf build`).verdict.decision).toBe('allow');
  });

  it('a[1-1]=x, a[$i]=x: an index not known statically may be any element, the one `$a` reads too', () => {
    const wt = `${MAIN}/.builders/b1`;
    if (hasBash) expect(spawnSync('bash', ['-c', 'a=y; a[1-1]=../f; echo "$a"'], { encoding: 'utf8' }).stdout.trim()).toBe('../f');
    for (const sub of ['1-1', '$((0))', '$i']) {
      const v = runScenario(parser, `cd ${wt} && a=y; a[${sub}]=../../f; rm -rf "$a"`).verdict;
      expect(v.decision, sub).not.toBe('allow');
    }
    expect(runScenario(parser, `cd ${wt} && a=y; a[1]=../../f; rm -rf "$a"`).verdict.decision).toBe('allow');
  });
});
