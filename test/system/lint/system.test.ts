/**
 * `bashguard lint` on every shell script of this machine's /usr/bin, /usr/sbin, /usr/share and
 * /usr/lib/git-core (`grep -rlI '^#!.*sh'`, so zsh, csh and the odd perl script come along):
 * no crash, a result for every file, bounded time. Findings are counted, not judged: these
 * scripts live outside any checkout, so their root is their own directory and their writes to
 * /etc, $HOME ... are reported (see docs/lint.md). Measured: ~250 files in ~3 s.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/memory-io.js';
import { cpuMsWithChildren as cpuMs } from '../../helpers/cpu-time.js';

const DIRS = ['/usr/bin', '/usr/sbin', '/usr/share', '/usr/lib/git-core'];
/** CPU time of this process and the lint processes it started (which the machine's load does not change). */
const BUDGET_MS = 60_000;
/** Only a hang fails on wall time: far beyond the budget, whatever the load. */
const HUNG_MS = 600_000;

function systemScripts(): string[] {
  let out = '';
  try {
    out = execFileSync('grep', ['-rlI', '^#!.*sh', ...DIRS], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (err) {
    // grep exits 2 when some directory is missing or unreadable; what it printed still counts.
    out = (err as { stdout?: string }).stdout ?? '';
  }
  return [...new Set(out.split('\n').filter(Boolean))].sort();
}

describe('lint: the shell scripts of this machine', () => {
  it('lints every file without crashing, in bounded time', { timeout: HUNG_MS }, async () => {
    const files = systemScripts();
    expect(files.length).toBeGreaterThan(20);
    const t0 = cpuMs();
    const { code, out, err } = await runCli(['lint', '--format', 'json', ...files], { env: { HOME: '/root', TMPDIR: '/tmp', USER: 'root' }, cwd: '/' });
    const ms = cpuMs() - t0;
    expect(err).not.toMatch(/internal error/);
    expect([0, 1]).toContain(code);
    const j = JSON.parse(out) as {
      summary: { files: number; errors: number; warnings: number; infos: number };
      files: { path: string; error: string | null; findings: { rule: string; message: string }[] }[];
    };
    // Every file has its result; files they source may follow with the findings found in them.
    const paths = new Set(j.files.map((f) => f.path));
    expect(files.filter((f) => !paths.has(f))).toEqual([]);
    expect(j.summary.files).toBe(files.length);
    expect(j.files.filter((f) => f.error)).toEqual([]);
    // No engine exception turned into a finding.
    const internal = j.files.flatMap((f) => f.findings.filter((x) => x.message.startsWith('internal error')).map((x) => `${f.path}: ${x.message}`));
    expect(internal).toEqual([]);
    expect(ms).toBeLessThan(BUDGET_MS);
    const byRule: Record<string, number> = {};
    for (const f of j.files) for (const x of f.findings) byRule[x.rule] = (byRule[x.rule] ?? 0) + 1;
    console.info(`lint-system: ${files.length} files, ${(ms / 1000).toFixed(1)} s CPU, ${j.summary.errors} errors / ${j.summary.warnings} warnings / ${j.summary.infos} info, by rule ${JSON.stringify(byRule)}`);
  });
});
