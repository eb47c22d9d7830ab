#!/usr/bin/env node
// bashguard benchmark harness. `npm run bench` (full, ~10 min) or `npm run bench -- --quick`.
// Every measurement is a ratio against a baseline taken in the same run, interleaved, because
// these machines are noisy. See docs/history/performance.md for methods and the start-up profile.
//
// Options:
//   --quick             fewer iterations and a sample of the corpora (~1 minute)
//   --only=a,b          sections: hook, analysis, library, lint, growth, enforce (default: all)
//   --install           install missing shellcheck with apt-get (needs root)
//   --no-build          measure dist/ as it is (default: run the build first)
//   --no-peer           skip the cc-safety-net peer
//   --nodes=22,24       other Node majors to measure the hook on (installed from the npm registry's
//                       node-<platform>-<arch> packages into ~/.cache/bashguard-bench); --nodes= for none
//   --out=DIR           where to write latest.{md,json,svg} (default: bench/results)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { ROOT, BENCH_DIR, HAS_TIME, environment, fmtMs, log, logLogFit, makeLayout, median, pct, rssRun, summary, timeRun, timeRunLight } from './lib.mjs';
import { chart } from './svg.mjs';
import { enforceBench, enforceReport } from './enforce.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const opt = (name, dflt) => {
  const a = args.find((x) => x.startsWith(`--${name}=`));
  return a ? a.slice(name.length + 3) : dflt;
};
const QUICK = flag('quick');
const ONLY = new Set(opt('only', 'hook,analysis,library,lint,growth,enforce').split(','));
const OUT = resolve(opt('out', join(BENCH_DIR, 'results')));
const NODE = process.execPath;
const BIN = join(ROOT, 'bin', 'bashguard.js');
const CACHE = join(tmpdir(), 'bashguard-bench-cache');
const PEER_SPEC = process.env.BENCH_PEER ?? 'cc-safety-net@2.4.5';
const NODE_MAJORS = opt('nodes', '22,24').split(',').filter(Boolean);
const NODE_CACHE = join(process.env.XDG_CACHE_HOME?.startsWith('/') ? process.env.XDG_CACHE_HOME : join(homedir(), '.cache'), 'bashguard-bench');
// Targets (issue #16), each a ratio against a baseline of the same run.
const HOOK_RATIO = 1.35;
const HOOK_RSS_MIB = 48;
const LINT_RATIO = 10;
const T0 = Date.now();
const elapsed = () => `${((Date.now() - T0) / 1000).toFixed(0)}s`;

const results = { env: environment(), mode: QUICK ? 'quick' : 'full', targets: [], sections: {} };
log(`bashguard bench (${results.mode}) — node ${results.env.node}, ${results.env.cpu} x${results.env.cpus}, commit ${results.env.commit?.slice(0, 10) ?? '?'}${results.env.dirty ? ' (dirty)' : ''}`);

// ---- setup ------------------------------------------------------------------------------------

