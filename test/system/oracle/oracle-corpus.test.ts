/**
 * The corpus against reality: every case the execution oracle can run (oracle not false / no
 * reason given in the YAML) is run for real with bash in a private copy of the standard layout.
 * - expect deny  => the command really changed something outside the worktree (files, the main
 *   checkout's git state, shared refs/config/worktree registrations);
 * - expect allow => nothing outside changed;
 * - expect ask   => nothing is asserted (reported only).
 * Cases marked `oracle: "reason"` (exempt) are run too: one that now agrees with its label fails
 * as a stale exemption (allow: nothing outside changed and the command succeeded; deny: it
 * escaped), so each exemption keeps saying something true. File-tool cases have no command to run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusFiles, loadCorpus } from '../../../src/frontends/corpus/run.js';
import type { CorpusCase } from '../../../src/frontends/corpus/schema.js';
import { oracleAvailability, runOracle, type OracleCase, type OracleResult } from '../../tooling/oracle/oracle.js';
import { REQUIRE_ALL, cannotRun } from '../../helpers/shared.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const cases = loadCorpus(corpusFiles(join(ROOT, 'corpus')), ROOT);
const runnable = cases.filter((c) => c.oracle === true);
const skipped = cases.filter((c) => c.oracle !== true);
/** Exempt allow and deny cases that are commands: run anyway, to find the exemptions that no longer hold. */
const exempt = skipped.filter((c) => c.tool === 'Bash' && c.expect !== 'ask');
const idOf = (c: CorpusCase) => `${c.file}:${c.line}`;

function toOracle(c: CorpusCase): OracleCase {
  const files: Record<string, string> = {};
  for (const [p, v] of Object.entries(c.files)) files[p] = v;
  return {
    id: idOf(c),
    cmd: c.cmd,
    ...(c.cwd ? { cwd: c.cwd } : {}),
    setup: { files, symlinks: { ...c.symlinks } },
    ...(Object.keys(c.env).length ? { env: c.env } : {}),
  };
}

/** What escaped the worktree, as readable lines (empty: nothing). */
function escapes(r: OracleResult): string[] {
  return [...r.changedOutside.map((p) => `changed ${p}`), ...r.gitChanges.main.map((g) => `main: ${g}`), ...r.gitChanges.shared.map((g) => `shared: ${g}`)];
}

/**
 * Programs some corpus cases run that a stock machine may lack; `.ci/run` installs them. Where one
 * is missing (a fresh clone elsewhere), its cases are skipped with the reason; under
 * BASHGUARD_REQUIRE_ALL=1 (.ci/run) they fail. Any other missing program is a labelling bug.
 */
const OPTIONAL_PROGRAMS = ['rsync', 'ruby', 'parallel', 'zsh', 'gawk', 'unbuffer', 'sqlite3', 'openssl', 'cpio', 'gcc', 'pigz', 'tclsh', 'fakeroot', 'strace', 'ed', 'dos2unix'];

/** The programs in `program not installed: a, b` that .ci/run installs, when all of them are. */
function missingOptional(skipped: string | undefined): string[] | null {
  const m = /^program not installed: (.*)$/.exec(skipped ?? '');
  if (!m) return null;
  const names = m[1]!.split(', ');
  return names.every((n) => OPTIONAL_PROGRAMS.includes(n)) ? names : null;
}

// The oracle stops each case at CASE_TIMEOUT_MS itself; the run as a whole is only called hung
// past what every case at its limit, one after another, would take (how long it takes depends on
// the machine's load, which no test here asserts).
const CASE_TIMEOUT_MS = 5000;
const hungAfter = (n: number) => 60_000 + n * (CASE_TIMEOUT_MS + 1000);

/**
 * What running an exempt case showed: `agrees` (the exemption is stale), or why it still holds:
 * no evidence (the oracle could not judge it, it failed or timed out) or a result against its label.
 */
function exemptionHolds(c: CorpusCase, r: OracleResult): 'agrees' | string {
  if (r.error) return `oracle error: ${r.error}`;
  if (r.skipped) return `no evidence: ${r.skipped}`;
  if (r.timedOut) return 'no evidence: timed out';
  const escaped = escapes(r).length > 0;
  if (c.expect === 'deny') return escaped ? 'agrees' : 'labelled deny, nothing outside changed';
  if (c.expect === 'allow') {
    if (escaped) return `labelled allow, but it changed ${escapes(r).join('; ')}`;
    return r.exitCode === 0 ? 'agrees' : `no evidence: the command failed (exit ${r.exitCode})`;
  }
  return 'ask: not asserted';
}

