/**
 * `bashguard lint`: scripts analyzed by the same engine as the hook, with the checkout containing
 * each script as the root (see docs/lint.md for how the root and the starting cwd are chosen).
 * Library code: no process access beyond reading the files it is asked about.
 */
import { readFileSync, realpathSync } from 'node:fs';

function realpathOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
import { dirname, relative } from 'node:path';
import type { BashParser, ParseLimits, ParseResult } from '../parse/index.js';
import type { Finding } from '../policy/policy.js';
import { ConfigError, DEFAULT_CONFIG, type Config, type ConfigOverride } from '../policy/config.js';
import type { PhysicalFs } from '../policy/physical.js';
import { displayPath } from '../interpret/paths.js';
import { openWorkspace, type Workspace } from '../workspace/index.js';
import { ruleById, type RuleId, type Severity } from '../rules/catalog.js';
import type { Confidence } from '../effects/confidence.js';
import type { Range } from '../syntax/ir.js';
import { parseDirectives, suppress } from './directives.js';
import { globMatcher, isShellShebang } from './files.js';
import { sha256Hex } from '../util/sha256.js';

export interface LintEvidence {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  note: string;
}

export interface LintFinding {
  rule: RuleId;
  name: string;
  severity: Severity;
  confidence: Confidence;
  message: string;
  /** The file as shown (relative to the cwd when below it), `<stdin>` for stdin. */
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** The resolved path or repository the finding is about, when there is one. */
  target: string | null;
  /** Wrappers the effect was found through (`sudo`, `bash -c` ...). */
  via: string[];
  evidence: LintEvidence[];
  /**
   * A stable fingerprint of the finding: its rule, file and the code it is on (whitespace folded),
   * not its line number, so a baseline survives edits elsewhere in the file. Set by lintFile.
   */
  fingerprint?: string;
}

export type RootSource = 'option' | 'linked-worktree' | 'checkout' | 'script-dir';

export interface FileResult {
  file: string;
  /** Absolute path, or '-' for stdin. */
  path: string;
  /** The policy root and how it was chosen; null when the file could not be read. */
  root: string | null;
  rootSource: RootSource | null;
  /** Where the analysis starts. */
  cwd: string | null;
  findings: LintFinding[];
  /** Findings silenced by directives. */
  suppressed: number;
  /** Set when the file could not be read or its configuration is invalid (exit code 2). */
  error: string | null;
  /**
   * The source text (for code frames and fingerprints); '' when unreadable. From a lint child
   * process (./isolated.ts), only the lines those read, the others empty (framedSource).
   */
  source: string;
  timeMs: number;
}

export interface LintOptions {
  /** `--root DIR`: overrides the checkout root for every file. Absolute. */
  root?: string;
  /** `--cwd DIR`: the starting cwd for every file (default: the root). Absolute, or `script` for each script's own directory. */
  cwd?: string;
  env: Record<string, string | undefined>;
  reportUnusedDirectives?: boolean;
  fs?: PhysicalFs;
  /** `--norc`: no configuration file at all (user, project, nested), only the defaults. */
  noConfig?: boolean;
  /**
   * false: findings get no fingerprint here (the lint child process leaves them to its parent,
   * which computes them for every file anyway: ./isolated.ts). Default true.
   */
  fingerprints?: boolean;
}

interface Scope {
  ws: Workspace;
  root: string;
  rootSource: RootSource;
  config: Config;
  ignore: (abs: string) => boolean;
}

const EMPTY: Range = { start: 0, end: 0, line: 1, column: 1, endLine: 1, endColumn: 1 };

/** Source text kept by the parse cache, at most (the trees take ~25x that in memory). */
const PARSE_CACHE_CHARS = 2_000_000;

/**
 * `parser` with the trees of nested code kept for the rest of the run: a library every script
 * sources (git-sh-setup in git's commands, nvm.sh in each of nvm's tests) or a common `eval`
 * string is parsed once, not once per script. A tree is never changed by the analysis (the IR
 * builder reads it), and the same text with the same limits parses to the same tree, so a kept
 * one gives what a fresh parse would (short of a repair round cut by the time budget, which
 * depends on the machine's load either way). Not kept: the file being linted (parsed once
 * anyway) and timeouts (they depend on the time left, not on the text).
 */
