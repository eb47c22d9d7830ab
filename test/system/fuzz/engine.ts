/**
 * A small behaviour-guided mutation fuzzer for the analysis + policy entry point (analyzeWith +
 * evaluate on the standard scenario, the engine the hook runs), with the invariants the hook
 * must keep on any input:
 *
 * - `exception`: analysis or policy throws;
 * - `budget`: one decision takes more than BUDGET_MS of CPU time (not wall time: the machine's load
 *   does not make a finding);
 * - `unanalyzable-allowed`: a command with a syntax / analysis-limit problem is allowed;
 * - `backend-mismatch`: the native and WASM parsers give different decisions;
 * - `nondeterministic`: the same input twice gives different decisions.
 *
 * Guidance: an input whose outcome shows a feature not seen before (decision, rules, effect
 * kinds, commands, problem reasons) joins the corpus. No vitest here: test/system/fuzz/fuzz.mjs bundles
 * this file for long runs in a child process, test/system/fuzz/fuzz.test.ts runs it in-process.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BashParser } from '../../../src/engine/parse/index.js';
import { runScenario } from '../../helpers/scenario.js';
import { cpuMs } from '../../helpers/cpu-time.js';
import { WRAPPERS } from '../../helpers/adversary.js';
import { knownCommands } from '../../../src/engine/commands/registry.js';

export const BUDGET_MS = 2500;
export const MAX_INPUT = 8192;

export type FindingKind = 'exception' | 'budget' | 'unanalyzable-allowed' | 'backend-mismatch' | 'nondeterministic';

export interface Finding {
  kind: FindingKind;
  /** Groups findings into "unique crashes": kind + normalised message. */
  signature: string;
  input: string;
  detail: string;
}

export interface ExecOutcome {
  decision: string;
  features: string[];
  /** CPU time of the native analysis (ms). */
  ms: number;
  findings: Finding[];
}

// ------------------------------------------------------------------ PRNG (mulberry32)

export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
}

// ------------------------------------------------------------------ seeds

/** Seed inputs from the shared corpora: parser test inputs and real agent / tldr commands. */
export function loadSeeds(corporaDir: string): string[] {
  const out = new Set<string>();
  const add = (s: unknown) => {
    if (typeof s === 'string' && s.length > 0 && s.length <= MAX_INPUT) out.add(s);
  };
  for (const f of readdirSync(join(corporaDir, 'parser_tests'))) {
    if (!f.endsWith('.jsonl')) continue;
    for (const line of readFileSync(join(corporaDir, 'parser_tests', f), 'utf8').split('\n')) {
      if (line) add((JSON.parse(line) as { input?: string }).input);
    }
  }
  const cmdDir = join(corporaDir, 'commands');
  for (const f of readdirSync(cmdDir).sort()) {
    const text = readFileSync(join(cmdDir, f), 'utf8');
    if (f.endsWith('.jsonl')) {
      for (const line of text.split('\n')) {
        if (!line) continue;
        const o = JSON.parse(line) as Record<string, unknown>;
        add(o.cmd ?? o.command ?? o.input);
      }
    } else {
      for (const line of text.split('\n')) add(line.trim());
    }
  }
  return [...out].sort();
}

// ------------------------------------------------------------------ mutations

/** Tokens an attacker would try: quotes, expansions, `..`, paths of the scenario, wrappers. */
export const DICTIONARY = [
  '"', "'", '`', '$(', ')', '$((', '))', '${', '}', '{', '(', ';', '&&', '||', '|', '&', '\n', '\r\n', '\\', '\\\n', '#',
  '..', '../', '../../', './', '/', '~', '*', '?', '[', ']', '[[', ']]', '{a,b}', '{1..9}', '$V', '"${V}"', "$'\\x2f'", '$"x"',
  ' > ', ' >> ', ' 2>&1 ', ' <<EOF\n', '\nEOF\n', " <<'EOF'\n", ' <<< ', ' < ', ' >| ', ' &> ',
  '/home/dev/repo/README.md', '/home/dev/repo/', '/home/dev/repo/.builders/b2/x', '/home/dev/other/x', '/tmp/x', '/home/dev/repo/.git/config',
  'V=/home/dev/repo; ', 'cd ..; ', 'cd /home/dev/repo && ', 'cd - ; ', 'pushd /home/dev/repo; ', 'export V=/home/dev/repo; ',
  'echo hi > ', 'tee ', 'cp src/app.sh ', 'mv x ', 'touch ', 'rm -rf ', 'sed -i s/a/b/ ', 'dd of=', 'install x ', 'ln -s x ',
  'git -C /home/dev/repo commit -m x', 'git --git-dir=/home/dev/repo/.git ', 'git config core.hooksPath x', 'git worktree remove ../b2',
  'bash -c ', 'sh -c ', 'eval ', 'sudo ', 'env X=1 ', 'timeout 5 ', 'nice ', 'nohup ', 'command ', 'xargs ', 'find . -exec ',
  'python3 -c ', 'perl -pi -e ', 'source ', '. ', 'alias ', 'function f { ', 'f() { ', 'trap ', 'exec ',
];

