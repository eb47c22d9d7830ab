#!/usr/bin/env node
// Fails on a skipped test whose title does not name a platform reason: in CI (.ci/run) every
// program, package and build a test needs is there, so the only skips left may be where the run
// happens (the platform, the user, Node's version). The reasons are PLATFORM_REASONS in
// test/helpers/shared.ts; a test skipped for one of them says it in its title.
//
// usage: node scripts/check-skips.mjs REPORT.json...   (vitest's JSON reporter output)
// Prints one line per skip it refuses and exits 1 then; 2 on a report it cannot read.
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The values of PLATFORM_REASONS, read from the helper's source (the one list). */
export function platformReasons(source = readFileSync(join(root, 'test', 'helpers', 'shared.ts'), 'utf8')) {
  const block = /export const PLATFORM_REASONS = \{([\s\S]*?)\} as const;/.exec(source);
  if (!block) throw new Error('test/helpers/shared.ts has no PLATFORM_REASONS block');
  return [...block[1].matchAll(/^\s*\w+: '([^']+)',?$/gm)].map((m) => m[1]);
}

/** The skipped tests of a vitest JSON report that name no platform reason: `file > full name`. */
export function unexplainedSkips(report, reasons) {
  const out = [];
  for (const file of report.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      if (t.status !== 'skipped' && t.status !== 'pending' && t.status !== 'todo') continue;
      if (reasons.some((r) => t.fullName.includes(r))) continue;
      out.push(`${relative(root, file.name)} > ${t.fullName}`);
    }
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    process.stderr.write('usage: node scripts/check-skips.mjs REPORT.json...\n');
    process.exit(2);
  }
  const reasons = platformReasons();
  let bad = [];
  let skipped = 0;
  for (const f of files) {
    let report;
    try {
      report = JSON.parse(readFileSync(f, 'utf8'));
    } catch (e) {
      process.stderr.write(`check-skips: cannot read ${f}: ${e.message.split('\n')[0]}\n`);
      process.exit(2);
    }
    skipped += report.numPendingTests ?? 0;
    bad = bad.concat(unexplainedSkips(report, reasons));
  }
  for (const b of bad) process.stderr.write(`check-skips: skipped without a platform reason: ${b}\n`);
  process.stderr.write(`check-skips: ${skipped} skipped, ${bad.length} without a platform reason (${reasons.length} reasons allowed)\n`);
  process.exit(bad.length > 0 ? 1 : 0);
}
