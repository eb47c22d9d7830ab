/**
 * What a lint run reports and fails on, applied after the analysis (ShellCheck's -i/-e/-S,
 * ESLint's --max-warnings): findings below `--min-confidence` become notes (`info`), rules are
 * included or excluded, findings in a baseline are accepted, and `-S` hides lower severities.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { UsageError } from '../io.js';
import { resolveRuleRef, type RuleId, type Severity } from '../../policy/rules/catalog.js';
import type { Confidence } from '../../engine/effects/confidence.js';
import { SEVERITY_RANK, type FileResult, type LintFinding } from './lint.js';
import { sha256Hex } from '../../util/sha256.js';

export const CONFIDENCE_RANK: Record<Confidence, number> = { possible: 0, likely: 1, certain: 2 };

export interface Selection {
  /** Findings of lower confidence are reported as notes (severity info) and never fail. */
  minConfidence: Confidence;
  include: Set<RuleId> | null;
  exclude: Set<RuleId>;
  /** Findings below this severity are not shown (nor counted). */
  minSeverity: Severity;
  /** Fingerprints accepted by the baseline, with how many of each. */
  baseline: Baseline | null;
}

export interface Baseline {
  counts: Map<string, number>;
  /** Per group (LintFinding#group), the lines its accepted findings were on, when recorded. */
  lines: Map<string, { line: number; context?: string }[]>;
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
  /** Fingerprints the baseline accepted, with how many times each. */
  matched: Map<string, number>;
}

export function select(results: FileResult[], sel: Selection): Selected {
  const budget = sel.baseline ? new Map(sel.baseline.counts) : null;
  // Findings of a group the baseline recorded lines for: accepted by line, nearest first (a copy
  // of a baselined line above it is the new finding), each accepted one taking its fingerprint's count.
  const byLine = new Set<LintFinding>();
  if (sel.baseline && sel.baseline.lines.size > 0) {
    const groups = new Map<string, LintFinding[]>();
    for (const r of results) for (const f of r.findings) if (f.group && sel.baseline.lines.has(f.group)) groups.set(f.group, [...(groups.get(f.group) ?? []), f]);
    for (const [g, fs] of groups) {
      const lines = [...sel.baseline.lines.get(g)!];
      const pairs: [number, LintFinding, number][] = [];
      // The same lines around it first (a copy has other neighbours), then the nearest line.
      for (const f of fs) lines.forEach((l, i) => pairs.push([(l.context !== undefined && l.context === f.context ? 0 : 1_000_000) + Math.abs(f.line - l.line), f, i]));
      pairs.sort((a, b) => a[0] - b[0] || a[1].line - b[1].line);
      const usedLine = new Set<number>();
      for (const [, f, i] of pairs) {
        if (usedLine.has(i) || byLine.has(f)) continue;
        usedLine.add(i);
        byLine.add(f);
      }
    }
  }
  let baselined = 0;
  let noted = 0;
  const matched = new Map<string, number>();
  const out = results.map((r) => {
    const findings: LintFinding[] = [];
    for (const f0 of r.findings) {
      const grouped = f0.group !== undefined && sel.baseline !== null && sel.baseline.lines.has(f0.group);
      if (sel.include && !sel.include.has(f0.rule)) continue;
      if (sel.exclude.has(f0.rule)) continue;
      let f = f0;
      if (CONFIDENCE_RANK[f.confidence] < CONFIDENCE_RANK[sel.minConfidence] && f.severity !== 'info') {
        f = { ...f, severity: 'info' };
        for (const k of ['group', 'context'] as const) if (f0[k] !== undefined) Object.defineProperty(f, k, { value: f0[k], enumerable: false, configurable: true, writable: true });
        noted++;
      }
      if (grouped) {
        if (byLine.has(f0)) {
          matched.set(f.fingerprint!, (matched.get(f.fingerprint!) ?? 0) + 1);
          baselined++;
          continue;
        }
      } else if (budget && f.fingerprint) {
        const left = budget.get(f.fingerprint) ?? 0;
        if (left > 0) {
          budget.set(f.fingerprint, left - 1);
          matched.set(f.fingerprint, (matched.get(f.fingerprint) ?? 0) + 1);
          baselined++;
          continue;
        }
      }
      if (SEVERITY_RANK[f.severity] < SEVERITY_RANK[sel.minSeverity]) continue;
      findings.push(f);
    }
    return { ...r, findings };
  });
  return { results: out, baselined, noted, matched };
}

interface BaselineFile {
  version: 1;
  tool: 'bashguard';
  findings: { file: string; rule: string; fingerprint: string; message: string; group?: string; line?: number; context?: string }[];
}

/** Reads a baseline file; a missing or malformed one is a usage error (exit 2). */
export function readBaseline(file: string): Baseline {
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
  const lines = new Map<string, { line: number; context?: string }[]>();
  for (const f of b.findings) {
    if (!f || typeof f.fingerprint !== 'string') continue;
    m.set(f.fingerprint, (m.get(f.fingerprint) ?? 0) + 1);
    if (typeof f.group === 'string' && typeof f.line === 'number') lines.set(f.group, [...(lines.get(f.group) ?? []), { line: f.line, ...(typeof f.context === 'string' ? { context: f.context } : {}) }]);
  }
  return { counts: m, lines };
}

/** Writes every finding of the run as the accepted baseline. Returns how many. */
export function writeBaseline(file: string, results: FileResult[]): number {
  const findings = results.flatMap((r) => r.findings.map((f) => ({ file: f.file, rule: f.rule, fingerprint: f.fingerprint ?? hashOf(f), message: f.message, ...(f.group ? { group: f.group, line: f.line, ...(f.context ? { context: f.context } : {}) } : {}) })));
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

/**
 * Rewrites a baseline with only the entries the run matched (`--prune-baseline`): entries whose
 * finding is gone (fixed, or its code deleted) are stale and would accept a new finding that happens
 * to get the same fingerprint later.
 */
export function pruneBaseline(file: string, matched: Map<string, number>): { kept: number; dropped: number } {
  const b = JSON.parse(readFileSync(file, 'utf8')) as BaselineFile;
  const left = new Map(matched);
  const findings = b.findings.filter((f) => {
    const n = left.get(f.fingerprint) ?? 0;
    if (n <= 0) return false;
    left.set(f.fingerprint, n - 1);
    return true;
  });
  try {
    writeFileSync(file, JSON.stringify({ ...b, findings }, null, 2) + '\n');
  } catch (err) {
    throw new UsageError(`--prune-baseline ${file}: cannot write (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return { kept: findings.length, dropped: b.findings.length - findings.length };
}
