#!/usr/bin/env node
// Writes the table of which mechanism holds for each client and platform into docs/limits.md,
// between its markers, from src/frontends/hook/clients/capabilities.ts (issue 51, item 6).
//   node scripts/gen-capabilities.mjs           # rewrite the table
//   node scripts/gen-capabilities.mjs --check   # exit 1 when the doc is stale
// A test (test/unit/frontends/capabilities.test.ts) fails when the doc is stale.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const doc = join(root, 'docs', 'limits.md');
const dir = mkdtempSync(join(tmpdir(), 'bashguard-caps-'));
try {
  const out = join(dir, 'capabilities.mjs');
  await build({ entryPoints: [join(root, 'src/frontends/hook/clients/capabilities.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: out, logLevel: 'warning', external: ['tree-sitter', 'tree-sitter-bash', 'web-tree-sitter'] });
  const { withTable } = await import(pathToFileURL(out).href);
  const text = readFileSync(doc, 'utf8');
  const next = withTable(text);
  if (process.argv.includes('--check')) {
    if (next !== text) {
      process.stderr.write('docs/limits.md: the capability table is stale (node scripts/gen-capabilities.mjs)\n');
      process.exitCode = 1;
    }
  } else if (next !== text) {
    writeFileSync(doc, next);
    process.stderr.write('docs/limits.md: capability table written\n');
  }
} catch (err) {
  process.stderr.write(`gen-capabilities: ${err.message.split('\n')[0]}\n`);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
