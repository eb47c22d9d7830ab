/**
 * Every corpus case (corpus/*.yaml) is its own test: `corpus/<file>.yaml:<line> <cmd>`.
 * Adding a case never needs TypeScript: edit the YAML. See src/frontends/corpus/schema.ts for the fields.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getParser } from '../../../src/engine/parse/index.js';
import { findDuplicates, parseCorpus, CorpusError } from '../../../src/frontends/corpus/schema.js';
import { compareCase, corpusFiles, describeFailure, loadCorpus, runCase } from '../../../src/frontends/corpus/run.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const files = corpusFiles(join(ROOT, 'corpus'));
const cases = loadCorpus(files, ROOT);
const parser = await getParser();

describe('corpus', () => {
  it('has no duplicate cases (same cmd + cwd + tool) across files', () => {
    expect(findDuplicates(cases)).toEqual([]);
  });

  it('has at least 420 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(420);
  });

  for (const c of cases) {
    const name = `${c.file}:${c.line} ${c.cmd.replace(/\n/g, '\\n')}${c.cwd ? ` [cwd ${c.cwd}]` : ''}${c.tool !== 'Bash' ? ` [${c.tool}]` : ''}`;
    it(name, () => {
      const r = runCase(parser, c);
      const problems = compareCase(c, r);
      if (problems.length > 0) expect.fail('\n' + describeFailure(c, r, problems));
    });
  }
});

describe('corpus schema', () => {
  const bad = (text: string) => () => parseCorpus(text, 'x.yaml');
  it('rejects unknown fields with file:line', () => {
    expect(bad('- {cmd: a, expect: allow}\n- {cmd: b, expect: deny, rulez: BG1001}\n')).toThrow(/^x\.yaml:2: rulez: unknown field/);
  });
  it('rejects bad values', () => {
    expect(bad('- {cmd: a, expect: maybe}')).toThrow(/x\.yaml:1: expect: must be allow, ask or deny/);
    expect(bad('- {cmd: a, expect: deny, rule: BG9999}')).toThrow(/unknown rule BG9999/);
    expect(bad('- {cmd: a, expect: deny, confidence: sure}')).toThrow(/confidence/);
    expect(bad('- {cmd: a, expect: deny, tool: Read}')).toThrow(/tool/);
    expect(bad('- {expect: deny}')).toThrow(/x\.yaml:1: cmd: required/);
    expect(bad('- {cmd: a, expect: deny, oracle: 3}')).toThrow(/oracle/);
    expect(bad('- {cmd: a, expect: deny, findings: [{rule: BG1001, where: x}]}')).toThrow(/findings\.where/);
    expect(bad('- {cmd: a, expect: deny, config: {writeRootz: []}}')).toThrow(/writeRootz/);
    expect(bad('cmd: a')).toThrow(/list of cases/);
  });
  it('accepts rule names and ids, and relative cwd/symlink paths', () => {
    const [c] = parseCorpus('- {cmd: "touch ../b2/x", expect: deny, rules: [write-to-sibling-worktree, bg1003], cwd: src, symlinks: {l: /home/dev/repo}}', 'x.yaml');
    expect(c!.rules).toEqual(['BG1003']);
    expect(c!.cwd).toBe('/home/dev/repo/.builders/b1/src');
    expect(c!.symlinks).toEqual({ '/home/dev/repo/.builders/b1/l': '/home/dev/repo' });
  });
  it('reports the error type', () => {
    expect(bad('- [1')).toThrow(CorpusError);
  });
});