function insertAt(s: string, i: number, t: string): string {
  return s.slice(0, i) + t + s.slice(i);
}

/** One to four random mutations of `input` (splicing with `other`). */
export function mutate(rng: Rng, input: string, other: string): string {
  let s = input;
  const rounds = 1 + rng.int(4);
  for (let r = 0; r < rounds; r++) {
    const i = rng.int(s.length + 1);
    switch (rng.int(11)) {
      case 0: {
        // splice: a prefix of s with a suffix of other
        s = s.slice(0, i) + other.slice(rng.int(other.length + 1));
        break;
      }
      case 1: {
        // duplicate a slice
        const j = i + rng.int(Math.min(64, s.length - i) + 1);
        s = insertAt(s, j, s.slice(i, j));
        break;
      }
      case 2:
      case 3:
      case 4:
        s = insertAt(s, i, rng.pick(DICTIONARY));
        break;
      case 5: {
        // wrap the whole input
        const w = rng.pick(WRAPPERS);
        s = w.wrap(s);
        break;
      }
      case 6: {
        // byte flip: an ASCII control / printable, or any UTF-16 unit (lone surrogates too)
        const code = rng.next() < 0.8 ? rng.int(128) : rng.int(0x10000);
        s = s.slice(0, i) + String.fromCharCode(code) + s.slice(i + 1);
        break;
      }
      case 7: {
        // delete a slice
        s = s.slice(0, i) + s.slice(i + 1 + rng.int(16));
        break;
      }
      case 8:
        // sequence with another input
        s = `${s}${rng.pick(['; ', ' && ', ' || ', '\n', ' | ', ' & '])}${other}`;
        break;
      case 9: {
        // write to a forbidden place at a random point
        s = insertAt(s, i, rng.pick([' > /home/dev/repo/README.md', ' && echo hi > ../../x', '; touch /home/dev/repo/.builders/b2/y', ' | tee /home/dev/other/z']));
        break;
      }
      default: {
        // repeat a slice many times (nesting / size pressure)
        const j = i + rng.int(Math.min(8, s.length - i) + 1);
        const piece = s.slice(i, j) || rng.pick(['(', '$(', '{ ', '"']);
        s = insertAt(s, i, piece.repeat(1 + rng.int(200)));
      }
    }
    if (s.length > MAX_INPUT) s = s.slice(0, MAX_INPUT);
  }
  return s;
}

// ------------------------------------------------------------------ execution

const UNANALYZABLE = new Set(['BG0001', 'BG0002']);
const KNOWN = new Set(knownCommands());

