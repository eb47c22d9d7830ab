/**
 * The corpus: `corpus/*.yaml`, one file per topic, each a YAML list of cases. A case is one line
 * when possible:
 *
 *   - {cmd: "cd .. && touch x", expect: deny, rule: BG1002}
 *
 * Fields (unknown ones are rejected with `file:line`):
 * - cmd (required): the bash command, or for Edit/Write/MultiEdit/NotebookEdit the path.
 * - expect (required): allow | ask | deny, the hook's decision.
 * - rule: a rule id or name; rules: a list of them. The set of rules found must equal it.
 *   Without either, an `allow` case must have no finding at all.
 * - findings: [{rule, path, confidence}] that must each be among the findings (path and
 *   confidence optional).
 * - confidence: the strongest confidence among the findings.
 * - cwd: absolute, or relative to the worktree /home/dev/repo/.builders/b1 (the default).
 * - symlinks: {link: target}; files: {path: content} (link/file paths absolute or relative to
 *   the worktree; targets stored verbatim).
 * - env: extra environment variables (both the analysis and the oracle see them).
 * - config: a `.bashguard.json` object for this case (writeRoots, rules, decisions ...).
 * - tool: Bash (default), Edit, Write, MultiEdit, NotebookEdit.
 * - oracle: true (default) | false | "why the execution oracle cannot run it".
 * - note: free text (limitations, why the label is what it is).
 *
 * Validation is by hand (no schema library): messages are `corpus/x.yaml:12: field: problem`.
 */
import { readFileSync } from 'node:fs';
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node, type YAMLMap } from 'yaml';
import { resolveRuleRef, type RuleId } from '../../policy/rules/catalog.js';
import { parseConfig, type Config } from '../../policy/config.js';
import { joinPath, normalizeLogical } from '../../engine/shell/paths.js';

export type Expect = 'allow' | 'ask' | 'deny';
export type Tool = 'Bash' | 'Edit' | 'Write' | 'MultiEdit' | 'NotebookEdit';
export type ConfidenceLevel = 'certain' | 'likely' | 'possible';

export interface ExpectedFinding {
  rule: RuleId;
  path?: string;
  confidence?: ConfidenceLevel;
}

export interface CorpusCase {
  /** Where the case is written, e.g. `corpus/cd.yaml`, and its 1-based line. */
  file: string;
  line: number;
  cmd: string;
  expect: Expect;
  /** Rule ids (resolved from ids or names), or null when the case names none. */
  rules: RuleId[] | null;
  findings: ExpectedFinding[];
  confidence: ConfidenceLevel | null;
  /** Absolute cwd; null = the worktree. */
  cwd: string | null;
  symlinks: Record<string, string>;
  files: Record<string, string>;
  env: Record<string, string>;
  config: Config | null;
  /** The raw config object, for the oracle / CLI round trip. */
  rawConfig: Record<string, unknown> | null;
  tool: Tool;
  /** true: the oracle may run it; a string: why it cannot. */
  oracle: true | string;
  note: string | null;
}

export class CorpusError extends Error {}

export const WORKTREE_ROOT = '/home/dev/repo/.builders/b1';
const FIELDS = new Set(['cmd', 'expect', 'rule', 'rules', 'findings', 'confidence', 'cwd', 'symlinks', 'files', 'env', 'config', 'tool', 'oracle', 'note']);
const EXPECTS = new Set(['allow', 'ask', 'deny']);
const TOOLS = new Set(['Bash', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
const CONFIDENCES = new Set(['certain', 'likely', 'possible']);

/** Absolute path for a case path (relative ones are relative to the worktree). */
export function casePath(p: string): string {
  return normalizeLogical(p.startsWith('/') ? p : joinPath(WORKTREE_ROOT, p));
}

/** Parses and validates corpus YAML text. `file` is used in messages (e.g. `corpus/cd.yaml`). */
export function parseCorpus(text: string, file: string): CorpusCase[] {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true, prettyErrors: false });
  const lineOf = (n: Node | null | undefined): number => (n?.range ? lc.linePos(n.range[0]).line : 1);
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    throw new CorpusError(`${file}:${e.linePos?.[0]?.line ?? 1}: invalid YAML: ${e.message.split('\n')[0]}`);
  }
  const root = doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === undefined))) return [];
  if (!isSeq(root)) throw new CorpusError(`${file}:${lineOf(root as Node)}: the file must be a YAML list of cases`);
  return root.items.map((item) => {
    const line = lineOf(item as Node);
    if (!isMap(item)) throw new CorpusError(`${file}:${line}: a case must be a mapping like {cmd: "...", expect: deny}`);
    return readCase(new CaseFields(item, file, line, lineOf));
  });
}

