/**
 * Benign twins (issue #48 item 5): a corpus case the hook denies with certainty claims that a
 * writer writes outside the worktree. Its benign twin is a case the execution oracle runs, labelled
 * allow, where the same writer (the same `command` label of a write effect: `sed -i`, `tar -x`,
 * `>`; or the same git subcommand) is used and nothing outside changes: the run shows that the tool
 * writes where its spec says, and not somewhere else.
 */
import { analyzeWith } from '../../src/engine/analyze.js';
import type { BashParser } from '../../src/engine/parse/index.js';
import type { Effect } from '../../src/engine/effects/types.js';
import { evaluate } from '../../src/policy/policy.js';
import { memoryFs, standardEnv, standardPolicy, WORKTREE } from '../../src/policy/scenario/standard.js';
import { DEFAULT_CONFIG } from '../../src/policy/config.js';
import type { CorpusCase } from '../../src/frontends/corpus/schema.js';

/** The writer an effect names: a write's command label, or `git <subcommand>`. */
export function writerOf(e: Effect): string | null {
  if (e.kind === 'write') return e.command;
  if (e.kind === 'git') return `git ${e.subcommand ?? ''}`.trim();
  return null;
}

interface Analysed {
  c: CorpusCase;
  /** Writers whose effect alone is a certain deny; when none alone is (a link made earlier in the command), every certain writer. */
  certainWriters: string[];
  writers: string[];
  certainDeny: boolean;
}

function analyse(parser: BashParser, c: CorpusCase): Analysed | null {
  if (c.tool !== 'Bash') return null;
  const cwd = c.cwd ?? WORKTREE;
  const fs = memoryFs(c.symlinks, c.files);
  const config = c.config ?? DEFAULT_CONFIG;
  const policy = standardPolicy(fs, cwd, config);
  if (!policy) return null;
  const env = { ...standardEnv(cwd), ...c.env };
  const { effects } = analyzeWith(parser, c.cmd, { cwd, env, host: fs, gitToplevel: () => null });
  const verdict = evaluate(effects, policy);
  const certainDeny = verdict.decision === 'deny' && verdict.findings.some((f) => f.decision === 'deny' && f.confidence === 'certain');
  const writers = [...new Set(effects.map(writerOf).filter((w): w is string => w !== null))];
  let certainWriters: string[] = [];
  if (certainDeny) {
    const alone = effects.filter((e) => {
      const v = evaluate([e], policy);
      return v.findings.some((f) => f.decision === 'deny' && f.confidence === 'certain');
    });
    const from = alone.length > 0 ? alone : effects.filter((e) => e.kind !== 'problem' && e.confidence === 'certain');
    certainWriters = [...new Set(from.map(writerOf).filter((w): w is string => w !== null))];
  }
  return { c, certainWriters, writers, certainDeny };
}

/**
 * Writers whose certain denies have no twin the oracle can run here, and why. Each must still be
 * needed (the test fails on one no deny uses).
 */
export const NO_TWIN_HERE: Readonly<Record<string, string>> = {
  'go env -w': 'go is not installed here',
  'docker cp': 'no docker daemon inside the oracle',
  wget: 'needs network (wget reads no file:// URL)',
  'wget -O': 'needs network (wget reads no file:// URL)',
  'npm install --prefix': 'needs network, and npm writes its cache and logs under $HOME on every run',
  'pip wheel -w': 'pip needs network for build requirements, and more than the oracle allows per case (5 s) here',
  'pip install --target': 'pip needs network for build requirements, and more than the oracle allows per case (5 s) here',
  nano: 'nano is not installed here (and is interactive)',
  code: 'code (an editor) is not installed here',
  prettier: 'prettier is not installed here',
  'eslint -o': 'eslint is not installed here',
  'git worktree add': 'every worktree add registers the new checkout in the shared git dir: no twin writes only inside',
};

export interface TwinReport {
  certainDenies: number;
  /** `file:line cmd (writers)` of each certain deny with a writer no oracle-run allow case uses. */
  withoutTwin: string[];
  /** The same for writers listed in `exempt`, with the reason. */
  exempted: string[];
  /** Exempt writers no certain deny needs. */
  unusedExemptions: string[];
}

export function twinReport(parser: BashParser, cases: CorpusCase[], exempt: Readonly<Record<string, string>> = {}): TwinReport {
  const all = cases.map((c) => analyse(parser, c)).filter((a): a is Analysed => a !== null);
  const benign = new Set<string>();
  for (const a of all) if (a.c.expect === 'allow' && a.c.oracle === true) for (const w of a.writers) benign.add(w);
  const denies = all.filter((a) => a.c.expect === 'deny' && a.certainDeny);
  const withoutTwin: string[] = [];
  const exempted: string[] = [];
  const used = new Set<string>();
  for (const a of denies) {
    const missing = a.certainWriters.filter((w) => !benign.has(w));
    if (a.certainWriters.length > 0 && missing.length === 0) continue;
    const shown = `${a.c.file}:${a.c.line} ${a.c.cmd.replace(/\n/g, '\\n')}`;
    if (missing.length > 0 && missing.every((w) => exempt[w] !== undefined)) {
      for (const w of missing) used.add(w);
      exempted.push(`${shown} (${missing.map((w) => `${w}: ${exempt[w]}`).join('; ')})`);
    } else withoutTwin.push(`${shown} (${missing.join(', ') || 'no writer'})`);
  }
  const unusedExemptions = Object.keys(exempt).filter((w) => !used.has(w));
  return { certainDenies: denies.length, withoutTwin, exempted, unusedExemptions };
}
