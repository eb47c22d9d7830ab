/**
 * Every certain deny in the corpus has a benign twin the execution oracle runs (issue #48 item 5,
 * test/helpers/corpus-twins.ts says what a twin is).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getParser } from '../../../src/engine/parse/index.js';
import { corpusFiles, loadCorpus } from '../../../src/frontends/corpus/run.js';
import { parseCorpus } from '../../../src/frontends/corpus/schema.js';
import { NO_TWIN_HERE, twinReport } from '../../helpers/corpus-twins.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const parser = await getParser();

describe('benign twins', () => {
  it('the check finds a certain deny without a twin, and accepts one with a twin', () => {
    const alone = parseCorpus('- {cmd: "shred -u /home/dev/repo/README.md", expect: deny}\n- {cmd: "touch x", expect: allow}\n', 'x.yaml');
    expect(twinReport(parser, alone).withoutTwin).toEqual(['x.yaml:1 shred -u /home/dev/repo/README.md (shred)']);
    const notRun = parseCorpus('- {cmd: "shred -u /home/dev/repo/README.md", expect: deny}\n- {cmd: "shred -u README.md", expect: allow, oracle: "not run"}\n', 'x.yaml');
    expect(twinReport(parser, notRun).withoutTwin).toHaveLength(1);
    const twinned = parseCorpus('- {cmd: "shred -u /home/dev/repo/README.md", expect: deny}\n- {cmd: "shred -u README.md", expect: allow}\n', 'x.yaml');
    expect(twinReport(parser, twinned)).toMatchObject({ certainDenies: 1, withoutTwin: [] });
    const exempt = twinReport(parser, alone, { shred: 'not here', wget: 'unused' });
    expect(exempt).toMatchObject({ withoutTwin: [], exempted: ['x.yaml:1 shred -u /home/dev/repo/README.md (shred: not here)'], unusedExemptions: ['wget'] });
  });

  it('every certain deny of the corpus has an oracle-run allow case with the same writer', () => {
    const report = twinReport(parser, loadCorpus(corpusFiles(join(ROOT, 'corpus')), ROOT), NO_TWIN_HERE);
    console.log(
      `corpus twins: ${report.certainDenies} certain denies, ${report.withoutTwin.length} without a benign twin, ${report.exempted.length} whose twin cannot run here:\n  ${report.exempted.join('\n  ')}`,
    );
    expect(report.certainDenies).toBeGreaterThan(300);
    expect(report.withoutTwin).toEqual([]);
    expect(report.unusedExemptions, 'an exemption no certain deny needs any more').toEqual([]);
  });
});