/** One case's fields as written, and the checks that name the line of a bad one. */
class CaseFields {
  readonly raw: Record<string, { node: Node; value: unknown }> = {};
  constructor(
    item: YAMLMap,
    readonly file: string,
    readonly line: number,
    readonly lineOf: (n: Node | null | undefined) => number,
  ) {
    const js = item.toJSON() as Record<string, unknown>;
    for (const pair of item.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      if (!FIELDS.has(key)) throw this.at(pair.key as Node, key, `unknown field (known: ${[...FIELDS].join(', ')})`);
      this.raw[key] = { node: (pair.value ?? pair.key) as Node, value: js[key] };
    }
  }

  at(n: Node | null | undefined, field: string, msg: string): CorpusError {
    return new CorpusError(`${this.file}:${n ? this.lineOf(n) : this.line}: ${field}: ${msg}`);
  }

  str(k: string, required = false): string | null {
    const r = this.raw[k];
    if (!r) {
      if (required) throw new CorpusError(`${this.file}:${this.line}: ${k}: required`);
      return null;
    }
    if (typeof r.value !== 'string' || r.value === '') throw this.at(r.node, k, 'must be a non-empty string');
    return r.value;
  }

  strMap(k: string): Record<string, string> {
    const r = this.raw[k];
    if (!r) return {};
    if (typeof r.value !== 'object' || r.value === null || Array.isArray(r.value)) throw this.at(r.node, k, 'must be a mapping of string -> string');
    const m: Record<string, string> = {};
    for (const [a, b] of Object.entries(r.value as Record<string, unknown>)) {
      if (typeof b !== 'string') throw this.at(r.node, `${k}.${a}`, 'must be a string');
      m[a] = b;
    }
    return m;
  }

  rule(ref: unknown, n: Node, field: string): RuleId {
    if (typeof ref !== 'string') throw this.at(n, field, 'must be a rule id or name');
    const id = resolveRuleRef(ref);
    if (!id) throw this.at(n, field, `unknown rule ${ref} (see \`bashguard rules\`)`);
    return id;
  }
}

/** A case from its fields, checked in the order they are documented. */
function readCase(f: CaseFields): CorpusCase {
  const { raw, file, line } = f;
  const cmd = f.str('cmd', true)!;
  const expect = f.str('expect', true)!;
  if (!EXPECTS.has(expect)) throw f.at(raw.expect!.node, 'expect', `must be allow, ask or deny (got ${expect})`);
  const rules = readRules(f);
  const confidence = f.str('confidence');
  if (confidence !== null && !CONFIDENCES.has(confidence)) throw f.at(raw.confidence!.node, 'confidence', 'must be certain, likely or possible');
  const findings = readFindings(f);
  const cwdRaw = f.str('cwd');
  const tool = f.str('tool') ?? 'Bash';
  if (!TOOLS.has(tool)) throw f.at(raw.tool!.node, 'tool', `must be one of ${[...TOOLS].join(', ')}`);
  const oracle = readOracle(f, tool);
  const { config, rawConfig } = readConfig(f);
  const env = f.strMap('env');
  for (const k of Object.keys(env)) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw f.at(raw.env!.node, `env.${k}`, 'bad variable name');
  const relMap = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [casePath(k), v]));
  return {
    file,
    line,
    cmd,
    expect: expect as Expect,
    rules,
    findings,
    confidence: confidence as ConfidenceLevel | null,
    cwd: cwdRaw === null ? null : casePath(cwdRaw),
    symlinks: relMap(f.strMap('symlinks')),
    // (a key ending in `/` declares a complete directory: src/policy/scenario/standard.ts)
    files: Object.fromEntries(Object.entries(f.strMap('files')).map(([k, v]) => [casePath(k) + (k.endsWith('/') && casePath(k) !== '/' ? '/' : ''), v])),
    env,
    config,
    rawConfig,
    tool: tool as Tool,
    oracle,
    note: f.str('note'),
  };
}

