/**
 * The fuzzer in the normal test run: a short deterministic smoke run (fixed seed and execution
 * count), and the replay of every regression it (or the property / adversarial tests) found.
 * Long runs: `BASHGUARD_FUZZ_SECONDS=300 npx vitest run test/system/fuzz` in-process, or
 * `node test/system/fuzz/fuzz.mjs --seconds 300` with hang detection in a watched worker.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getParser, type BashParser } from '../../../src/engine/parse/index.js';
import { runScenario } from '../../helpers/scenario.js';
import { sharedDirOrSkip } from '../../helpers/shared.js';
import { BUDGET_MS, execOne, fuzz, loadSeeds } from './engine.js';

interface Regression {
  id: string;
  /** What went wrong before the fix (or what the case guards against). */
  kind: string;
  input: string;
  /** Decisions the input may get; omitted: any, as long as the fuzz invariants hold. */
  decisions?: Array<'allow' | 'ask' | 'deny'>;
  found: string;
  fixed: string;
}

const regressions = JSON.parse(readFileSync(join(import.meta.dirname, 'regressions.json'), 'utf8')) as Regression[];
const SMOKE_SEED = Number(process.env.BASHGUARD_FUZZ_SEED ?? 20261121);
const LONG_SECONDS = Number(process.env.BASHGUARD_FUZZ_SECONDS ?? 0);
const SMOKE_EXECS = Number(process.env.BASHGUARD_FUZZ_EXECS ?? 1500);

let native: BashParser;
let wasm: BashParser;
let seeds: string[] = [];
// The smoke run seeds from ../shared; the regressions below are in the repository and always run.
const shared = sharedDirOrSkip();
beforeAll(async () => {
  native = await getParser('native');
  wasm = await getParser('wasm');
  if (shared.dir) seeds = loadSeeds(join(shared.dir, 'corpora'));
});

describe('fuzz', () => {
  const title = LONG_SECONDS > 0 ? `long run: ${LONG_SECONDS} s, seed ${SMOKE_SEED}` : `smoke run: ${SMOKE_EXECS} executions, seed ${SMOKE_SEED}`;
  it(
    `${title}: no exception, budget overrun, allowed unanalyzable input, backend mismatch or nondeterminism`,
    (ctx) => {
      if (shared.skip) return ctx.skip(shared.skip);
      expect(seeds.length).toBeGreaterThan(1000);
      const stats = fuzz({
        seed: SMOKE_SEED,
        seeds,
        native,
        wasm,
        ...(LONG_SECONDS > 0 ? { maxMs: LONG_SECONDS * 1000 } : { maxExecs: SMOKE_EXECS }),
      });
      const found = Object.values(stats.unique);
      if (LONG_SECONDS > 0 || found.length > 0) {
        process.stderr.write(`[fuzz] seed ${stats.seed}: ${stats.execs} execs in ${(stats.ms / 1000).toFixed(1)} s, corpus ${stats.corpus}, features ${stats.features}, decisions ${JSON.stringify(stats.decisions)}, slowest ${stats.slowestMs.toFixed(0)} ms CPU, unique findings ${found.length}\n`);
      }
      expect(
        found.map((f) => `${f.signature} (x${f.count}) input=${JSON.stringify(f.input)}`),
        `fuzz findings with seed ${SMOKE_SEED}: add each to test/system/fuzz/regressions.json`,
      ).toEqual([]);
    },
    LONG_SECONDS > 0 ? LONG_SECONDS * 1000 + 120_000 : 120_000,
  );

  describe('regressions', () => {
    it('the file is well formed', () => {
      expect(regressions.length).toBeGreaterThan(0);
      expect(new Set(regressions.map((r) => r.id)).size).toBe(regressions.length);
    });
    for (const r of regressions) {
      it(`${r.id}: ${r.kind}`, () => {
        const out = execOne(native, wasm, r.input, { differential: true, repeat: true });
        expect(out.findings.map((f) => f.signature)).toEqual([]);
        expect(out.ms).toBeLessThan(BUDGET_MS);
        if (r.decisions) {
          expect(r.decisions, `native: ${JSON.stringify(r.input)}`).toContain(out.decision);
          expect(r.decisions, `wasm: ${JSON.stringify(r.input)}`).toContain(runScenario(wasm, r.input).verdict.decision);
        }
      });
    }
  });
});