const required = !!process.env.CI || (typeof process.getuid === 'function' && process.getuid() === 0);
let available = false;
let unavailableReason = '';
const results = new Map<string, OracleResult>();

beforeAll(async () => {
  const avail = await oracleAvailability();
  if (!avail.available) {
    unavailableReason = avail.reason;
    return;
  }
  available = true;
  const t0 = performance.now();
  const list = await runOracle([...runnable, ...exempt].map(toOracle), { timeoutMs: CASE_TIMEOUT_MS });
  for (const r of list) results.set(r.id, r);
  const ms = Math.round(performance.now() - t0);
  const reasons = new Map<string, number>();
  for (const c of skipped) reasons.set(c.oracle as string, (reasons.get(c.oracle as string) ?? 0) + 1);
  const lines = [...reasons].sort((a, b) => b[1] - a[1]).map(([r, n]) => `  ${String(n).padStart(3)}  ${r}`);
  const asks = runnable.filter((c) => c.expect === 'ask');
  console.log(
    `oracle-corpus: ${runnable.length} runnable of ${cases.length} (${asks.length} ask cases run, not asserted) in ${ms} ms; ${skipped.length} skipped:\n${lines.join('\n')}`,
  );
  for (const c of asks) {
    const r = results.get(idOf(c));
    if (r) console.log(`  ask ${idOf(c)} ${c.cmd.replace(/\n/g, '\\n')}: ${escapes(r).length ? 'escaped: ' + escapes(r).join('; ') : 'nothing outside changed'}`);
  }
}, hungAfter(runnable.length + exempt.length));

describe('corpus against reality (execution oracle)', () => {
  it('at least 70% of the corpus is runnable by the oracle', () => {
    expect(runnable.length / cases.length).toBeGreaterThanOrEqual(0.7);
  });

  it('.ci/run installs every optional program the corpus runs', () => {
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    const loop = /for prog in ([^;]+);/.exec(ci);
    expect(loop, '.ci/run has a `for prog in ...;` loop').not.toBeNull();
    expect(loop![1]!.trim().split(/\s+/).sort()).toEqual([...OPTIONAL_PROGRAMS].sort());
  });

  it('the oracle is available (required when running as root or in CI)', () => {
    if (!available && required) expect.fail(`oracle unavailable: ${unavailableReason}`);
  });

  for (const c of runnable) {
    const id = idOf(c);
    it(`${id} [${c.expect}] ${c.cmd.replace(/\n/g, '\\n')}`, (ctx) => {
      if (!available) return ctx.skip(cannotRun(`the execution oracle is unavailable here: ${unavailableReason}`));
      const r = results.get(id)!;
      expect(r, 'no oracle result').toBeDefined();
      if (r.error) expect.fail(`oracle error: ${r.error}`);
      const optional = missingOptional(r.skipped);
      if (optional && !REQUIRE_ALL) {
        const reason = `${optional.join(', ')} not installed here (.ci/run installs it): the oracle cannot run this case`;
        process.stderr.write(`[skipped] ${id}: ${reason}\n`);
        return ctx.skip(reason);
      }
      if (r.skipped) expect.fail(`the oracle could not judge this case (${r.skipped}): mark it \`oracle: "${r.skipped}"\` in ${c.file}`);
      const esc = escapes(r);
      const detail = `\n  stdout: ${r.stdout.trim().slice(0, 300)}\n  stderr: ${r.stderr.trim().slice(0, 300)}\n  exit: ${r.exitCode}${r.timedOut ? ' (timed out)' : ''}\n  inside: ${r.changedInside.join(', ') || '-'}`;
      if (c.expect === 'deny' && esc.length === 0) expect.fail(`labelled deny, but nothing outside the worktree changed when run for real${detail}`);
      if (c.expect === 'allow' && esc.length > 0) expect.fail(`labelled allow, but running it changed things outside the worktree:\n  ${esc.join('\n  ')}${detail}`);
    });
  }

  for (const c of exempt) {
    const id = idOf(c);
    it(`${id} [${c.expect}] exempt (${c.oracle}): run anyway, it does not agree with its label`, (ctx) => {
      if (!available) return ctx.skip(cannotRun(`the execution oracle is unavailable here: ${unavailableReason}`));
      const r = results.get(id);
      expect(r, 'no oracle result').toBeDefined();
      expect(exemptionHolds(c, r!), `stale exemption: run for real, this case agrees with its label; remove \`oracle: "${c.oracle}"\` in ${c.file}`).not.toBe('agrees');
    });
  }
});
