/** Output formats of `bashguard lint`: text, json, sarif (2.1.0), github (workflow commands). */
import { pathToFileURL } from 'node:url';
import { style, type Style } from '../style.js';
import { RULES, type RuleMeta } from '../../policy/rules/catalog.js';
import type { Severity } from '../../policy/rules/catalog.js';
import { frameLines, type FileResult, type LintFinding } from './lint.js';

export type Format = 'text' | 'json' | 'sarif' | 'github' | 'gcc' | 'checkstyle';
export const FORMATS: readonly Format[] = ['text', 'json', 'sarif', 'github', 'gcc', 'checkstyle'];

/** Where a rule's documentation is: the command that prints it, and its section in docs/rules.md. */
export function ruleDocRef(r: Pick<RuleMeta, 'id' | 'name'>): string {
  return `bashguard rules ${r.id} (docs/rules.md#${`${r.id} ${r.name}`.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')})`;
}

export interface Summary {
  files: number;
  /** Files that could not be read or configured. */
  failed: number;
  errors: number;
  warnings: number;
  infos: number;
  suppressed: number;
  timeMs: number;
}

export function summarize(results: FileResult[], timeMs: number): Summary {
  const s: Summary = { files: results.filter((r) => !r.sourcedOnly).length, failed: 0, errors: 0, warnings: 0, infos: 0, suppressed: 0, timeMs };
  for (const r of results) {
    if (r.error) s.failed++;
    s.suppressed += r.suppressed;
    for (const f of r.findings) {
      if (f.severity === 'error') s.errors++;
      else if (f.severity === 'warning') s.warnings++;
      else s.infos++;
    }
  }
  return s;
}

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

export function summaryLine(s: Summary & { baselined?: number }): string {
  const total = s.errors + s.warnings + s.infos;
  const parts = [`${plural(s.files, 'file')} linted`, `${plural(total, 'finding')} (${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${s.infos} info)`];
  if (s.suppressed) parts.push(`${s.suppressed} suppressed`);
  if (s.baselined) parts.push(`${s.baselined} in the baseline`);
  if (s.failed) parts.push(`${plural(s.failed, 'file')} not read`);
  parts.push(`${(s.timeMs / 1000).toFixed(2)} s`);
  return parts.join(', ');
}

// ---------------------------------------------------------------- text

function severityText(sev: Severity, s: Style): string {
  return sev === 'error' ? s.red(s.bold('error')) : sev === 'warning' ? s.yellow(s.bold('warning')) : s.bold('info');
}

/** Up to one line of context before, the finding's lines (at most 3), carets under the first. */
/**
 * A script's bytes as the terminal may show them: each control character (a NUL, an escape
 * sequence's ESC, a backspace) becomes its one-character picture (U+2400 block), so the caret line
 * below stays aligned and nothing in a linted file drives the terminal.
 */
function shown(t: string): string {
  return t.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, (c) => String.fromCharCode(c === '\x7f' ? 0x2421 : 0x2400 + c.charCodeAt(0)));
}

export function codeFrame(source: string, f: LintFinding, s: Style): string[] {
  if (!source) return [];
  const lines = source.split('\n');
  const w = frameLines(f, lines.length);
  if (!w) return [];
  const [first, last] = w;
  const width = String(last).length;
  const clip = (t: string) => {
    const clean = shown(t.replace(/\r$/, '').replace(/\t/g, '    '));
    return clean.length > 160 ? clean.slice(0, 157) + '...' : clean;
  };
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const marker = n >= f.line && n <= f.endLine ? '>' : ' ';
    out.push(s.dim(`  ${marker} ${String(n).padStart(width)} | `) + clip(lines[n - 1]!));
    if (n === f.line) {
      const raw = lines[n - 1]!.replace(/\r$/, '');
      // Columns count UTF-16 units; tabs are shown as 4 spaces.
      const prefix = raw.slice(0, f.column - 1).replace(/\t/g, '    ');
      const endCol = f.endLine === f.line ? Math.max(f.endColumn, f.column + 1) : raw.length + 1;
      const span = raw.slice(f.column - 1, endCol - 1).replace(/\t/g, '    ');
      const carets = '^'.repeat(Math.max(1, Math.min(span.length, 160 - prefix.length)));
      if (prefix.length < 160) out.push(s.dim(`    ${' '.repeat(width)} | `) + (f.severity === 'error' ? s.red(' '.repeat(prefix.length) + carets) : s.yellow(' '.repeat(prefix.length) + carets)));
    }
  }
  return out;
}

