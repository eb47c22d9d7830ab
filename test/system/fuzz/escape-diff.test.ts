/**
 * The differential soundness hunt in the normal test run (see escape-diff.ts): a small fixed-seed
 * batch of generated escape commands; every one the analyzer allows is run for real by the
 * execution oracle, and none may change anything outside the worktree. Long runs:
 * `node test/system/fuzz/escape-diff.mjs --seconds 600 --seed N --out /tmp/escape-diff.json`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getParser, type BashParser } from '../../../src/engine/parse/index.js';
import { oracleAvailability } from '../../tooling/oracle/oracle.js';
import { cannotRun } from '../../helpers/shared.js';
import { commandArb, escapeDiff } from './escape-diff.js';
import fc from 'fast-check';

const SEED = Number(process.env.BASHGUARD_ESCDIFF_SEED ?? 20261207);
const COMMANDS = Number(process.env.BASHGUARD_ESCDIFF_COMMANDS ?? 400);

let parser: BashParser;
let unavailable: string | null = null;
beforeAll(async () => {
  parser = await getParser('native');
  const a = await oracleAvailability();
  if (!a.available) unavailable = cannotRun(`escape-diff needs the execution oracle: ${a.reason}`);
});

describe('escape-diff', () => {
  it('the grammar gives the same commands for a seed, and covers every route family', () => {
    const a = fc.sample(commandArb, { seed: SEED, numRuns: 300 });
    const b = fc.sample(commandArb, { seed: SEED, numRuns: 300 });
    expect(a).toEqual(b);
    const families = new Set(a.map((g) => g.shape.split('/')[0]));
    expect([...families].sort()).toEqual(['direct', 'nav', 'route', 'stack', 'var']);
  });

  it(`smoke run: ${COMMANDS} commands, seed ${SEED}: no allowed command changes anything outside the worktree`, async (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const stats = await escapeDiff({ seed: SEED, maxCommands: COMMANDS, batch: COMMANDS, parser });
    expect(stats.generated).toBe(COMMANDS);
    // The run means something only when the analyzer allowed commands and the oracle ran them.
    expect(stats.decisions.allow ?? 0).toBeGreaterThan(20);
    expect(stats.oracleRun).toBeGreaterThan(20);
    expect(stats.oracleErrors).toBe(0);
    expect(stats.findings.map((f) => `${f.cmd}  =>  ${[...f.changedOutside, ...f.gitMain, ...f.gitShared].join(', ')}`)).toEqual([]);
  }, 600_000);
});
