#!/usr/bin/env node
// Long fuzz runs of the analysis + policy engine (see engine.ts for the invariants).
//
//   node test/system/fuzz/fuzz.mjs --seconds 300 --seed 1 [--out test/system/fuzz/last-run.json]
//
// Bundles engine.ts with esbuild into node_modules/.cache (so tree-sitter and grammars/ resolve
// as for dist/), then runs it in a worker process watched for hangs: a worker that reports no
// progress for --hang-seconds is killed, the input it was on is recorded as a `hang` finding, and
// a new worker continues with the next seed. Unique findings (shortest input per signature) are
// printed and written to --out; turn each into a case in test/system/fuzz/regressions.json.
import { fork, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle as bundleEntry, flag, here, opt, root } from './run-setup.mjs';

if (flag('worker')) {
  const bundle = opt('bundle');
  const { fuzz, loadSeeds } = await import(bundle);
  const { getParser } = await import(bundle);
  const seed = Number(opt('seed', '1'));
  const seconds = Number(opt('seconds', '60'));
  const lastInput = opt('last-input');
  const native = await getParser('native');
  const wasm = await getParser('wasm');
  const seeds = loadSeeds(opt('corpora'));
  let lastWrite = 0;
  const stats = fuzz({
    seed,
    maxMs: seconds * 1000,
    seeds,
    native,
    wasm,
    onInput: (input) => {
      // Cheap enough at fuzz rates; the parent reads it only after a hang.
      writeFileSync(lastInput, input);
      const now = Date.now();
      if (now - lastWrite > 1000) {
        lastWrite = now;
        process.send?.({ type: 'alive' });
      }
    },
    onProgress: (s) => process.send?.({ type: 'progress', stats: summarize(s) }),
  });
  process.send?.({ type: 'done', stats: summarize(stats), unique: stats.unique });
  process.exit(0);
}

function summarize(s) {
  return { seed: s.seed, execs: s.execs, seconds: Math.round(s.ms / 1000), corpus: s.corpus, features: s.features, decisions: s.decisions, unique: Object.keys(s.unique).length, slowestMs: Math.round(s.slowestMs) };
}

// ---------------------------------------------------------------- parent
const seconds = Number(opt('seconds', process.env.BASHGUARD_FUZZ_SECONDS ?? '300'));
const hangSeconds = Number(opt('hang-seconds', '30'));
let seed = Number(opt('seed', '1'));
const out = opt('out', join(here, 'last-run.json'));
const corpora = opt('corpora', process.env.BASHGUARD_SHARED ? join(process.env.BASHGUARD_SHARED, 'corpora') : join(root, '..', 'shared', 'corpora'));
if (!existsSync(corpora)) throw new Error(`corpora not found at ${corpora}`);

const { cache, path: bundle } = await bundleEntry(
  'bashguard-fuzz',
  'engine.mjs',
  "export * from './test/system/fuzz/engine.ts'; export { getParser } from './src/engine/parse/index.ts'; export { makeGitLayout } from './test/helpers/git-layout.ts';",
);

const started = Date.now();
const total = { execs: 0, workers: 0, decisions: {}, slowestMs: 0, seeds: [] };
const unique = {};
const lastInput = join(cache, 'last-input.txt');

function record(f) {
  const u = unique[f.signature];
  if (!u) unique[f.signature] = { ...f };
  else {
    u.count += f.count ?? 1;
    if (f.input.length < u.input.length) Object.assign(u, { input: f.input, detail: f.detail });
  }
}