if (!flag('no-build')) {
  log('[setup] building dist/ (npm run build)');
  execFileSync(NODE, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

const layout = makeLayout();
if (!process.env.BENCH_KEEP) process.on('exit', () => rmSync(layout.base, { recursive: true, force: true }));
else log(`[setup] keeping ${layout.base}`);
const HOOK_ENV = { PATH: process.env.PATH, HOME: layout.home, TMPDIR: tmpdir(), USER: process.env.USER ?? 'bench', CC_SAFETY_NET_HOME: join(layout.home, '.cc-safety-net') };

const PAYLOADS = [
  { name: 'Bash allow', event: { tool_name: 'Bash', tool_input: { command: 'git status && npm test -- --run 2>&1 | tail -20', description: 'run tests' } } },
  { name: 'Bash deny', event: { tool_name: 'Bash', tool_input: { command: 'cd ../main && echo done > notes.txt', description: 'note' } } },
  { name: 'Edit', event: { tool_name: 'Edit', tool_input: { file_path: join(layout.main, 'README.md'), old_string: 'hello', new_string: 'bye' } } },
].map((p) => ({ ...p, json: JSON.stringify({ session_id: 'bench', transcript_path: '/dev/null', cwd: layout.wt, hook_event_name: 'PreToolUse', ...p.event }) }));

function decisionOf(stdout) {
  if (stdout.trim() === '') return 'allow';
  try {
    return JSON.parse(stdout).hookSpecificOutput?.permissionDecision ?? 'allow';
  } catch {
    return `unparsed: ${stdout.slice(0, 60)}`;
  }
}

function installPeer() {
  const prefix = join(CACHE, 'peer');
  const name = PEER_SPEC.replace(/@[^@/]*$/, '');
  const pkgDir = join(prefix, 'node_modules', name);
  const want = PEER_SPEC.slice(name.length + 1);
  const have = existsSync(join(pkgDir, 'package.json')) ? JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version : null;
  if (have === null || (want && have !== want)) {
    log(`[setup] installing peer ${PEER_SPEC} into ${prefix} (outside the project's dependencies)`);
    mkdirSync(prefix, { recursive: true });
    const r = spawnSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', PEER_SPEC], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (r.status !== 0) return { error: `npm install ${PEER_SPEC} failed: ${r.stderr.trim().split('\n').pop()}` };
  }
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const binRel = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin[name];
  // README: Claude Code runs `cc-safety-net -cc` (alias --coding-cli, legacy --claude-code) as a PreToolUse hook.
  return { name, version: pkg.version, argv: [NODE, join(pkgDir, binRel), '-cc'] };
}

function target(name, value, ratio, pass, detail) {
  results.targets.push({ name, value, ratio, pass, detail });
  log(`  => ${pass === null ? 'n/a ' : pass ? 'PASS' : 'MISS'} ${name}: ${value}${ratio != null ? ` (${ratio})` : ''}`);
}

// ---- 1. hook cold start -----------------------------------------------------------------------

/** installNode's answers, per major (the hook and lint sections both ask). */
const nodeInstalls = new Map();

/** Installs Node `major` (latest of that line) from the npm registry's platform package into NODE_CACHE. */
function installNode(major) {
  if (!nodeInstalls.has(major)) nodeInstalls.set(major, installNodeOnce(major));
  return nodeInstalls.get(major);
}

function installNodeOnce(major) {
  const pkg = `node-${process.platform}-${process.arch}`;
  const v = spawnSync('npm', ['view', `${pkg}@${major}`, 'version', '--json'], { encoding: 'utf8' });
  if (v.status !== 0) return { error: `npm view ${pkg}@${major} failed: ${v.stderr.trim().split('\n').pop()}` };
  let versions = JSON.parse(v.stdout);
  if (!Array.isArray(versions)) versions = [versions];
  const version = versions.sort((a, b) => { const x = a.split('.').map(Number); const y = b.split('.').map(Number); return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]; }).pop();
  const dir = join(NODE_CACHE, `node-${version}-${process.platform}-${process.arch}`);
  const bin = join(dir, 'package', 'bin', 'node');
  if (!existsSync(bin)) {
    log(`[setup] installing Node ${version} (npm package ${pkg}@${version}) into ${dir}`);
    mkdirSync(dir, { recursive: true });
    const r = spawnSync('npm', ['pack', `${pkg}@${version}`, '--silent', '--pack-destination', dir], { encoding: 'utf8' });
    const tgz = join(dir, r.stdout.trim().split('\n').pop() ?? '');
    if (r.status !== 0 || !existsSync(tgz)) return { error: `npm pack ${pkg}@${version} failed: ${r.stderr.trim().split('\n').pop()}` };
    const t = spawnSync('tar', ['-xzf', tgz, '-C', dir]);
    rmSync(tgz, { force: true });
    if (t.status !== 0 || !existsSync(bin)) return { error: `could not unpack ${tgz}` };
  }
  const ver = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  if (ver.status !== 0) return { error: `${bin} does not run` };
  return { node: bin, version: ver.stdout.trim() };
}

/**
 * Cold start of hook variants on one Node, each run paired with a `node -e 0` of the same Node just
 * before it; the order of subjects rotates every round. Peak RSS in separate interleaved runs.
 */
function measureHook(node, groups, rounds, rssReps, tag) {
  const base = { key: 'baseline', label: `node -e 0 (${tag})`, argv: [node, '-e', '0'], env: HOOK_ENV };
  const subjects = groups.flatMap((g) => PAYLOADS.map((p) => ({ ...g, payload: p })));
  // Decisions, a warm-up of the file cache and of bashguard's code cache (the first run on a
  // machine writes it, every later run reads it): two runs of each.
  const decisions = {};
  for (let i = 0; i < 2; i++) {
    for (const s of subjects) {
      const r = timeRun(s.argv, { input: s.payload.json, env: s.env, cwd: layout.wt });
      (decisions[s.key] ??= {})[s.payload.name] = r.status === 0 ? decisionOf(r.stdout) : `exit ${r.status}: ${r.stderr.trim().split('\n')[0]}`;
    }
  }
  timeRun(base.argv, { env: base.env });
  log(`[hook ${tag}] decisions: ${JSON.stringify(decisions)}`);

  const times = Object.fromEntries([base, ...groups].map((g) => [g.key, []]));
  const pairs = Object.fromEntries(groups.map((g) => [g.key, []]));
  const perPayload = {};
  const perPayloadPairs = {};
  for (let round = 0; round < rounds; round++) {
    const order = subjects.map((_, i) => subjects[(i + round) % subjects.length]);
    for (const s of order) {
      const b = timeRun(base.argv, { env: base.env }).ms;
      const t = timeRun(s.argv, { input: s.payload.json, env: s.env, cwd: layout.wt }).ms;
      times.baseline.push(b);
      times[s.key].push(t);
      pairs[s.key].push(t / b);
      ((perPayload[s.key] ??= {})[s.payload.name] ??= []).push(t);
      ((perPayloadPairs[s.key] ??= {})[s.payload.name] ??= []).push(t / b);
    }
    log(`[hook ${tag}] round ${round + 1}/${rounds}: baseline ${median(times.baseline).toFixed(1)} ms, ${groups.map((g) => `${g.key} ${median(times[g.key]).toFixed(1)} ms`).join(', ')} (${elapsed()})`);
  }
  const rss = Object.fromEntries([base, ...groups].map((g) => [g.key, []]));
  const cpu = Object.fromEntries([base, ...groups].map((g) => [g.key, []]));
  let rssMethod = null;
  for (let i = 0; i < rssReps; i++) {
    for (const s of [{ ...base, payload: null }, ...subjects]) {
      const r = rssRun(s.argv, { input: s.payload?.json ?? '', env: s.env, cwd: layout.wt });
      rssMethod = r.method;
      rss[s.key].push(r.kib / 1024);
      cpu[s.key].push(r.cpuMs);
    }
  }
  log(`[hook ${tag}] peak RSS (${rssMethod}): ${Object.entries(rss).map(([k, v]) => `${k} ${Math.max(...v).toFixed(1)} MiB`).join(', ')}`);
  const baseMed = median(times.baseline);
  const out = { node: tag, rounds, payloads: PAYLOADS.map((p) => p.name), decisions, rssMethod, variants: {} };
  for (const g of [base, ...groups]) {
    const t = times[g.key];
    out.variants[g.key] = {
      label: g.label,
      wall: summary(t),
      ratioOfMedians: median(t) / baseMed,
      medianPairedRatio: g.key === 'baseline' ? 1 : median(pairs[g.key]),
      p90Ratio: pct(t, 90) / pct(times.baseline, 90),
      perPayloadMedian: Object.fromEntries(Object.entries(perPayload[g.key] ?? {}).map(([k, v]) => [k, median(v)])),
      perPayloadRatio: Object.fromEntries(Object.entries(perPayload[g.key] ?? {}).map(([k, v]) => [k, median(v) / baseMed])),
      perPayloadPairedRatio: Object.fromEntries(Object.entries(perPayloadPairs[g.key] ?? {}).map(([k, v]) => [k, median(v)])),
      peakRssMiB: Math.max(...rss[g.key]),
      medianRssMiB: median(rss[g.key]),
      meanCpuMs: cpu[g.key].length ? cpu[g.key].reduce((a, b) => a + b, 0) / cpu[g.key].length : NaN,
      medianCpuMs: median(cpu[g.key]),
      samples: t.map((x) => +x.toFixed(2)),
    };
  }
  return out;
}

/** `s` as one word for sh. */
const shQuote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The hook `bashguard install --hook-form FORM` writes into Claude Code's settings when run with
 * `node` ({command, args?}), so the bench runs exactly what users get. The shell form comes from
 * `install --project --dry-run` in an empty checkout; the exec form from a real `install --user`
 * into a HOME of the bench's own (its command is a launcher file that install writes into
 * ~/.claude/hooks, which a dry run does not).
 */
