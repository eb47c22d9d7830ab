/**
 * src/frontends/lint/isolated.ts with the lint process analyzing beside a real child (the built worker,
 * dist/lint-worker-start.cjs): once the queue is empty, the lint process takes back the file it
 * had sent ahead to the child, unless that child is to write its code cache at the end of its
 * input. The lint process's own share is a stand-in here that records which files it was given.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getParser } from '../../../src/engine/parse/index.js';
import { lintIsolated, type LintJob, type OwnShare } from '../../../src/frontends/lint/isolated.js';
import { Linter, type FileResult } from '../../../src/frontends/lint/lint.js';
import { REPO_ROOT, unless } from '../../helpers/shared.js';

const WORKER = join(REPO_ROOT, 'dist', 'lint-worker-start.cjs');

describe.skipIf(unless(existsSync(WORKER), `lintIsolated: dist/ is not built (${WORKER}; node scripts/build.mjs, as npm test does)`) !== null)('lintIsolated: a file sent ahead to a child, taken back', () => {
  let dir: string;
  let jobs: LintJob[];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bashguard-lint-isolated-'));
    const write = (name: string, text: string): LintJob => {
      writeFileSync(join(dir, name), text);
      return { path: join(dir, name), display: name };
    };
    // The child's first file (the largest) is long work for it, ~300 KB of commands; the second
    // largest is sent ahead to it (twice the first is less than the bytes left); the ten others
    // are this process's share.
    const line = (i: number) => `cd /tmp/d${i % 7} && echo "$v${i}" > ../out${i} || rm -f /etc/f${i}\n`;
    let big = '#!/bin/sh\n';
    for (let i = 0; big.length < 300_000; i++) big += line(i);
    jobs = [write('big.sh', big), write('ahead.sh', `#!/bin/sh\necho ahead > /etc/ahead\n${'# pad\n'.repeat(40_000)}`)];
    for (let i = 0; i < 10; i++) jobs.push(write(`own${i}.sh`, `#!/bin/sh\n${'# pad\n'.repeat(8_000 + i)}`));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = async () => {
    const env = { PATH: process.env.PATH, HOME: dir, XDG_CACHE_HOME: join(dir, 'cache') };
    // A step budget bounds the big file's analysis (the same on any load), yet keeps the child on it
    // well after this process has done its own files (~0.6 s): 3,000 steps ended it first under load.
    const opts = { root: dir, env, maxSteps: 30000 };
    const linter = new Linter(await getParser(), opts, dir);
    const given: number[] = [];
    const own: OwnShare = {
      lint: (i) => {
        given.push(i);
        // Each of this process's files takes a while: the child is up (and has said so) by the
        // time the last one is done, ~0.6 s in, even on a loaded machine, and still on its first
        // file, ~300 KB, which takes it ~2 s here (its time budget).
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60);
        return { file: jobs[i]!.display, findings: [], stand_in: true } as unknown as FileResult;
      },
      arm: () => {},
      disarm: () => {},
    };
    const results = await lintIsolated(jobs, { parser: undefined, opts, displayCwd: dir }, linter, 60, env, () => {}, 1, own);
    return { given, results };
  };
  const standIn = (r: FileResult) => (r as unknown as { stand_in?: boolean }).stand_in === true;

  it('a child that writes its code cache keeps the file sent ahead; a later one gives it back, and every file has a result once', async () => {
    // First run: no code cache yet, so the child writes one as its input ends; nothing is taken back from it.
    const first = await run();
    expect(first.given.sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(standIn(first.results[1]!)).toBe(false);
    expect(first.results[1]!.findings.map((f) => f.rule)).toEqual(['BG1001']);
    // The child ended by itself, and wrote its cache.
    const cacheDir = join(dir, 'cache', 'bashguard');
    const cached = () => existsSync(cacheDir) && readdirSync(cacheDir).some((n) => n.startsWith('hook-lint-'));
    for (let i = 0; i < 100 && !cached(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(cached()).toBe(true);

    // Second run: the child reads its cache, and the file sent ahead to it comes back to this process.
    const second = await run();
    expect(second.given).toContain(1);
    expect(second.given.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(standIn(second.results[1]!)).toBe(true);
    // The child's own file is its answer (as far as the step budget goes).
    expect(standIn(second.results[0]!)).toBe(false);
    expect(second.results[0]!.findings.length).toBeGreaterThan(100);
    expect(second.results.filter(Boolean)).toHaveLength(jobs.length);
  }, 60_000);
});