/**
 * Errors and warnings with their code frames; notes (info: below --min-confidence, or of an info
 * rule) only counted at the end, unless `notes` (`--notes`) lists them too.
 */
export function formatText(results: FileResult[], opts: { color: boolean; frames: boolean; notes?: boolean }): string {
  const s = style(opts.color);
  const out: string[] = [];
  let hidden = 0;
  for (const r of results) {
    if (r.error) {
      out.push(`${s.bold(r.file)}: ${s.red(s.bold('error'))}: ${r.error}`);
      continue;
    }
    for (const f of r.findings) {
      if (f.severity === 'info' && opts.notes === false) {
        hidden++;
        continue;
      }
      out.push(`${s.bold(`${f.file}:${f.line}:${f.column}`)}: ${severityText(f.severity, s)}: ${f.message} ${s.dim(`[${f.rule} ${f.name}]`)}`);
      if (opts.frames) out.push(...codeFrame(r.source, f, s));
      const notes = [`confidence: ${f.confidence}`, ...f.evidence.map((e) => (e.file !== undefined ? `${e.file}:${e.line}: ${e.note}` : `${e.line}:${e.column}: ${e.note}`))];
      for (const n of notes) out.push(s.dim(`    = ${n}`));
      if (opts.frames) out.push('');
    }
  }
  if (hidden > 0) {
    if (out.length > 0 && out[out.length - 1] !== '') out.push('');
    out.push(s.dim(`${hidden} note${hidden === 1 ? '' : 's'} not shown (--notes lists them)`));
  }
  const seen = [...new Set(results.flatMap((r) => r.findings.filter((f) => f.severity !== 'info' || opts.notes !== false).map((f) => f.rule)))].sort();
  if (seen.length > 0) {
    if (out[out.length - 1] !== '') out.push('');
    out.push('For more information:');
    for (const id of seen) {
      const r = RULES.find((x) => x.id === id);
      if (r) out.push(`  ${ruleDocRef(r)} -- ${r.summary}`);
    }
    out.push('');
  }
  return out.length ? out.join('\n') + (out[out.length - 1] === '' ? '' : '\n') : '';
}

// ---------------------------------------------------------------- gcc (as ShellCheck's -f gcc)

export function formatGcc(results: FileResult[]): string {
  const out: string[] = [];
  for (const r of results) {
    if (r.error) out.push(`${r.file}:1:1: error: ${r.error} [bashguard]`);
    for (const f of r.findings) out.push(`${f.file}:${f.line}:${f.column}: ${f.severity === 'info' ? 'note' : f.severity}: ${f.message} [${f.rule}]`);
  }
  return out.length ? out.join('\n') + '\n' : '';
}

// ---------------------------------------------------------------- checkstyle (as ShellCheck's -f checkstyle)

function xml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&apos;').replace(/"/g, '&quot;').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}