function installedHook(node, form) {
  const dir = mkdtempSync(join(tmpdir(), 'bashguard-bench-install-'));
  try {
    let out;
    if (form === 'direct') {
      const home = join(layout.home, 'install');
      mkdirSync(home, { recursive: true });
      execFileSync(node, [BIN, 'install', '--user', '--hook-form', form], { cwd: dir, env: { ...HOOK_ENV, HOME: home }, encoding: 'utf8' });
      out = readFileSync(join(home, '.claude', 'settings.json'), 'utf8');
    } else {
      // (in a checkout: install refuses a project install outside one)
      execFileSync('git', ['init', '-q', dir], { stdio: 'ignore' });
      out = execFileSync(node, [BIN, 'install', '--project', '--dry-run', '--hook-form', form], { cwd: dir, env: HOOK_ENV, encoding: 'utf8' });
    }
    const ours = JSON.parse(out).hooks.PreToolUse.flatMap((e) => e.hooks).filter((h) => /bashguard-hook/.test(h.command));
    if (ours.length !== 1) throw new Error(`install wrote ${ours.length} bashguard hooks`);
    return ours[0];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The installed hook's groups for one node, each started as Claude Code starts it:
 * - the target: the exec form that install writes for Claude Code 2.1.295 and later, `command`
 *   spawned with `args` and no shell (the 2.1.330 binary's settings schema: "When present,
 *   `command` is resolved as an executable and spawned directly with these arguments - no
 *   shell"; strace of the e2e run: the client execs node itself);
 * - not a target: the shell form, for older clients, handed to `/bin/sh -c` (`shell: true`;
 *   src/frontends/cli/install.ts): the target of the seventeenth round.
 */
function installedGroups(node) {
  const direct = installedHook(node, 'direct');
  const shell = installedHook(node, 'shell').command;
  const script = join(ROOT, 'bin', 'bashguard-hook');
  return [
    { key: 'installed', label: `~/.claude/hooks/${basename(direct.command)}, a launcher: #!<node> on <dist>/hook-start.cjs (the exec form install writes for Claude Code 2.1.295+, spawned without a shell)`, argv: [direct.command, ...direct.args], env: HOOK_ENV },
    { key: 'shellForm', label: `/bin/sh -c '${shell.replace(node, '<node>').replace(script, '<bin>/bashguard-hook')}' (the shell form, for older clients; the target until the seventeenth round; not a target)`, argv: ['/bin/sh', '-c', shell], env: HOOK_ENV },
  ];
}

/** The hook targets of one Node: allow and deny payloads, native and the installed command. */
function hookTargets(out, tag) {
  const v = out.variants;
  const baseMed = v.baseline.wall.median;
  for (const key of ['native', 'installed']) {
    for (const payload of ['Bash allow', 'Bash deny']) {
      const r = v[key].perPayloadRatio[payload];
      target(
        `Hook cold start (${tag}), ${key === 'native' ? 'node bin/bashguard.js hook' : 'the installed hook (exec form, as Claude Code spawns it)'}, ${payload}: median <= ${HOOK_RATIO} x node -e 0`,
        `${fmtMs(v[key].perPayloadMedian[payload])} vs ${fmtMs(baseMed)}`,
        `${r.toFixed(2)}x; paired ${v[key].perPayloadPairedRatio[payload].toFixed(2)}x`,
        r <= HOOK_RATIO,
      );
    }
  }
}

function benchHook() {
  const rounds = QUICK ? 6 : 30;
  const rssReps = QUICK ? 2 : 5;
  const peer = flag('no-peer') ? { error: 'skipped (--no-peer)' } : installPeer();
  if (peer.error) log(`[hook] peer unavailable: ${peer.error}`);
  const groups = [
    { key: 'native', label: 'bashguard hook (native)', argv: [NODE, BIN, 'hook'], env: HOOK_ENV },
    { key: 'nocache', label: 'bashguard hook (native, code cache off)', argv: [NODE, BIN, 'hook'], env: { ...HOOK_ENV, BASHGUARD_CODE_CACHE: '0' } },
    { key: 'wasm', label: 'bashguard hook (WASM)', argv: [NODE, BIN, 'hook'], env: { ...HOOK_ENV, BASHGUARD_PARSER: 'wasm' } },
    // What `bashguard install` writes, started as Claude Code starts it.
    ...installedGroups(NODE),
  ];
  if (!peer.error) groups.push({ key: 'peer', label: `${peer.name} ${peer.version} -cc`, argv: peer.argv, env: HOOK_ENV });
  const tag = `node ${process.version}`;
  const out = measureHook(NODE, groups, rounds, rssReps, tag);
  out.peer = peer.error ? { error: peer.error } : { name: peer.name, version: peer.version, argv: peer.argv.slice(1) };
  results.sections.hook = out;
  const v = out.variants;
  const baseMed = v.baseline.wall.median;
  hookTargets(out, tag);
  if (v.peer) target(`Hook cold start, native: faster than ${v.peer.label}`, `${fmtMs(v.native.wall.median)} vs ${fmtMs(v.peer.wall.median)}`, `${(v.native.wall.median / v.peer.wall.median).toFixed(2)}x the peer`, v.native.wall.median < v.peer.wall.median);
  else target('Hook cold start, native: faster than the peer', 'peer not measured', null, null, out.peer.error);
  target('Hook cold start, WASM fallback: median <= 3 x node -e 0', `${fmtMs(v.wasm.wall.median)} vs ${fmtMs(baseMed)}`, `${v.wasm.ratioOfMedians.toFixed(2)}x; paired ${v.wasm.medianPairedRatio.toFixed(2)}x`, v.wasm.ratioOfMedians <= 3);
  target(`Hook peak RSS <= ${HOOK_RSS_MIB} MiB (native)`, `${v.native.peakRssMiB.toFixed(1)} MiB (WASM ${v.wasm.peakRssMiB.toFixed(1)} MiB, node -e 0 ${v.baseline.peakRssMiB.toFixed(1)} MiB)`, `${(v.native.peakRssMiB / HOOK_RSS_MIB).toFixed(2)} of budget`, v.native.peakRssMiB <= HOOK_RSS_MIB);

  // Other Node lines, each against its own `node -e 0`.
  results.sections.hookNodes = [];
  for (const major of NODE_MAJORS) {
    const inst = installNode(major);
    if (inst.error) {
      log(`[hook] Node ${major}: ${inst.error}`);
      results.sections.hookNodes.push({ node: `Node ${major}`, error: inst.error });
      target(`Hook cold start on Node ${major}`, 'not measured', null, null, inst.error);
      continue;
    }
    const g = [
      { key: 'native', label: 'bashguard hook (native)', argv: [inst.node, BIN, 'hook'], env: HOOK_ENV },
      ...installedGroups(inst.node),
    ];
    // As many rounds as the bench's own Node: 22 and 24 are first-class, and their targets are the
    // same medians. With 12 rounds a per-payload ratio moved by ±0.02-0.035x (one standard
    // deviation, resampled from the committed run's samples), with 30 by ±0.01-0.026x.
    const o = measureHook(inst.node, g, rounds, QUICK ? 1 : 3, `node ${inst.version}`);
    results.sections.hookNodes.push(o);
    hookTargets(o, `node ${inst.version}`);
    target(`Hook peak RSS <= ${HOOK_RSS_MIB} MiB (native, node ${inst.version})`, `${o.variants.native.peakRssMiB.toFixed(1)} MiB (node -e 0 ${o.variants.baseline.peakRssMiB.toFixed(1)} MiB)`, `${(o.variants.native.peakRssMiB / HOOK_RSS_MIB).toFixed(2)} of budget`, o.variants.native.peakRssMiB <= HOOK_RSS_MIB);
  }
}

// ---- 2. in-process analysis -------------------------------------------------------------------

function sharedDir() {
  for (const d of [process.env.BASHGUARD_SHARED, join(ROOT, '..', 'shared'), '/work/shared']) if (d && existsSync(join(d, 'corpora', 'commands'))) return d;
  return null;
}

function loadCommands() {
  const sets = [];
  const shared = sharedDir();
  if (shared) {
    const dir = join(shared, 'corpora', 'commands');
    const lines = (f) => readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => l.trim() !== '');
    const jsonl = (f) => lines(f).map((l) => { try { return JSON.parse(l).cmd; } catch { return null; } }).filter((c) => typeof c === 'string' && c.trim() !== '');
    for (const [name, f, read] of [['nl2bash', 'nl2bash.cm', lines], ['tldr', 'tldr.txt', lines], ['intercode', 'agent_intercode_bash.jsonl', jsonl], ['swe-agent', 'agent_sweagent_demos.jsonl', jsonl]]) {
      if (existsSync(join(dir, f))) sets.push({ name, cmds: read(f) });
    }
  }
  const corpusDir = join(ROOT, 'corpus');
  if (existsSync(corpusDir)) {
    const YAML = createRequire(join(ROOT, 'package.json'))('yaml');
    const cmds = [];
    for (const f of readdirSync(corpusDir).filter((f) => f.endsWith('.yaml')).sort()) {
      try {
        const doc = YAML.parse(readFileSync(join(corpusDir, f), 'utf8'));
        const walk = (x) => {
          if (Array.isArray(x)) x.forEach(walk);
          else if (x && typeof x === 'object') {
            if (typeof x.cmd === 'string') cmds.push(x.cmd);
            Object.values(x).forEach(walk);
          }
        };
        walk(doc);
      } catch (e) {
        log(`[analysis] corpus/${f}: ${e.message.split('\n')[0]} (skipped)`);
      }
    }
    if (cmds.length) sets.push({ name: 'corpus', cmds });
  }
  return { shared, sets };
}

async function loadEngines() {
  const api = await import(pathToFileURL(join(ROOT, 'dist', 'api.js')).href);
  const parser = await api.getParser('native');
  const req = createRequire(join(ROOT, 'package.json'));
  const TS = req('tree-sitter');
  const raw = new TS();
  raw.setLanguage(req('tree-sitter-bash'));
  const scope = api.openWorkspace(layout.wt, { env: HOOK_ENV });
  // The input buffer sized as bashguard sizes it (src/engine/parse/native.ts): the binding allocates and
  // zeroes it per parse, so a larger one would slow the baseline down, not bashguard.
  const bare = (c) => raw.parse(c, null, { bufferSize: c.length + 1 });
  const check = (c) => scope.check(parser, c);
  return { api, parser, bare, check, scope };
}

const now = () => process.hrtime.bigint();
const msSince = (t) => Number(now() - t) / 1e6;

async function benchAnalysis() {
  const { shared, sets } = loadCommands();
  if (sets.length === 0) {
    results.sections.analysis = { error: 'no command corpora found (set BASHGUARD_SHARED)' };
    log('[analysis] no corpora found; set BASHGUARD_SHARED to the directory holding corpora/commands');
    return;
  }
  const { bare, parser, check, scope } = await loadEngines();
  if (scope.skipped) throw new Error(`bench layout not enforced: ${scope.skipped}`);
  // Quick mode samples every 10th command but keeps the min of 3 reps: with one rep each time is a
  // single sample, preemption included (the bare parse, the ratio's denominator, suffers most).
  const reps = 3;
  const stride = QUICK ? 10 : 1;
  const all = sets.flatMap((s) => s.cmds.map((c) => ({ set: s.name, c })));
  const cmds = all.filter((_, i) => i % stride === 0);
  log(`[analysis] ${cmds.length} commands from ${sets.map((s) => `${s.name} ${s.cmds.length}`).join(', ')}${stride > 1 ? ` (every ${stride}th)` : ''}, ${reps} rep(s) each, min per command`);

  // Warm-up: let the JIT see every path, and optimize the hot ones, before anything is timed:
  // ~20,000 commands spread over all sets (whatever the mode: with only the quick sample's
  // ~5,000 commands the JIT was still maturing while the quick run measured, and its p50 came out
  // ~25% above the full run's).
  const errors = [];
  const warmStep = Math.max(1, Math.floor(all.length / 20000));
  for (const { c } of all.filter((_, i) => i % warmStep === 0)) {
    bare(c);
    parser.parse(c);
    try {
      check(c);
    } catch {}
  }
  const n = cmds.length;
  const tb = new Float64Array(n).fill(Infinity);
  const tp = new Float64Array(n).fill(Infinity);
  const tt = new Float64Array(n).fill(Infinity);
  const fns = [
    (i, c) => { const t = now(); bare(c); tb[i] = Math.min(tb[i], msSince(t)); },
    (i, c) => { const t = now(); parser.parse(c); tp[i] = Math.min(tp[i], msSince(t)); },
    (i, c) => {
      const t = now();
      try {
        check(c);
      } catch (e) {
        if (errors.length < 5) errors.push(`${c.slice(0, 80)}: ${e.message}`);
        tt[i] = NaN;
        return;
      }
      tt[i] = Math.min(tt[i], msSince(t));
    },
  ];
  let nextLog = Date.now() + 5000;
  for (let r = 0; r < reps; r++) {
    for (let i = 0; i < n; i++) {
      const c = cmds[i].c;
      for (let k = 0; k < 3; k++) fns[(k + i + r) % 3](i, c); // rotate the order
      if (Date.now() > nextLog) {
        nextLog = Date.now() + 5000;
        log(`[analysis] rep ${r + 1}/${reps}: ${i + 1}/${n} commands (${elapsed()})`);
      }
    }
  }
  const ok = [...tt.keys()].filter((i) => Number.isFinite(tt[i]));
  const arr = (a) => ok.map((i) => a[i]);
  const analysisOnly = ok.map((i) => Math.max(0, tt[i] - tp[i]));
  const perSet = {};
  for (const s of sets) {
    const idx = ok.filter((i) => cmds[i].set === s.name);
    if (idx.length) perSet[s.name] = { n: idx.length, bareP50: median(idx.map((i) => tb[i])), totalP50: median(idx.map((i) => tt[i])), totalP99: pct(idx.map((i) => tt[i]), 99) };
  }
  const slowest = [...ok].sort((a, b) => tt[b] - tt[a]).slice(0, 5).map((i) => ({ ms: +tt[i].toFixed(3), set: cmds[i].set, cmd: cmds[i].c.slice(0, 160) }));
  const out = {
    shared,
    commands: n,
    measured: ok.length,
    failed: n - ok.length,
    errors,
    reps,
    bareParse: summary(arr(tb)),
    parse: summary(arr(tp)),
    analysis: summary(analysisOnly),
    total: summary(arr(tt)),
    perSet,
    slowest,
  };
  results.sections.analysis = out;
  log(`[analysis] bare parse p50 ${fmtMs(out.bareParse.median)}; bashguard parse p50 ${fmtMs(out.parse.median)}, analysis p50 ${fmtMs(out.analysis.median)}, total p50 ${fmtMs(out.total.median)} p99 ${fmtMs(out.total.p99)} max ${fmtMs(out.total.max)}`);
  const ratio = out.total.median / out.bareParse.median;
  target('Analysis p50 <= 2 x bare tree-sitter parse of the same commands', `${fmtMs(out.total.median)} vs ${fmtMs(out.bareParse.median)}`, `${ratio.toFixed(2)}x`, ratio <= 2);
  target('Analysis p99 < 1 ms', fmtMs(out.total.p99), `${out.total.p99.toFixed(3)} of 1 ms`, out.total.p99 < 1);
}

// ---- 2b. library: in-process decision latency (createGuard) ---------------------------------
// The analysis time alone (Workspace.check in this process) is the baseline; createGuard's
// checkBash with isolation "none" adds the reason and finding mapping, with the default isolation
// "process" the IPC round trip to its analysis process (which makes the time limit hold).
async function benchLibrary() {
  const { sets } = loadCommands();
  const all = sets.flatMap((s) => s.cmds);
  const cmds = (all.length ? all : ['ls', 'cd .. && echo x > f', 'git status', 'cp a b && rm -rf build']).filter((_, i, a) => i % Math.max(1, Math.floor(a.length / (QUICK ? 300 : 2000))) === 0);
  const { api, check } = await loadEngines();
  const inproc = api.createGuard({ worktree: layout.wt, env: HOOK_ENV, isolation: 'none' });
  const child = api.createGuard({ worktree: layout.wt, env: HOOK_ENV });
  for (const c of cmds.slice(0, 200)) { check(c); await inproc.checkBash(c); await child.checkBash(c); } // warm-up (and start the analysis process)
  const t = { analysis: [], none: [], process: [] };
  const fns = [
    async (c) => { const s = now(); check(c); t.analysis.push(msSince(s)); },
    async (c) => { const s = now(); await inproc.checkBash(c); t.none.push(msSince(s)); },
    async (c) => { const s = now(); await child.checkBash(c); t.process.push(msSince(s)); },
  ];
  for (let i = 0; i < cmds.length; i++) for (let k = 0; k < 3; k++) await fns[(k + i) % 3](cmds[i]);
  child.close();
  const out = { commands: cmds.length, analysis: summary(t.analysis), none: summary(t.none), process: summary(t.process) };
  results.sections.library = out;
  log(`[library] ${cmds.length} commands: analysis alone p50 ${fmtMs(out.analysis.median)}; createGuard checkBash p50 ${fmtMs(out.none.median)} in-process, ${fmtMs(out.process.median)} with its analysis process (p99 ${fmtMs(out.process.p99)})`);
  target('Library decision (createGuard.checkBash, analysis process) p50 vs the analysis alone', `${fmtMs(out.process.median)} vs ${fmtMs(out.analysis.median)} (isolation none: ${fmtMs(out.none.median)})`, `+${(out.process.median - out.analysis.median).toFixed(3)} ms`, null);
}

// ---- 3. lint throughput -----------------------------------------------------------------------

function shellcheckVersion() {
  const r = spawnSync('shellcheck', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? /version:\s*(\S+)/.exec(r.stdout)?.[1] ?? 'unknown' : null;
}

function benchLint() {
  const out = {};
  results.sections.lint = out;
  const help = spawnSync(NODE, [BIN, 'lint', '--help'], { encoding: 'utf8' });
  if (help.status !== 0 || !/lint/.test(help.stdout)) {
    out.error = `\`bashguard lint\` is not available in this build (exit ${help.status}: ${(help.stderr || help.stdout).trim().split('\n')[0]})`;
    log(`[lint] ${out.error}`);
    target(`Lint >= ${LINT_RATIO} x shellcheck lines/s`, 'not measured', null, null, out.error);
    return;
  }
  let sc = shellcheckVersion();
  if (!sc && flag('install')) {
    log('[lint] installing shellcheck: apt-get install -y shellcheck');
    let r = spawnSync('apt-get', ['install', '-y', 'shellcheck'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) {
      spawnSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'inherit'] });
      r = spawnSync('apt-get', ['install', '-y', 'shellcheck'], { stdio: ['ignore', 'ignore', 'inherit'] });
    }
    sc = shellcheckVersion();
  }
  // The machine's shell scripts, as in the issue (grep exits 2 on unreadable entries: fine).
  const g = spawnSync('sh', ['-c', "grep -rlI '^#!.*sh' /usr/bin /usr/sbin /usr/share /usr/lib/git-core 2>/dev/null"], { encoding: 'utf8', maxBuffer: 64 << 20 });
  let files = g.stdout.split('\n').filter(Boolean).sort();
  const maxFiles = QUICK ? 60 : 2000;
  if (files.length > maxFiles) files = files.filter((_, i) => i % Math.ceil(files.length / maxFiles) === 0);
  const lines = files.map((f) => {
    try {
      const t = readFileSync(f, 'utf8');
      return t.split('\n').length - (t.endsWith('\n') ? 1 : 0);
    } catch {
      return 0;
    }
  });
  const totalLines = lines.reduce((a, b) => a + b, 0);
  const bytes = files.reduce((a, f) => a + readFileSync(f).length, 0);
  Object.assign(out, { files: files.length, lines: totalLines, bytes, shellcheck: sc });
  log(`[lint] ${files.length} files, ${totalLines} lines; shellcheck ${sc ?? 'not installed'}`);
  if (!sc) {
    out.error = 'shellcheck is not installed: run `apt-get install -y shellcheck` (or `npm run bench -- --install`)';
    log(`[lint] ${out.error}; measuring bashguard alone`);
  }
  const batch = 50;
  // Both tools in a minimal environment, as the hook section runs the hook: a machine's Node options
  // are not bashguard's (this one sets NODE_EXTRA_CA_CERTS, which makes every Node process, the
  // lint parent and its child, load the system CA bundle first: ~75 ms each).
  const LINT_ENV = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmpdir() };
  const bgArgv = (fs) => [NODE, BIN, 'lint', '--format', 'json', '--fail-on', 'none', ...fs];
  const scArgv = (fs) => ['shellcheck', '-f', 'gcc', ...fs];
  let tBg = 0;
  let tSc = 0;
  // The same batches with `--timeout 0` (in-process, one core, no per-file limit): not a target,
  // the other way to run lint (docs/lint.md).
  let tInProcess = 0;
  const statuses = { bashguard: {}, shellcheck: {} };
  // The other Node lines the hook section measures (first-class: Node 22 and 24), bashguard only,
  // each batch right after the bench's own Node, with the same files.
  const others = [];
  for (const major of NODE_MAJORS) {
    const inst = installNode(major);
    if (inst.error) log(`[lint] Node ${major}: ${inst.error}`);
    others.push(inst.error ? { major, error: inst.error } : { major, node: inst.node, version: inst.version, ms: 0, statuses: {} });
  }
  let bgErrors = 0;
  let bgFindings = 0;
  const passes = QUICK ? 1 : 2;
  for (let p = 0; p < passes; p++) {
    for (let i = 0; i < files.length; i += batch) {
      const fs = files.slice(i, i + batch);
      const runBg = () => {
        const r = timeRunLight(bgArgv(fs), { env: LINT_ENV });
        tBg += r.ms;
        statuses.bashguard[r.status] = (statuses.bashguard[r.status] ?? 0) + 1;
        if (p === 0) {
          try {
            const j = JSON.parse(r.stdout);
            bgErrors += j.files.filter((f) => f.error).length;
            bgFindings += j.files.reduce((a, f) => a + f.findings.length, 0);
          } catch {}
        }
      };
      const runInProcess = () => {
        tInProcess += timeRunLight([...bgArgv(fs), '--timeout', '0'], { env: LINT_ENV }).ms;
      };
      const runOthers = () => {
        for (const o of others) {
          if (o.error) continue;
          const r = timeRunLight([o.node, ...bgArgv(fs).slice(1)], { env: LINT_ENV });
          o.ms += r.ms;
          o.statuses[r.status] = (o.statuses[r.status] ?? 0) + 1;
        }
      };
      const runSc = () => {
        if (!sc) return;
        const r = timeRunLight(scArgv(fs), { env: LINT_ENV });
        tSc += r.ms;
        statuses.shellcheck[r.status] = (statuses.shellcheck[r.status] ?? 0) + 1;
      };
      if ((i / batch + p) % 2 === 0) {
        runBg();
        runOthers();
        runInProcess();
        runSc();
      } else {
        runSc();
        runInProcess();
        runBg();
        runOthers();
      }
      log(`[lint] pass ${p + 1}/${passes}: ${Math.min(i + batch, files.length)}/${files.length} files (${elapsed()})`);
    }
  }
  // The fixed cost of one invocation: one tiny script, interleaved with `node -e 0` (wall medians).
  const tinyDir = mkdtempSync(join(tmpdir(), 'bashguard-bench-lint-'));
  const tiny = join(tinyDir, 'tiny.sh');
  writeFileSync(tiny, '#!/bin/sh\necho hello\n');
  const one = { node: [], bashguard: [], bashguardInProcess: [], shellcheck: [] };
  const oneRounds = QUICK ? 6 : 15;
  for (let r = 0; r < oneRounds + 1; r++) {
    const row = {
      node: timeRunLight([NODE, '-e', '0'], { env: LINT_ENV }).ms,
      bashguard: timeRunLight(bgArgv([tiny]), { env: LINT_ENV }).ms,
      bashguardInProcess: timeRunLight([...bgArgv([tiny]), '--timeout', '0'], { env: LINT_ENV }).ms,
      shellcheck: sc ? timeRunLight(scArgv([tiny]), { env: LINT_ENV }).ms : null,
    };
    // The first round writes bashguard's code caches (as the first lint on a machine does).
    if (r > 0) for (const [k, v] of Object.entries(row)) if (v !== null) one[k].push(v);
  }
  rmSync(tinyDir, { recursive: true, force: true });
  const oneFile = Object.fromEntries(Object.entries(one).map(([k, v]) => [k, v.length ? median(v) : null]));
  log(`[lint] one tiny file, medians of ${oneRounds}: node -e 0 ${fmtMs(oneFile.node)}, bashguard lint ${fmtMs(oneFile.bashguard)} (--timeout 0: ${fmtMs(oneFile.bashguardInProcess)})${sc ? `, shellcheck ${fmtMs(oneFile.shellcheck)}` : ''}`);
  Object.assign(out, {
    oneFile,
    oneFileRounds: oneRounds,
    batch,
    passes,
    bashguardMs: tBg / passes,
    inProcessMs: tInProcess / passes,
    inProcessLinesPerSec: totalLines / (tInProcess / passes / 1000),
    shellcheckMs: sc ? tSc / passes : null,
    bashguardLinesPerSec: totalLines / (tBg / passes / 1000),
    shellcheckLinesPerSec: sc ? totalLines / (tSc / passes / 1000) : null,
    exitStatuses: statuses,
    bashguardFileErrors: bgErrors,
    bashguardFindings: bgFindings,
    otherNodes: others.map((o) => (o.error ? { node: `Node ${o.major}`, error: o.error } : { node: `node ${o.version}`, bashguardMs: o.ms / passes, bashguardLinesPerSec: totalLines / (o.ms / passes / 1000), exitStatuses: o.statuses })),
  });
  if (sc) {
    const ratio = out.bashguardLinesPerSec / out.shellcheckLinesPerSec;
    out.ratio = ratio;
    target(`Lint >= ${LINT_RATIO} x shellcheck lines/s on the same files (node ${process.version})`, `${Math.round(out.bashguardLinesPerSec)} vs ${Math.round(out.shellcheckLinesPerSec)} lines/s`, `${ratio.toFixed(1)}x`, ratio >= LINT_RATIO);
    for (const o of out.otherNodes) {
      if (o.error) {
        target(`Lint >= ${LINT_RATIO} x shellcheck lines/s (${o.node})`, 'not measured', null, null, o.error);
        continue;
      }
      const r = o.bashguardLinesPerSec / out.shellcheckLinesPerSec;
      o.ratio = r;
      target(`Lint >= ${LINT_RATIO} x shellcheck lines/s on the same files (${o.node})`, `${Math.round(o.bashguardLinesPerSec)} vs ${Math.round(out.shellcheckLinesPerSec)} lines/s`, `${r.toFixed(1)}x`, r >= LINT_RATIO);
    }
  } else {
    target(`Lint >= ${LINT_RATIO} x shellcheck lines/s on the same files`, `${Math.round(out.bashguardLinesPerSec)} lines/s; shellcheck not installed`, null, null, out.error);
  }
}