while (Date.now() - started < seconds * 1000) {
  const left = Math.max(5, Math.round(seconds - (Date.now() - started) / 1000));
  total.workers++;
  total.seeds.push(seed);
  const result = await new Promise((resolve) => {
    const child = fork(fileURLToPath(import.meta.url), ['--worker', '--bundle', bundle, '--seed', String(seed), '--seconds', String(left), '--corpora', corpora, '--last-input', lastInput], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: ['--max-old-space-size=2048'] });
    let alive = Date.now();
    let last = null;
    const timer = setInterval(() => {
      if (Date.now() - alive > hangSeconds * 1000) {
        child.kill('SIGKILL');
      }
    }, 1000);
    child.on('message', (m) => {
      alive = Date.now();
      if (m.type === 'progress') {
        last = m.stats;
        process.stderr.write(`[fuzz] seed ${seed}: ${m.stats.execs} execs, ${m.stats.seconds}s, corpus ${m.stats.corpus}, features ${m.stats.features}, unique findings ${m.stats.unique}\n`);
      }
      if (m.type === 'done') last = { ...m.stats, final: true, uniqueFindings: m.unique };
    });
    child.on('exit', (code, signal) => {
      clearInterval(timer);
      resolve({ code, signal, last });
    });
  });
  if (result.last) {
    total.execs += result.last.execs;
    for (const [k, v] of Object.entries(result.last.decisions ?? {})) total.decisions[k] = (total.decisions[k] ?? 0) + v;
    total.slowestMs = Math.max(total.slowestMs, result.last.slowestMs ?? 0);
  }
  if (result.last?.final) {
    for (const f of Object.values(result.last.uniqueFindings)) record(f);
  } else {
    // killed (hang) or crashed (e.g. out of memory, native abort): the input it was on
    const input = existsSync(lastInput) ? readFileSync(lastInput, 'utf8') : '';
    const kind = result.signal === 'SIGKILL' ? 'hang' : 'crash';
    record({ kind, signature: `${kind}: worker ${result.signal ?? `exit ${result.code}`}`, input, detail: `worker ended with ${result.signal ?? result.code}`, count: 1 });
  }
  seed++;
}

// Run-aways (hangs, crashes, budget overruns) are checked against the product's guarantee: the
// hook Claude Code runs (bin/bashguard-hook, which stops `bashguard hook` after
// BASHGUARD_HOOK_TIMEOUT s) must still answer, in a real linked worktree. tree-sitter can run
// away inside one native parse step, which no in-process budget can stop (docs/limits.md).
const HOOK_LIMIT_S = 3;
async function containedByHook(findings) {
  const runaways = findings.filter((f) => ['hang', 'crash', 'budget'].includes(f.kind));
  if (runaways.length === 0) return;
  const { makeGitLayout } = await import(bundle);
  const layout = makeGitLayout('bashguard-fuzz-hook-');
  try {
    for (const f of runaways) {
      const event = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', cwd: layout.worktree, tool_input: { command: f.input } });
      const t0 = Date.now();
      const r = spawnSync(join(root, 'bin', 'bashguard-hook'), [], { input: event, encoding: 'utf8', timeout: (HOOK_LIMIT_S + 30) * 1000, env: { PATH: process.env.PATH, HOME: layout.root, BASHGUARD_NODE: process.execPath, BASHGUARD_HOOK_TIMEOUT: String(HOOK_LIMIT_S) } });
      const ms = Date.now() - t0;
      let decision = r.status === 0 && r.stdout === '' ? 'allow' : null;
      try {
        decision ??= JSON.parse(r.stdout).hookSpecificOutput.permissionDecision;
      } catch {}
      const answered = r.status === 0 && decision !== null && ms < (HOOK_LIMIT_S + 10) * 1000;
      f.hook = { ms, decision, answered, stoppedByLimit: /did not finish within/.test(r.stdout) };
    }
  } finally {
    layout.cleanup();
  }
}
await containedByHook(Object.values(unique));

const report = {
  when: new Date(started).toISOString(),
  seconds: Math.round((Date.now() - started) / 1000),
  ...total,
  uniqueFindings: Object.keys(unique).length,
  /** Findings the supervised hook did not answer in time: what would reach a user. */
  uncontained: Object.values(unique).filter((f) => !f.hook?.answered).length,
  findings: Object.values(unique),
};
writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
process.stderr.write(`[fuzz] done: ${report.seconds}s, ${report.execs} execs, ${report.workers} worker(s), ${report.uniqueFindings} unique finding(s) -> ${out}\n`);
for (const f of report.findings) process.stderr.write(`  - ${f.signature} (x${f.count})${f.hook ? ` [hook: ${f.hook.decision ?? 'no answer'} in ${f.hook.ms} ms${f.hook.stoppedByLimit ? ', stopped by its limit' : ''}]` : ''}: ${JSON.stringify(f.input.slice(0, 200))}\n`);
process.stderr.write(`[fuzz] findings the supervised hook did not answer in time: ${report.uncontained}\n`);
