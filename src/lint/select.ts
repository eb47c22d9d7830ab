/**
 * What a lint run reports and fails on, applied after the analysis (ShellCheck's -i/-e/-S,
 * ESLint's --max-warnings): findings below `--min-confidence` become notes (`info`), rules are
 * included or excluded, findings in a baseline are accepted, and `-S` hides lower severities.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { UsageError } from '../frontends/io.js';
import { resolveRuleRef, type RuleId, type Severity } from '../rules/catalog.js';
import type { Confidence } from '../effects/confidence.js';
import { SEVERITY_RANK, type FileResult, type LintFinding } from './lint.js';
import { sha256Hex } from '../util/sha256.js';

export const CONFIDENCE_RANK: Record<Confidence, number> = { possible: 0, likely: 1, certain: 2 };

export interface Selection {
  /** Findings of lower confidence are reported as notes (severity info) and never fail. */
  minConfidence: Confidence;
  include: Set<RuleId> | null;
  exclude: Set<RuleId>;
  /** Findings below this severity are not shown (nor counted). */
  minSeverity: Severity;
  /** Fingerprints accepted by the baseline, with how many of each. */
  baseline: Map<string, number> | null;
}

/** Parses `-e/-i` rule lists (comma-separated ids or names, repeatable). */
export function ruleList(values: string[] | undefined, flag: string): Set<RuleId> | null {
  if (!values || values.length === 0) return null;
  const out = new Set<RuleId>();
  for (const v of values.flatMap((x) => x.split(','))) {
    if (v.trim() === '') continue;
    const id = resolveRuleRef(v.trim());
    if (!id) throw new UsageError(`${flag}: unknown rule ${v.trim()} (run \`bashguard rules\` for the list)`);
    out.add(id);
  }
  return out;
}

export interface Selected {
  results: FileResult[];
  /** Findings the baseline accepted. */
  baselined: number;
  /** Findings turned into notes by --min-confidence. */
  noted: number;
}

export function select(results: FileResult[], sel: Selection): Selected {
  const budget = sel.baseline ? new Map(sel.baseline) : null;
  let baselined = 0;
  let noted = 0;
  const out = results.map((r) => {
    const findings: LintFinding[] = [];
    for (const f0 of r.findings) {
      if (sel.include && !sel.include.has(f0.rule)) continue;
      if (sel.exclude.has(f0.rule)) continue;
      let f = f0;
      if (CONFIDENCE_RANK[f.confidence] < CONFIDENCE_RANK[sel.minConfidence] && f.severity !== 'info') {
        f = { ...f, severity: 'info' };
        noted++;
      }
      if (budget && f.fingerprint) {
        const left = budget.get(f.fingerprint) ?? 0;
        if (left > 0) {
          budget.set(f.fingerprint, left - 1);
          baselined++;
          continue;
        }
      }
      if (SEVERITY_RANK[f.severity] < SEVERITY_RANK[sel.minSeverity]) continue;
      findings.push(f);
    }
    return { ...r, findings };
  });
  return { results: out, baselined, noted };
}

interface BaselineFile {
  version: 1;
  tool: 'bashguard';
  findings: { file: string; rule: string; fingerprint: string; message: string }[];
}

/** Reads a baseline file; a missing or malformed one is a usage error (exit 2). */
export function readBaseline(file: string): Map<string, number> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`--baseline ${file}: ${code ? `cannot read (${code})` : `invalid JSON (${(err as Error).message})`}`);
  }
  const b = raw as Partial<BaselineFile>;
  if (typeof b !== 'object' || b === null || b.tool !== 'bashguard' || b.version !== 1 || !Array.isArray(b.findings)) {
    throw new UsageError(`--baseline ${file}: not a bashguard baseline (write one with --baseline-write)`);
  }
  const m = new Map<string, number>();
  for (const f of b.findings) if (f && typeof f.fingerprint === 'string') m.set(f.fingerprint, (m.get(f.fingerprint) ?? 0) + 1);
  return m;
}

/** Writes every finding of the run as the accepted baseline. Returns how many. */
export function writeBaseline(file: string, results: FileResult[]): number {
  const findings = results.flatMap((r) => r.findings.map((f) => ({ file: f.file, rule: f.rule, fingerprint: f.fingerprint ?? hashOf(f), message: f.message })));
  findings.sort((a, b) => a.file.localeCompare(b.file) || a.rule.localeCompare(b.rule) || a.fingerprint.localeCompare(b.fingerprint));
  const body: BaselineFile = { version: 1, tool: 'bashguard', findings };
  try {
    writeFileSync(file, JSON.stringify(body, null, 2) + '\n');
  } catch (err) {
    throw new UsageError(`--baseline-write ${file}: cannot write (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return findings.length;
}

function hashOf(f: LintFinding): string {
  return sha256Hex(`${f.rule}\0${f.file}\0${f.message}`).slice(0, 32);
}