// ---- 4. growth --------------------------------------------------------------------------------

const GROWTH_LIMITS = { maxInputChars: 4 << 20, timeoutMs: 600_000 };
const UNIT = 'cd src && grep -rn "TODO" . | sort -u > /tmp/todo.txt; git status --short\nfor f in *.ts; do echo "$f" >> "$OUT/list"; done\n';
function commandOfSize(bytes) {
  return UNIT.repeat(Math.ceil(bytes / UNIT.length)).slice(0, bytes).replace(/[^\n]*$/, '').padEnd(bytes, '#');
}

async function benchGrowth() {
  const { api, bare, parser } = await loadEngines();
  // The engine without the hook's limits (a 1 MB command would hit the parse timeout under load):
  // parse + interpret with the limits raised, so every size is analyzed whole.
  const check = (c) => api.analyzeWith(parser, c, { cwd: layout.wt, env: { HOME: HOOK_ENV.HOME, PWD: layout.wt }, limits: GROWTH_LIMITS });
  const sizes = [1e3, 1e4, 1e5, 1e6];
  const reps = QUICK ? [30, 10, 3, 1] : [200, 60, 15, 5];
  const dir = mkdtempSync(join(tmpdir(), 'bashguard-bench-growth-'));
  const rows = [];
  const child = join(BENCH_DIR, 'analyze-one.mjs');
  const rssOf = (file) => {
    const r = [];
    for (let i = 0; i < (QUICK ? 1 : 3); i++) r.push(rssRun([NODE, child, file, layout.wt], { env: HOOK_ENV }).kib / 1024);
    return Math.min(...r);
  };
  writeFileSync(join(dir, 'tiny'), 'true');
  const rssTiny = rssOf(join(dir, 'tiny'));
  for (let s = 0; s < sizes.length; s++) {
    const cmd = commandOfSize(sizes[s]);
    const file = join(dir, `cmd-${sizes[s]}`);
    writeFileSync(file, cmd);
    check(cmd); // warm-up
    const tb = [];
    const tp = [];
    const tt = [];
    let parsedWhole = true;
    for (let r = 0; r < reps[s]; r++) {
      let t = now();
      bare(cmd);
      tb.push(msSince(t));
      t = now();
      const pr = parser.parse(cmd, GROWTH_LIMITS);
      tp.push(msSince(t));
      if (!pr.ok) parsedWhole = false;
      t = now();
      check(cmd);
      tt.push(msSince(t));
    }
    const rss = rssOf(file);
    const row = { bytes: sizes[s], lines: cmd.split('\n').length, reps: reps[s], parsedWhole, bareMs: median(tb), parseMs: median(tp), totalMs: median(tt), rssMiB: rss, rssDeltaMiB: rss - rssTiny };
    rows.push(row);
    log(`[growth] ${sizes[s] / 1000} kB: bare ${fmtMs(row.bareMs)}, parse ${fmtMs(row.parseMs)}, total ${fmtMs(row.totalMs)}, peak RSS ${rss.toFixed(1)} MiB (+${row.rssDeltaMiB.toFixed(1)})${parsedWhole ? '' : ' PARSE FAILED'} (${elapsed()})`);
  }
  rmSync(dir, { recursive: true, force: true });
  const fitT = logLogFit(rows.map((r) => r.bytes), rows.map((r) => r.totalMs));
  const fitB = logLogFit(rows.map((r) => r.bytes), rows.map((r) => r.bareMs));
  const memRows = rows.filter((r) => r.rssDeltaMiB > 0.5);
  const fitM = memRows.length >= 2 ? logLogFit(memRows.map((r) => r.bytes), memRows.map((r) => r.rssDeltaMiB)) : null;
  const steps = rows.slice(1).map((r, i) => ({ from: rows[i].bytes, to: r.bytes, timeRatio: r.totalMs / rows[i].totalMs, rssDeltaRatio: rows[i].rssDeltaMiB > 0.5 ? r.rssDeltaMiB / rows[i].rssDeltaMiB : null }));
  results.sections.growth = { unit: UNIT, rssTinyMiB: rssTiny, rows, fitTime: fitT, fitBare: fitB, fitMemory: fitM, steps };
  target('Growth is linear: time exponent (log-log slope, 1 kB..1 MB)', `slope ${fitT.slope.toFixed(2)} (bare parse ${fitB.slope.toFixed(2)})`, `${fitT.perTenX.toFixed(1)}x per 10x size`, fitT.slope <= 1.15);
  if (fitM) target('Growth is linear: memory exponent (peak RSS above a 4-byte command)', `slope ${fitM.slope.toFixed(2)}`, `${fitM.perTenX.toFixed(1)}x per 10x size`, fitM.slope <= 1.15);
}