function cachingParser(parser: BashParser, isMain: (source: string) => boolean): BashParser {
  const kept = new Map<string, ParseResult>();
  let chars = 0;
  return {
    backend: parser.backend,
    fallbackReason: parser.fallbackReason,
    parse(source: string, limits?: Partial<ParseLimits>): ParseResult {
      if (isMain(source)) return parser.parse(source, limits);
      const key = `${limits?.maxDepth ?? ''}\0${limits?.maxInputChars ?? ''}\0${source}`;
      const hit = kept.get(key);
      if (hit) return hit;
      const result = parser.parse(source, limits);
      if (result.ok || result.kind !== 'timeout') {
        // Oldest first out, when full.
        for (const [k] of kept) {
          if (chars + key.length <= PARSE_CACHE_CHARS) break;
          kept.delete(k);
          chars -= k.length;
        }
        if (chars + key.length <= PARSE_CACHE_CHARS) {
          kept.set(key, result);
          chars += key.length;
        }
      }
      return result;
    },
  };
}

/** Finds roots and configs, cached per directory: one per run. */
export class Linter {
  private scopes = new Map<string, Scope | ConfigError>();
  private parser: BashParser | null = null;
  /** The text of the file being analyzed (its parse is not cached). */
  private current: string | null = null;

  constructor(
    /** null: this linter only finds scopes and reports stopped files (a lint parent whose children analyze). */
    parser: BashParser | null,
    private opts: LintOptions,
    /** For display names. */
    private displayCwd: string,
  ) {
    if (parser) this.useParser(parser);
  }

  /** Whether this linter analyzes files (else it only finds scopes and reports stopped files). */
  hasParser(): boolean {
    return this.parser !== null;
  }

  /** Analyze with `parser` from now on (a lint parent that turns out to analyze in-process). */
  useParser(parser: BashParser): void {
    this.parser = cachingParser(parser, (source) => source === this.current);
  }

  /** The scope for files in `dir`; throws ConfigError for an invalid `.bashguard.json`. */
  scopeFor(dir: string): Scope {
    const key = dir;
    let s = this.scopes.get(key);
    if (!s) {
      try {
        s = this.computeScope(dir);
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        s = err;
      }
      this.scopes.set(key, s);
    }
    if (s instanceof ConfigError) throw s;
    return s;
  }

  private computeScope(dir: string): Scope {
    const ws = openWorkspace(dir, {
      env: this.opts.env,
      fs: this.opts.fs,
      root: this.opts.root,
      enforceEverywhere: true,
      nestedDir: realpathOr(dir),
      config: this.opts.noConfig ? DEFAULT_CONFIG : undefined,
    });
    const root = ws.root!;
    const config = ws.config;
    const match = globMatcher(config.ignore);
    const base = config.source && this.opts.env.BASHGUARD_CONFIG ? dirname(config.source) : root;
    return {
      ws,
      root,
      rootSource: ws.rootSource as RootSource,
      config,
      ignore: (abs) => {
        const rel = relative(base, abs);
        return config.ignore.length > 0 && !rel.startsWith('..') && rel !== '' && match(rel.split('\\').join('/'));
      },
    };
  }

  private overrideScopes = new Map<string, Scope>();

  /** The scope with the config's `overrides` that match this script applied, or null when none does. */
  private overridden(scope: Scope, scriptPath: string): { scope: Scope; cwd?: string } | null {
    const matching: ConfigOverride[] = scope.config.overrides.filter((o) => {
      const rel = relative(o.base, scriptPath).split('\\').join('/');
      return !rel.startsWith('..') && globMatcher(o.files)(rel);
    });
    if (matching.length === 0) return null;
    const key = `${scope.root}\0${scope.config.sources.join('\0')}\0${matching.map((o) => scope.config.overrides.indexOf(o)).join(',')}`;
    let s = this.overrideScopes.get(key);
    if (!s) {
      let config: Config = scope.config;
      for (const o of matching) config = { ...config, writeRoots: [...config.writeRoots, ...(o.writeRoots ?? [])], rules: { ...config.rules, ...o.rules } };
      s = { ...scope, ws: scope.ws.withConfig(config), config };
      this.overrideScopes.set(key, s);
    }
    let cwd: string | undefined;
    for (const o of matching) if (o.cwd !== undefined) cwd = o.cwd;
    return { scope: s, cwd };
  }

  /** Whether a path is ignored by the `ignore` globs of the configuration that applies to it. */
  isIgnored(abs: string, isDir = false): boolean {
    try {
      return this.scopeFor(isDir ? abs : dirname(abs)).ignore(abs);
    } catch {
      return false;
    }
  }

