#!/usr/bin/env node
// Differential soundness hunt (see escape-diff.ts): generated escape commands the analyzer allows,
// run for real by the execution oracle; an allowed command that changed something outside the
// worktree is a finding.
//
//   node test/system/fuzz/escape-diff.mjs --seconds 600 --seed 1 --out /tmp/escape-diff.json
//
// Needs what the oracle needs (Linux, root, unshare, overlayfs). Bundles escape-diff.ts with
// esbuild into node_modules/.cache (tree-sitter and grammars/ resolve as for dist/), next to a
// copy of the oracle's driver, which the bundled oracle spawns from its own directory.
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundle, opt, root } from './run-setup.mjs';

const seconds = Number(opt('seconds', '300'));
const seed = Number(opt('seed', '1'));
const batch = Number(opt('batch', '200'));
const out = opt('out', '/tmp/escape-diff.json');
if (!Number.isFinite(seconds) || seconds <= 0 || !Number.isInteger(seed)) {
  process.stderr.write('escape-diff: --seconds must be a positive number and --seed an integer\n');
  process.exit(2);
}

const built = await bundle(
  'bashguard-escdiff',
  'escape-diff.mjs',
  "export * from './test/system/fuzz/escape-diff.ts'; export { getParser } from './src/engine/parse/index.ts'; export { oracleAvailability } from './test/tooling/oracle/oracle.ts';",
);
copyFileSync(join(root, 'test', 'tooling', 'oracle', 'driver.mjs'), join(built.cache, 'driver.mjs'));

const { escapeDiff, getParser, oracleAvailability } = await import(built.path);
const avail = await oracleAvailability();
if (!avail.available) {
  process.stderr.write(`escape-diff: the execution oracle cannot run here: ${avail.reason}\n`);
  process.exit(2);
}
const parser = await getParser('native');
const stats = await escapeDiff({
  seed,
  batch,
  maxMs: seconds * 1000,
  parser,
  onBatch: (s) => {
    process.stderr.write(`[escape-diff] ${Math.round(s.ms / 1000)}s: generated ${s.generated}, unique ${s.unique}, decisions ${JSON.stringify(s.decisions)}, oracle ran ${s.oracleRun} (skipped ${s.oracleSkipped}, errors ${s.oracleErrors}), findings ${s.findings.length}\n`);
    writeFileSync(out, JSON.stringify(s, null, 2));
  },
});
writeFileSync(out, JSON.stringify(stats, null, 2));
const shapes = {};
for (const f of stats.findings) {
  const k = f.shape.split('/').slice(0, 2).join('/');
  shapes[k] = (shapes[k] ?? 0) + 1;
}
process.stdout.write(`escape-diff: seed ${seed}, ${Math.round(stats.ms / 1000)} s: generated ${stats.generated}, unique ${stats.unique}, decisions ${JSON.stringify(stats.decisions)}, oracle ran ${stats.oracleRun}, skipped ${stats.oracleSkipped}, errors ${stats.oracleErrors}; allowed but escaped: ${stats.findings.length} ${JSON.stringify(shapes)}\nreport: ${out}\n`);
process.exit(stats.findings.length > 0 ? 1 : 0);