// ---- report -----------------------------------------------------------------------------------

function report() {
  const e = results.env;
  const L = [];
  const pf = (t) => (t.pass === null ? 'n/a' : t.pass ? '**PASS**' : '**MISS**');
  L.push(`# bashguard benchmark (${results.mode})`, '');
  L.push(`- Date: ${e.date}`, `- Commit: \`${e.commit ?? 'unknown'}\`${e.dirty ? ' (working tree has uncommitted changes)' : ''}`, `- Node: ${e.node} (V8 ${e.v8}), ${e.platform}`, `- CPU: ${e.cpu} × ${e.cpus}`);
  L.push(`- Load average at start / end: ${e.loadavgStart.map((x) => x.toFixed(2)).join(' ')} / ${results.loadavgEnd.map((x) => x.toFixed(2)).join(' ')} (a shared, noisy machine: read the ratios, not the absolute times)`);
  L.push(`- Duration: ${results.durationSec.toFixed(0)} s. Method and start-up profile: docs/history/performance.md. Chart: latest.svg.`, '');
  L.push('![hook latency and growth](latest.svg)', '');
  L.push('## Targets', '', '| Target | Value | Ratio | Result |', '|---|---|---|---|');
  for (const t of results.targets) L.push(`| ${t.name} | ${t.value}${t.detail ? ` (${t.detail})` : ''} | ${t.ratio ?? '—'} | ${pf(t)} |`);
  const hookTable = (h) => {
    L.push('| Variant | median | p90 | ratio (medians) | median paired ratio | p90 ratio | peak RSS | median CPU |', '|---|---|---|---|---|---|---|---|');
    for (const v of Object.values(h.variants)) L.push(`| ${v.label} | ${fmtMs(v.wall.median)} | ${fmtMs(v.wall.p90)} | ${v.ratioOfMedians.toFixed(2)}× | ${v.medianPairedRatio.toFixed(2)}× | ${v.p90Ratio.toFixed(2)}× | ${v.peakRssMiB.toFixed(1)} MiB | ${Number.isFinite(v.medianCpuMs) ? fmtMs(v.medianCpuMs) : 'n/a'} |`);
    L.push('', 'Per payload: median, ratio to the median `node -e 0` (paired ratio), decision:', '', `| Variant | ${h.payloads.join(' | ')} |`, `|---|${h.payloads.map(() => '---').join('|')}|`);
    for (const [k, v] of Object.entries(h.variants)) if (k !== 'baseline') L.push(`| ${v.label} | ${h.payloads.map((p) => `${fmtMs(v.perPayloadMedian[p])}, ${v.perPayloadRatio[p].toFixed(2)}× (${v.perPayloadPairedRatio[p].toFixed(2)}×), ${h.decisions[k]?.[p]}`).join(' | ')} |`);
  };
  const h = results.sections.hook;
  if (h) {
    L.push('', '## 1. Hook cold start', '');
    L.push(`Whole process, \`node bin/bashguard.js hook\` with the event on stdin, cwd a linked worktree; ${h.rounds} rounds × ${h.payloads.length} payloads (${h.payloads.join(', ')}), each run paired with a \`node -e 0\` run of the same Node just before it, order rotated every round. bashguard's code cache (src/runtime/startup/code-cache.ts) is warm: it is written by the first run on a machine and Node, in the temporary HOME; the \`code cache off\` row shows a process without it. Peak RSS and CPU (rusage): ${h.rssMethod}, separate runs.`, '');
    L.push(`### ${h.node}`, '');
    hookTable(h);
    if (h.peer.error) L.push('', `Peer: ${h.peer.error}`);
    for (const o of results.sections.hookNodes ?? []) {
      L.push('', `### ${o.node}`, '');
      if (o.error) L.push(o.error);
      else {
        L.push(`Installed from the npm registry's \`node-${process.platform}-${process.arch}\` package into ${NODE_CACHE}; ${o.rounds} rounds; baseline: this Node's own \`node -e 0\`.`, '');
        hookTable(o);
      }
    }
  }
  const a = results.sections.analysis;
  if (a) {
    L.push('', '## 2. In-process analysis', '');
    if (a.error) L.push(a.error);
    else {
      L.push(`${a.measured} commands (${Object.entries(a.perSet).map(([k, v]) => `${k} ${v.n}`).join(', ')}) from ${a.shared}/corpora/commands and corpus/*.yaml; min of ${a.reps} interleaved rep(s) per command. *bare*: tree-sitter's own \`parser.parse\`; *parse*: bashguard's parser layer (tree-sitter + copy into the parser-neutral tree); *analysis*: the rest of \`checkCommand\` (IR, interpretation, policy); *total*: \`checkCommand\`, what the hook does per command.${a.failed ? ` ${a.failed} commands threw (first: ${a.errors[0]}).` : ''}`, '');
      L.push('| | p50 | p90 | p99 | max |', '|---|---|---|---|---|');
      for (const [k, s] of [['bare tree-sitter parse', a.bareParse], ['bashguard parse', a.parse], ['analysis (total − parse)', a.analysis], ['total (checkCommand)', a.total]]) L.push(`| ${k} | ${fmtMs(s.median)} | ${fmtMs(s.p90)} | ${fmtMs(s.p99)} | ${fmtMs(s.max)} |`);
      L.push('', '| corpus | commands | bare p50 | total p50 | total p99 |', '|---|---|---|---|---|');
      for (const [k, v] of Object.entries(a.perSet)) L.push(`| ${k} | ${v.n} | ${fmtMs(v.bareP50)} | ${fmtMs(v.totalP50)} | ${fmtMs(v.totalP99)} |`);
      L.push('', 'Slowest commands:', '');
      for (const s of a.slowest) L.push(`- ${fmtMs(s.ms)} (${s.set}): \`${s.cmd.replace(/`/g, "'").replace(/\n/g, '⏎')}\``);
    }
  }
  const l = results.sections.lint;
  if (l) {
    L.push('', '## 3. Lint throughput', '');
    if (l.files === undefined) L.push(l.error);
    else {
      L.push(`${l.files} scripts, ${l.lines} lines, ${(l.bytes / 1024).toFixed(0)} KiB (\`grep -rlI '^#!.*sh' /usr/bin /usr/sbin /usr/share /usr/lib/git-core\`${QUICK ? ', sampled' : ''}), in batches of ${l.batch} files per process, the two tools alternating batch by batch, ${l.passes} pass(es). Whole processes, start-up included, in a minimal environment (PATH, HOME, TMPDIR), each timed from a small parent process (bench/time-one.mjs). bashguard runs its default \`--jobs\` (child processes: one per 16 files up to the CPUs and 4, one while as many other processes as CPUs are running); ShellCheck is one process per batch. bashguard also runs on each other Node line the hook section installs (first-class Node 22 and 24), right after the bench's own Node on the same batch.`, '');
      L.push('| Tool | time per pass | lines/s | exit statuses |', '|---|---|---|---|');
      L.push(`| \`bashguard lint --format json\` (node ${process.version}) | ${fmtMs(l.bashguardMs)} | ${Math.round(l.bashguardLinesPerSec)} | ${JSON.stringify(l.exitStatuses.bashguard)} |`);
      for (const o of l.otherNodes ?? []) L.push(o.error ? `| \`bashguard lint\` (${o.node}) | not measured: ${o.error} | | |` : `| \`bashguard lint --format json\` (${o.node}) | ${fmtMs(o.bashguardMs)} | ${Math.round(o.bashguardLinesPerSec)} | ${JSON.stringify(o.exitStatuses)} |`);
      if (l.inProcessMs) L.push(`| \`bashguard lint --format json --timeout 0\` (in-process, node ${process.version}; not a target) | ${fmtMs(l.inProcessMs)} | ${Math.round(l.inProcessLinesPerSec)} | |`);
      if (l.shellcheck) L.push(`| \`shellcheck -f gcc\` ${l.shellcheck} | ${fmtMs(l.shellcheckMs)} | ${Math.round(l.shellcheckLinesPerSec)} | ${JSON.stringify(l.exitStatuses.shellcheck)} |`);
      if (l.oneFile) {
        const o = l.oneFile;
        L.push('', `Fixed cost of one invocation (one 2-line script, wall medians of ${l.oneFileRounds} interleaved rounds): \`node -e 0\` ${fmtMs(o.node)}; \`bashguard lint\` ${fmtMs(o.bashguard)} (${fmtMs(o.bashguard - o.node)} above Node's start; analyzed in the lint process under the kernel's timer, src/frontends/lint/rerun.ts), with \`--timeout 0\` (in-process, no per-file limit) ${fmtMs(o.bashguardInProcess)}${o.shellcheck !== null ? `; \`shellcheck\` ${fmtMs(o.shellcheck)}` : ''}.`);
      }
      L.push('', `bashguard reported ${l.bashguardFindings} findings and ${l.bashguardFileErrors} file errors. The tools do different jobs: shellcheck checks everything, bashguard lint only where writes and git commands land.`);
      if (l.error) L.push('', l.error);
    }
  }
  const g = results.sections.growth;
  if (g) {
    L.push('', '## 4. Growth', '');
    L.push(`One command of N bytes built by repeating \`${g.unit.replace(/\n/g, '⏎')}\`; \`analyzeWith\` (parse + IR + interpretation, parse limits raised so 1 MB parses whole; no policy), median of the reps in-process; peak RSS of a fresh process analyzing it (bench/analyze-one.mjs), minus the same process on \`true\` (${g.rssTinyMiB.toFixed(1)} MiB).`, '');
    L.push('| size | lines | reps | bare parse | bashguard parse | total | peak RSS | RSS above baseline |', '|---|---|---|---|---|---|---|---|');
    for (const r of g.rows) L.push(`| ${r.bytes / 1000} kB | ${r.lines} | ${r.reps} | ${fmtMs(r.bareMs)} | ${fmtMs(r.parseMs)} | ${fmtMs(r.totalMs)}${r.parsedWhole ? '' : ' (parse failed)'} | ${r.rssMiB.toFixed(1)} MiB | ${r.rssDeltaMiB.toFixed(1)} MiB |`);
    L.push('', `Fitted log-log slope (1 = linear): total time ${g.fitTime.slope.toFixed(3)} (${g.fitTime.perTenX.toFixed(1)}× per 10× size), bare parse ${g.fitBare.slope.toFixed(3)}${g.fitMemory ? `, memory ${g.fitMemory.slope.toFixed(3)} (${g.fitMemory.perTenX.toFixed(1)}× per 10×)` : ''}.`);
    L.push(`Step ratios (time, RSS above baseline): ${g.steps.map((s) => `${s.from / 1000}→${s.to / 1000} kB: ${s.timeRatio.toFixed(1)}×, ${s.rssDeltaRatio ? `${s.rssDeltaRatio.toFixed(1)}×` : '—'}`).join('; ')}.`);
  }
  if (results.sections.enforce) L.push('', '## 5. OS enforcement of allowed Bash calls (bench/enforce.mjs)', '', ...enforceReport(results.sections.enforce));
  return L.join('\n') + '\n';
}

/** The per-call cost of the OS enforcement (bench/enforce.mjs), against the hook alone in the same run. */
function benchEnforce() {
  log('[enforce] per-call cost of the bubblewrap wrapper');
  const r = enforceBench(QUICK ? 15 : 40);
  results.sections.enforce = r;
  if (r.skipped) return log(`  skipped: ${r.skipped}`);
  target('Enforcement: p50 added per allowed Bash call (hook + bwrap wrapper) <= 5 ms', `${r.added.total.p50.toFixed(1)} ms`, `${r.added.total.ratioToHook.toFixed(2)}x the hook alone`, r.target.pass);
}

function svg() {
  const h = results.sections.hook;
  const latencyRows = h ? Object.entries(h.variants).map(([k, v]) => ({ label: v.label, values: v.samples, note: k === 'baseline' ? 'baseline, same run' : `peak RSS ${v.peakRssMiB.toFixed(0)} MiB` })) : [];
  const g = results.sections.growth;
  const growthSeries = g
    ? [
        { label: 'bashguard analyzeWith', points: g.rows.map((r) => [r.bytes, r.totalMs]) },
        { label: 'bashguard parse layer', points: g.rows.map((r) => [r.bytes, r.parseMs]) },
        { label: 'bare tree-sitter parse', points: g.rows.map((r) => [r.bytes, r.bareMs]) },
      ]
    : [];
  const e = results.env;
  return chart({ latencyRows, growthSeries, subtitle: `bashguard bench (${results.mode}) ${e.date.slice(0, 16)} · ${e.commit?.slice(0, 10) ?? '?'}${e.dirty ? '+dirty' : ''} · node ${e.node} · ${e.cpu} ×${e.cpus} · load ${e.loadavgStart[0].toFixed(1)}` });
}

try {
  if (ONLY.has('hook')) benchHook();
  if (ONLY.has('analysis')) await benchAnalysis();
  if (ONLY.has('library')) await benchLibrary();
  if (ONLY.has('lint')) benchLint();
  if (ONLY.has('growth')) await benchGrowth();
  if (ONLY.has('enforce')) benchEnforce();
} finally {
  results.loadavgEnd = loadavg();
  results.durationSec = (Date.now() - T0) / 1000;
  results.rssMethod = HAS_TIME ? '/usr/bin/time -f %M' : '/proc/self/status VmHWM via --require bench/vmhwm.cjs';
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'latest.json'), JSON.stringify(results, null, 2) + '\n');
  writeFileSync(join(OUT, 'latest.md'), report());
  writeFileSync(join(OUT, 'latest.svg'), svg());
  log(`[done] ${elapsed()}: ${join(OUT, 'latest.md')}, latest.json, latest.svg`);
  for (const t of results.targets) log(`  ${t.pass === null ? 'n/a ' : t.pass ? 'PASS' : 'MISS'}  ${t.name}: ${t.value}${t.ratio ? ` (${t.ratio})` : ''}`);
}
