#!/usr/bin/env node
// Writes the flags table of docs/usage.md (between its flags-table markers) from the CLI's own
// definitions, as the built CLI has them (dist/bashguard.js: run after the build; build.mjs does).
// `--check`: exit 1 without writing when the page is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const page = join(repo, 'docs', 'usage.md');
const { flagsTable } = await import(join(repo, 'dist', 'bashguard.js'));
const table = await flagsTable();
const end = table.slice(table.lastIndexOf('\n') + 1);
const text = readFileSync(page, 'utf8');
const i = text.indexOf('<!-- flags-table:start');
const j = text.indexOf(end);
if (i < 0 || j < i) {
  console.error(`gen-flags-table: docs/usage.md has no <!-- flags-table:start ... ${end} markers`);
  process.exit(1);
}
const next = text.slice(0, i) + table + text.slice(j + end.length);
if (next === text) process.exit(0);
if (process.argv.includes('--check')) {
  console.error('gen-flags-table: the flags table of docs/usage.md is stale (run npm run build)');
  process.exit(1);
}
writeFileSync(page, next);
console.error('gen-flags-table: docs/usage.md flags table updated');