function signature(kind: FindingKind, detail: string): string {
  // Normalise numbers and quoted bits so one bug is one signature.
  return `${kind}: ${detail.split('\n')[0]!.replace(/\d+/g, 'N').replace(/`[^`]*`/g, '`…`').slice(0, 160)}`;
}

export interface ExecOptions {
  /** Also run the WASM parser and compare decisions. */
  differential: boolean;
  /** Also run the input a second time and compare. */
  repeat: boolean;
}

export function execOne(native: BashParser, wasm: BashParser, input: string, opts: ExecOptions): ExecOutcome {
  const findings: Finding[] = [];
  const t0 = cpuMs();
  let decision = 'error';
  const features: string[] = [];
  try {
    const { analysis, verdict } = runScenario(native, input);
    decision = verdict.decision;
    const rules = [...new Set(verdict.findings.map((f) => f.rule))].sort();
    features.push(`d:${decision}`, `r:${rules.join(',')}`, `dr:${decision}:${rules.join(',')}`);
    for (const e of analysis.effects) {
      if (e.kind === 'write') features.push(`w:${e.op}:${e.confidence}:${e.command}:${e.via.join('>')}`);
      else if (e.kind === 'problem') features.push(`p:${e.category}:${e.reason.replace(/\d+/g, 'N').slice(0, 40)}`);
      else features.push(`e:${e.kind}`);
    }
    for (const c of analysis.commands.slice(0, 50)) {
      const name = (c.argv[0] ?? '').split('/').pop()!;
      features.push(`c:${KNOWN.has(name) ? name : '?'}:${c.via.join('>')}`);
    }
    if (decision === 'allow' && verdict.findings.some((f) => UNANALYZABLE.has(f.rule))) {
      findings.push({ kind: 'unanalyzable-allowed', signature: '', input, detail: 'unanalyzable finding but decision allow' });
    }
    if (decision === 'allow' && analysis.effects.some((e) => e.kind === 'problem' && (e.category === 'syntax' || e.category === 'analysis-limit'))) {
      findings.push({ kind: 'unanalyzable-allowed', signature: '', input, detail: 'syntax/analysis-limit problem effect but decision allow' });
    }
  } catch (err) {
    const e = err as Error;
    findings.push({ kind: 'exception', signature: '', input, detail: `${e.name}: ${e.message}\n${(e.stack ?? '').split('\n').slice(1, 4).join('\n')}` });
  }
  const ms = cpuMs() - t0;
  if (ms > BUDGET_MS) findings.push({ kind: 'budget', signature: '', input, detail: `native analysis took ${ms.toFixed(0)} ms of CPU time (budget ${BUDGET_MS})` });
  if (decision !== 'error' && opts.differential) {
    try {
      const t1 = cpuMs();
      const w = runScenario(wasm, input).verdict.decision;
      const wms = cpuMs() - t1;
      if (wms > BUDGET_MS) findings.push({ kind: 'budget', signature: '', input, detail: `wasm analysis took ${wms.toFixed(0)} ms of CPU time (budget ${BUDGET_MS})` });
      if (w !== decision) findings.push({ kind: 'backend-mismatch', signature: '', input, detail: `native ${decision}, wasm ${w}` });
    } catch (err) {
      findings.push({ kind: 'exception', signature: '', input, detail: `wasm: ${(err as Error).name}: ${(err as Error).message}` });
    }
  }
  if (decision !== 'error' && opts.repeat) {
    const again = runScenario(native, input).verdict.decision;
    if (again !== decision) findings.push({ kind: 'nondeterministic', signature: '', input, detail: `first ${decision}, then ${again}` });
  }
  for (const f of findings) f.signature = signature(f.kind, f.detail);
  return { decision, features, ms, findings };
}

// ------------------------------------------------------------------ the loop

export interface FuzzStats {
  seed: number;
  execs: number;
  ms: number;
  corpus: number;
  features: number;
  decisions: Record<string, number>;
  /** Unique findings by signature: the shortest input seen for each. */
  unique: Record<string, Finding & { count: number }>;
  slowestMs: number;
}

export interface FuzzOptions {
  seed: number;
  /** Stop after this many executions ... */
  maxExecs?: number;
  /** ... or after this many milliseconds, whichever first. */
  maxMs?: number;
  seeds: string[];
  native: BashParser;
  wasm: BashParser;
  /** Every nth exec is also run on WASM (0: never). */
  differentialEvery?: number;
  /** Every nth exec is repeated (0: never). */
  repeatEvery?: number;
  /** Called before each exec (the long runner records the input for hang reports). */
  onInput?: (input: string, exec: number) => void;
  onProgress?: (stats: FuzzStats) => void;
}

export function fuzz(opts: FuzzOptions): FuzzStats {
  const rng = new Rng(opts.seed);
  const seeds = opts.seeds;
  const corpus: string[] = [];
  const seen = new Set<string>();
  const stats: FuzzStats = { seed: opts.seed, execs: 0, ms: 0, corpus: 0, features: 0, decisions: {}, unique: {}, slowestMs: 0 };
  const start = performance.now();
  const maxExecs = opts.maxExecs ?? Infinity;
  const maxMs = opts.maxMs ?? Infinity;
  const diffEvery = opts.differentialEvery ?? 4;
  const repEvery = opts.repeatEvery ?? 25;
  let lastProgress = start;
  while (stats.execs < maxExecs && performance.now() - start < maxMs) {
    const n = stats.execs;
    // A quarter of the time a plain seed (so every seed gets checked), else a mutant.
    let input: string;
    if (n < seeds.length && rng.next() < 0.25) input = seeds[n]!;
    else {
      const base = corpus.length > 0 && rng.next() < 0.6 ? rng.pick(corpus) : rng.pick(seeds);
      input = mutate(rng, base, rng.pick(corpus.length > 0 && rng.next() < 0.5 ? corpus : seeds));
    }
    opts.onInput?.(input, n);
    const out = execOne(opts.native, opts.wasm, input, { differential: diffEvery > 0 && n % diffEvery === 0, repeat: repEvery > 0 && n % repEvery === 0 });
    stats.execs++;
    stats.decisions[out.decision] = (stats.decisions[out.decision] ?? 0) + 1;
    if (out.ms > stats.slowestMs) stats.slowestMs = out.ms;
    let fresh = false;
    for (const f of out.features) {
      if (!seen.has(f)) {
        seen.add(f);
        fresh = true;
      }
    }
    if (fresh && corpus.length < 20_000) corpus.push(input);
    for (const f of out.findings) {
      const u = stats.unique[f.signature];
      if (!u) stats.unique[f.signature] = { ...f, count: 1 };
      else {
        u.count++;
        if (f.input.length < u.input.length) {
          u.input = f.input;
          u.detail = f.detail;
        }
      }
    }
    const now = performance.now();
    if (opts.onProgress && now - lastProgress > 5000) {
      lastProgress = now;
      stats.ms = now - start;
      stats.corpus = corpus.length;
      stats.features = seen.size;
      opts.onProgress(stats);
    }
  }
  stats.ms = performance.now() - start;
  stats.corpus = corpus.length;
  stats.features = seen.size;
  return stats;
}