/** `rule: X` or `rules: [X, Y]` (ids or names), or null when the case names none. */
function readRules(f: CaseFields): RuleId[] | null {
  const { raw } = f;
  let rules: RuleId[] | null = null;
  if (raw.rule && raw.rules) throw f.at(raw.rules.node, 'rules', 'give rule or rules, not both');
  if (raw.rule) rules = [f.rule(raw.rule.value, raw.rule.node, 'rule')];
  if (raw.rules) {
    if (!Array.isArray(raw.rules.value) || raw.rules.value.length === 0) throw f.at(raw.rules.node, 'rules', 'must be a non-empty list of rule ids or names');
    rules = [...new Set((raw.rules.value as unknown[]).map((r) => f.rule(r, raw.rules!.node, 'rules')))];
  }
  return rules;
}

function readFindings(f: CaseFields): ExpectedFinding[] {
  const field = f.raw.findings;
  const findings: ExpectedFinding[] = [];
  if (!field) return findings;
  if (!Array.isArray(field.value)) throw f.at(field.node, 'findings', 'must be a list of {rule, path, confidence}');
  for (const item of field.value as unknown[]) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw f.at(field.node, 'findings', 'each must be a mapping {rule, path, confidence}');
    const o = item as Record<string, unknown>;
    for (const k of Object.keys(o)) if (!['rule', 'path', 'confidence'].includes(k)) throw f.at(field.node, `findings.${k}`, 'unknown field (known: rule, path, confidence)');
    const ef: ExpectedFinding = { rule: f.rule(o.rule, field.node, 'findings.rule') };
    if (o.path !== undefined) {
      if (typeof o.path !== 'string' || !o.path.startsWith('/')) throw f.at(field.node, 'findings.path', 'must be an absolute path');
      ef.path = o.path;
    }
    if (o.confidence !== undefined) {
      if (typeof o.confidence !== 'string' || !CONFIDENCES.has(o.confidence)) throw f.at(field.node, 'findings.confidence', 'must be certain, likely or possible');
      ef.confidence = o.confidence as ConfidenceLevel;
    }
    findings.push(ef);
  }
  return findings;
}

/** true when the oracle may run the case, else why not (a file tool's case never runs). */
function readOracle(f: CaseFields, tool: string): true | string {
  let oracle: true | string = true;
  const field = f.raw.oracle;
  if (field) {
    const v = field.value;
    if (v === true) oracle = true;
    else if (v === false) oracle = 'oracle: false';
    else if (typeof v === 'string' && v.trim() !== '') oracle = v;
    else throw f.at(field.node, 'oracle', 'must be true, false or a reason string');
  }
  if (tool !== 'Bash' && oracle === true) oracle = `${tool} is a file tool, not a command`;
  return oracle;
}

function readConfig(f: CaseFields): { config: Config | null; rawConfig: Record<string, unknown> | null } {
  const field = f.raw.config;
  if (!field) return { config: null, rawConfig: null };
  const v = field.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw f.at(field.node, 'config', 'must be a mapping (a .bashguard.json object)');
  try {
    return { config: parseConfig(JSON.stringify(v), `${f.file}:${f.lineOf(field.node)}: config`, WORKTREE_ROOT), rawConfig: v as Record<string, unknown> };
  } catch (err) {
    throw new CorpusError((err as Error).message);
  }
}

export function loadCorpusFile(path: string, shownAs: string = path): CorpusCase[] {
  return parseCorpus(readFileSync(path, 'utf8'), shownAs);
}

/** The identity used to reject duplicates: same command, cwd and tool. */
export function caseKey(c: Pick<CorpusCase, 'cmd' | 'cwd' | 'tool'>): string {
  return `${c.tool}\u0000${c.cwd ?? WORKTREE_ROOT}\u0000${c.cmd}`;
}

/** Duplicate cases across files, as messages (`corpus/a.yaml:3 duplicates corpus/b.yaml:9: cmd`). */
export function findDuplicates(cases: CorpusCase[]): string[] {
  const seen = new Map<string, CorpusCase>();
  const out: string[] = [];
  for (const c of cases) {
    const k = caseKey(c);
    const prev = seen.get(k);
    if (prev) out.push(`${c.file}:${c.line} duplicates ${prev.file}:${prev.line}: ${c.cmd}`);
    else seen.set(k, c);
  }
  return out;
}