  /**
   * Lints one file (abs path) or stdin ('-' with its text). Never throws. With `stopped` (why),
   * the file's analysis was stopped or crashed in ./isolated.ts's child process and is not run
   * again: the result is a BG0002 finding saying so.
   */
  lintFile(path: string, display: string, stdinText?: string, stdinPath?: string, stopped?: string): FileResult {
    const t0 = performance.now();
    const base: FileResult = { file: display, path, root: null, rootSource: null, cwd: null, findings: [], suppressed: 0, error: null, source: '', timeMs: 0 };
    let source: string;
    if (path === '-') source = stdinText ?? '';
    else {
      try {
        source = readFileSync(path, 'utf8');
      } catch (err) {
        return { ...base, error: `cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, timeMs: performance.now() - t0 };
      }
    }
    const scriptPath = path === '-' ? stdinPath ?? null : path;
    let scope: Scope;
    try {
      scope = this.scopeFor(scriptPath ? dirname(scriptPath) : this.displayCwd);
    } catch (err) {
      return { ...base, source, error: `invalid configuration: ${(err as Error).message}`, timeMs: performance.now() - t0 };
    }
    const override = scriptPath ? this.overridden(scope, scriptPath) : null;
    if (override) scope = override.scope;
    const cwdOption = this.opts.cwd ?? (override?.cwd === 'root' ? undefined : override?.cwd);
    const cwd = cwdOption === 'script' ? (scriptPath ? dirname(scriptPath) : scope.root) : cwdOption ?? scope.root;
    const result: FileResult = { ...base, source, root: scope.root, rootSource: scope.rootSource, cwd };
    if (stopped !== undefined) {
      const message = `${stopped}: not analyzed`;
      result.findings = fingerprint([this.ownFinding('BG0002', scope.config, message, display, EMPTY, 'possible')].filter((f): f is LintFinding => f !== null), source);
      result.timeMs = performance.now() - t0;
      return result;
    }
    try {
      result.findings = this.analyze(source, scriptPath, display, scope, cwd, result);
    } catch (err) {
      // An engine failure on one file is that file's finding, never the end of the run.
      result.findings = [this.ownFinding('BG0002', scope.config, `internal error while analyzing this file: ${(err as Error).message.split('\n')[0]}`, display, EMPTY, 'possible')].filter((f): f is LintFinding => f !== null);
    }
    if (this.opts.fingerprints !== false) fingerprint(result.findings, source);
    result.timeMs = performance.now() - t0;
    return result;
  }

  private analyze(source: string, scriptPath: string | null, display: string, scope: Scope, cwd: string, result: FileResult): LintFinding[] {
    const out: LintFinding[] = [];
    const { directives, problems } = parseDirectives(source);
    if (source.slice(0, 8000).includes('\0')) {
      const f = this.ownFinding('BG0001', scope.config, 'binary file (contains NUL bytes), not a shell script: not analyzed', display, EMPTY, 'certain');
      return f ? [f] : [];
    }
    // A `#!` line naming another interpreter (perl, python3, tclsh, zsh, fish ...): not a sh/bash
    // script, as ShellCheck says too (SC1071). Read as bash it is a parse error or noise, at a cost.
    const nl = source.indexOf('\n');
    const shebang = source.startsWith('#!') ? (nl < 0 ? source : source.slice(0, nl)).trim() : null;
    if (shebang !== null && !isShellShebang(shebang)) {
      const f = this.ownFinding('BG0001', scope.config, `\`${shebang.length > 60 ? shebang.slice(0, 57) + '...' : shebang}\`: not a sh or bash script (bashguard reads bash): not analyzed`, display, EMPTY, 'certain');
      return f ? [f] : [];
    }
    // `cd "$(dirname "$0")"` and `$BASH_SOURCE`: the script's own path, as when run by path.
    const env: Record<string, string | undefined> = scriptPath ? { '0': scriptPath, BASH_SOURCE: scriptPath } : {};
    if (!this.parser) throw new Error('this lint process has no parser (its children analyze)');
    this.current = source;
    let verdict: ReturnType<Workspace['check']>['verdict'];
    try {
      verdict = scope.ws.check(this.parser, source, { cwd, env, commandTraces: false }).verdict;
    } finally {
      this.current = null;
    }
    for (const f of verdict.findings) {
      if (suppress(directives, f.rule, f.range.line)) {
        result.suppressed++;
        continue;
      }
      out.push(toLintFinding(f, display));
    }
    for (const p of problems) {
      const f = this.ownFinding('BG0003', scope.config, p.message, display, p.range, 'certain');
      if (f) out.push(f);
    }
    for (const d of directives) {
      for (const r of d.rules) {
        if (r.id === null) {
          const f = this.ownFinding('BG0003', scope.config, `unknown rule \`${r.ref}\` in a bashguard directive (run \`bashguard rules\` for the list); it suppresses nothing`, display, r.range, 'certain');
          if (f) out.push(f);
        } else if (!r.used && this.opts.reportUnusedDirectives) {
          const what = r.id === 'all' ? 'all rules' : `${r.id}`;
          const where = d.kind === 'file' ? 'in this file' : d.from === d.to ? `on line ${d.from}` : `on lines ${d.from}-${d.to}`;
          const f = this.ownFinding('BG0004', scope.config, `unused directive: ${what} reported nothing ${where}`, display, r.range, 'certain');
          if (f) out.push(f);
        }
      }
    }
    // Rule ids are ASCII (BG0001): compared by code unit. localeCompare would load ICU's collation
    // data on its first call, ~15 ms of every lint child that met a tie.
    out.sort((a, b) => a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0));
    return out;
  }

  private ownFinding(rule: RuleId, config: Config, message: string, file: string, range: Range, confidence: Confidence): LintFinding | null {
    const meta = ruleById(rule);
    const severity = config.rules[rule] ?? meta.severity;
    if (severity === 'off') return null;
    return {
      rule,
      name: meta.name,
      severity,
      confidence,
      message,
      file,
      line: range.line,
      column: range.column,
      endLine: range.endLine,
      endColumn: range.endColumn,
      target: null,
      via: [],
      evidence: [],
    };
  }
}

export function toLintFinding(f: Finding, file: string): LintFinding {
  return {
    rule: f.rule,
    name: f.name,
    severity: f.severity,
    confidence: f.confidence,
    message: displayPath(f.message),
    file,
    line: f.range.line,
    column: f.range.column,
    endLine: f.range.endLine,
    endColumn: f.range.endColumn,
    target: f.path === null ? null : displayPath(f.path),
    via: f.via,
    evidence: f.evidence.map((e) => ({ line: e.range.line, column: e.range.column, endLine: e.range.endLine, endColumn: e.range.endColumn, note: displayPath(e.note) })),
  };
}

/**
 * The lines (1-based, inclusive) a finding's code frame shows (./format.ts): up to one line of
 * context before, the finding's lines, at most 3. Its fingerprint reads the finding's own line. Null
 * when the finding is not on a line of a text of `lineCount` lines.
 */
export function frameLines(f: Pick<LintFinding, 'line' | 'endLine'>, lineCount: number): [number, number] | null {
  if (f.line < 1 || f.line > lineCount) return null;
  return [Math.max(1, f.line - 1), Math.min(lineCount, Math.max(f.line, Math.min(f.endLine, f.line + 2)))];
}

/**
 * `source` with only the lines the findings' code frames and fingerprints read; every other line
 * is left empty, so line numbers stay the same. What a lint child process sends back in place of
 * the whole text (./worker.ts): a script is ~40% of its result's size, and the parent has no use
 * for the rest (the bench's lint measured the same either way: docs/history/performance.md).
 */
export function framedSource(source: string, findings: LintFinding[]): string {
  if (findings.length === 0) return '';
  const lines = source.split('\n');
  const keep = new Uint8Array(lines.length + 1);
  for (const f of findings) {
    const w = frameLines(f, lines.length);
    if (w) for (let n = w[0]; n <= w[1]; n++) keep[n] = 1;
  }
  for (let n = 1; n <= lines.length; n++) if (!keep[n]) lines[n - 1] = '';
  return lines.join('\n');
}

/**
 * Sets each finding's fingerprint: rule, file, the finding's source line with whitespace folded,
 * and which occurrence of that triple it is, hashed. Line numbers are not part of it.
 */
export function fingerprint(findings: LintFinding[], source: string): LintFinding[] {
  const lines = source.split('\n');
  const seen = new Map<string, number>();
  for (const f of findings) {
    const code = (lines[f.line - 1] ?? '').replace(/\s+/g, ' ').trim();
    const base = `${f.rule}\0${f.file}\0${code}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    f.fingerprint = sha256Hex(`${base}\0${n}`).slice(0, 32);
  }
  return findings;
}

export const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };
