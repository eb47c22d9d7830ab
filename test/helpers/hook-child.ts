/**
 * Child-process entry for the heavy adversarial cases (bundled by test/system/hook/adversarial.test.ts and run
 * with `node --expose-gc`): runs one HOSTILE case through decideHook under the default config
 * and under `"unanalyzable": "deny"`, and prints one JSON line with the decisions, times and the
 * process's peak RSS (VmHWM from /proc/self/status).
 *
 * argv: <case name> <worktree> <main> <deny-config path>
 */
import { readFileSync } from 'node:fs';
import { getParser } from '../../src/engine/parse/index.js';
import { HOSTILE, hookInput } from './hostile.js';
import { hookDecision } from './hook-decide.js';

function peakRssMiB(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) / 1024 : process.memoryUsage().rss / 1024 / 1024;
}

const [name, worktree, main, denyConfig] = process.argv.slice(2) as [string, string, string, string];
const c = HOSTILE.find((x) => x.name === name);
if (!c) throw new Error(`no hostile case named ${name}`);
const parser = await getParser((process.env.BASHGUARD_PARSER as 'native' | 'wasm' | undefined) ?? 'native');
const baseline = peakRssMiB();
const raw = hookInput(c, { main, worktree });
const out: Record<string, unknown> = { name, inputChars: raw.length, baselineMiB: baseline };
// (a bash user: where SHELL does not name bash, Claude Code picks zsh first, whose syntax the hook does not ask)
for (const [label, env] of [['default', { SHELL: '/bin/bash' }], ['deny', { SHELL: '/bin/bash', BASHGUARD_CONFIG: denyConfig }]] as const) {
  const r = await hookDecision(parser, '', worktree, env, raw);
  out[label] = { decision: r.decision, ms: Math.round(r.ms), reason: r.reason.slice(0, 300) };
}
out.peakMiB = peakRssMiB();
process.stdout.write(JSON.stringify(out) + '\n');