export function formatCheckstyle(results: FileResult[]): string {
  const out = ["<?xml version='1.0' encoding='UTF-8'?>", "<checkstyle version='4.3'>"];
  for (const r of results) {
    if (!r.error && r.findings.length === 0) continue;
    out.push(`<file name='${xml(r.file)}'>`);
    if (r.error) out.push(`<error line='1' column='1' severity='error' message='${xml(r.error)}' source='bashguard' />`);
    for (const f of r.findings) {
      out.push(`<error line='${f.line}' column='${f.column}' severity='${f.severity}' message='${xml(f.message)}' source='bashguard.${f.rule}' />`);
    }
    out.push('</file>');
  }
  out.push('</checkstyle>');
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------- json

export function formatJson(results: FileResult[], summary: Summary, version: string): string {
  return (
    JSON.stringify(
      {
        tool: { name: 'bashguard', version },
        summary,
        files: results.map((r) => ({ file: r.file, path: r.path, root: r.root, rootSource: r.rootSource, cwd: r.cwd, error: r.error, suppressed: r.suppressed, findings: r.findings })),
      },
      null,
      2,
    ) + '\n'
  );
}

// ---------------------------------------------------------------- sarif

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

function sarifRule(r: RuleMeta) {
  return {
    id: r.id,
    name: r.name,
    shortDescription: { text: r.summary },
    fullDescription: { text: r.summary },
    help: { text: r.docs, markdown: r.docs },
    defaultConfiguration: { level: LEVEL[r.severity] },
    properties: { tags: ['security', 'bashguard'] },
  };
}

/** Relative URIs with `%SRCROOT%` = the cwd, so GitHub code scanning maps them onto the repository. */
function artifactUri(r: FileResult): string {
  if (r.path === '-') return r.file === '<stdin>' ? 'stdin' : encodeURI(r.file);
  if (r.file.startsWith('/')) return pathToFileURL(r.file).href;
  return r.file.split('/').map(encodeURIComponent).join('/');
}

/** The SARIF location of a file shown as `file` (relative to the cwd, or absolute). */
function artifactLocationOf(file: string): { uri: string; uriBaseId?: string } {
  return file.startsWith('/') ? { uri: pathToFileURL(file).href } : { uri: file.split('/').map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
}

export function formatSarif(results: FileResult[], opts: { cwd: string; version: string; notifications: string[] }): string {
  const ruleIndex = new Map(RULES.map((r, i) => [r.id, i] as const));
  const sarifResults = [];
  for (const r of results) {
    const uri = artifactUri(r);
    const relative = !uri.startsWith('file:');
    const artifactLocation = relative ? { uri, uriBaseId: '%SRCROOT%' } : { uri };
    for (const f of r.findings) {
      const region = (line: number, column: number, endLine: number, endColumn: number) => {
        const reg: Record<string, number> = { startLine: Math.max(1, line), startColumn: Math.max(1, column) };
        if (endLine >= line) reg.endLine = endLine;
        if (endLine > line || endColumn > column) reg.endColumn = endColumn;
        return reg;
      };
      const related = f.evidence.map((e, i) => ({
        id: i + 1,
        physicalLocation: { artifactLocation: e.file !== undefined ? artifactLocationOf(e.file) : artifactLocation, region: region(e.line, e.column, e.endLine, e.endColumn) },
        message: { text: e.note },
      }));
      sarifResults.push({
        ruleId: f.rule,
        ruleIndex: ruleIndex.get(f.rule) ?? -1,
        level: LEVEL[f.severity],
        message: { text: f.message },
        locations: [{ physicalLocation: { artifactLocation, region: region(f.line, f.column, f.endLine, f.endColumn) } }],
        ...(related.length ? { relatedLocations: related } : {}),
        ...(f.fingerprint ? { partialFingerprints: { 'bashguardFingerprint/v1': f.fingerprint } } : {}),
        properties: { confidence: f.confidence, ...(f.target ? { target: f.target } : {}), ...(f.via.length ? { via: f.via } : {}) },
      });
    }
  }
  const notifications = [
    ...opts.notifications.map((text) => ({ level: 'error' as const, message: { text } })),
    ...results.filter((r) => r.error).map((r) => ({ level: 'error' as const, message: { text: `${r.file}: ${r.error}` } })),
  ];
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'bashguard', semanticVersion: opts.version, version: opts.version, rules: RULES.map(sarifRule) } },
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(opts.cwd.endsWith('/') ? opts.cwd : opts.cwd + '/').href } },
        invocations: [{ executionSuccessful: notifications.length === 0, ...(notifications.length ? { toolExecutionNotifications: notifications } : {}) }],
        columnKind: 'utf16CodeUnits',
        results: sarifResults,
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}

// ---------------------------------------------------------------- github

function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const GH_LEVEL: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

export function formatGithub(results: FileResult[]): string {
  const out: string[] = [];
  for (const r of results) {
    if (r.error) {
      out.push(`::error file=${escapeProperty(r.file)},title=${escapeProperty('bashguard: file not linted')}::${escapeData(r.error)}`);
      continue;
    }
    for (const f of r.findings) {
      const props = [`file=${escapeProperty(f.file)}`, `line=${f.line}`, `col=${f.column}`];
      if (f.endLine >= f.line) props.push(`endLine=${f.endLine}`);
      if (f.endLine === f.line && f.endColumn > f.column) props.push(`endColumn=${f.endColumn}`);
      props.push(`title=${escapeProperty(`${f.rule} ${f.name}`)}`);
      // Short: the message and the confidence; the evidence chain is in the SARIF and JSON output.
      out.push(`::${GH_LEVEL[f.severity]} ${props.join(',')}::${escapeData(`${f.message} (${f.confidence}; bashguard rules ${f.rule})`)}`);
    }
  }
  return out.length ? out.join('\n') + '\n' : '';
}
