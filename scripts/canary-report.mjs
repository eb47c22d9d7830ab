#!/usr/bin/env node
// The canary measurement (issue 48): fetches the pinned codebases (scripts/canary-lib.mjs), lints
// every bash-valid file with a write appended, and prints files, canaries found and missed by
// cause; then the hook over the shared agent command corpora, each command followed by a write.
// Needs `npm run build` (lint runs bin/bashguard.js; the hook part uses dist/api.js).
//
//   node scripts/canary-report.mjs            # the tables
//   node scripts/canary-report.mjs --list     # also every missed canary (file, line, cause)
//   node scripts/canary-report.mjs --no-hook  # lint only
//   node scripts/canary-report.mjs --checkout DIR   # measure another built checkout (its bin/ and dist/)
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { agentCommands, classify, fetchPackages, FOUND, hookCases, lintAll, PACKAGES, prepare, REPO } from './canary-lib.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--checkout');
const checkout = at >= 0 ? resolve(args[at + 1]) : REPO;
const log = (m) => process.stderr.write(`canary: ${m}\n`);
const fetched = fetchPackages(log);
if (fetched.skip) {
  console.log(`canary-report: skipped: ${fetched.skip}`);
  process.exit(0);
}
const prepared = prepare(fetched.dir, log);
let t0 = performance.now();
const fates = classify(prepared, lintAll(prepared, { bin: join(checkout, 'bin', 'bashguard.js') }));
const lintSeconds = (performance.now() - t0) / 1000;
const count = (xs, fate) => xs.filter((x) => x.fate === fate).length;
const CAUSES = ['parse-error', 'incomplete', 'unreachable-unverified', 'dropped'];
console.log(`${checkout === REPO ? '' : `checkout ${checkout}\n`}lint: ${PACKAGES.length} codebases, ${prepared.total} shell files, ${prepared.files.length} bash-valid with a canary (${prepared.rejected} left out: bash -n rejects them), ${lintSeconds.toFixed(1)} s`);
console.log(['codebase'.padEnd(22), 'files', 'reported', 'unreach', ...CAUSES.map((c) => c.replace('unreachable-', ''))].map((s, i) => (i ? s.padStart(12) : s)).join(''));
for (const p of [...PACKAGES.map((x) => x.name), 'total']) {
  const xs = p === 'total' ? fates : fates.filter((f) => f.pkg === p);
  console.log([p.padEnd(22), xs.length, count(xs, 'reported'), count(xs, 'unreachable'), ...CAUSES.map((c) => count(xs, c))].map((s, i) => (i ? String(s).padStart(12) : s)).join(''));
}
const missed = fates.filter((f) => !FOUND.has(f.fate));
console.log(`canaries found: ${fates.length - missed.length} of ${fates.length}; missed: ${missed.length}`);
console.log(`parse errors (BG0001) on these bash-valid files: ${fates.reduce((n, f) => n + f.parseErrors, 0)} in ${fates.filter((f) => f.parseErrors > 0).length} files`);
if (args.includes('--list')) for (const m of missed) console.log(`  ${m.pkg}/${m.rel}:${m.line}\t${m.fate}${m.why.length ? `\t${m.why.join(' ; ').slice(0, 200)}` : ''}`);

if (args.includes('--no-hook')) process.exit(0);
const sharedDir = process.env.BASHGUARD_SHARED ?? resolve(REPO, '..', 'shared');
if (!existsSync(join(sharedDir, 'corpora', 'commands'))) {
  console.log(`hook: skipped: no shared command corpora at ${sharedDir}`);
  process.exit(0);
}
const { cases, total } = hookCases(agentCommands(sharedDir));
const { hookCanaries } = await import(pathToFileURL(join(REPO, 'scripts', 'canary-hook.mjs')).href);
t0 = performance.now();
const results = await hookCanaries(cases, { checkout });
const allowed = results.filter((r) => r.decision === 'allow');
console.log(`hook: ${total} agent commands, ${cases.length} with the canary on a line of its own (bash -n), ${((performance.now() - t0) / 1000).toFixed(1)} s`);
for (const c of [...new Set(cases.map((x) => x.corpus))]) {
  const xs = results.filter((r) => r.corpus === c);
  console.log(`  ${c.padEnd(26)} ${String(xs.length).padStart(6)} canaries, allowed (missed): ${xs.filter((r) => r.decision === 'allow').length}`);
}
if (args.includes('--list')) for (const a of allowed) console.log(`  allowed: ${JSON.stringify(a.cmd).slice(0, 200)}`);
