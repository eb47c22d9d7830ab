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
import { dirname, relative, resolve } from 'node:path';
import type { BashParser, ParseLimits, ParseResult } from '../../engine/parse/index.js';
import type { Finding } from '../../policy/policy.js';
import { ConfigError, DEFAULT_CONFIG, type Config, type ConfigOverride } from '../../policy/config.js';
import { nodeFs, type PhysicalFs } from '../../policy/physical.js';
import { displayPath, isInside } from '../../engine/shell/paths.js';
import { nodeHost } from '../../policy/workspace/host.js';
import type { Host } from '../../engine/interpret/interpreter.js';
import type { Unreachable } from '../../engine/interpret/reachability.js';
import { openWorkspace, type Workspace } from '../../policy/workspace/index.js';
import { ruleById, type RuleId, type Severity } from '../../policy/rules/catalog.js';
import type { Confidence } from '../../engine/effects/confidence.js';
import type { Range } from '../../engine/syntax/ir.js';
import { parseDirectives, suppress } from './directives.js';
import { displayName, globMatcher, isShellShebang } from './files.js';
import { sha256Hex } from '../../util/sha256.js';

export interface LintEvidence {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  note: string;
  /** The file the evidence is in, when not the finding's (a call chain from the linted script). */
  file?: string;
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
  /**
   * The absolute path of the file the finding is in, when that is not the linted file: a write in
   * a function of a file it sources. The run moves it to that file's results (command.ts).
   */
  elsewhere?: string;
  /** The fingerprint of the first finding of the same rule, file and code (not enumerable). */
  group?: string;
  /** The lines around it, hashed (not enumerable): which of a group's findings a baseline meant. */
  context?: string;
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
  /** Not linted itself: a file the linted ones source, holding findings moved to it (regroup). */
  sourcedOnly?: boolean;
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
  /**
   * `--max-steps N`: the interpreter's step budget per file (simple commands and function calls,
   * nested code included). Past it the file is reported as not fully analyzed (BG0002 with the
   * count). Deterministic, unlike a time budget: the same tree gives the same result on any load.
   */
  maxSteps?: number;
  /**
   * `--read-disk`: answer file tests (`[ -w ~/.bashrc ]`), `cd -P` and symlinks outside the
   * checkout from this machine's disk, as the hook does. Off by default: a lint result is a fact
   * about the tree, not about the machine it runs on (the checkout itself is still read: its
   * sourced files and its own symlinks are part of the tree).
   */
  readDisk?: boolean;
  /** `--source-path DIR` (absolute): where a sourced name is looked for, after its own path. */
  sourcePath?: string[];
  /** `--var NAME=VALUE`: variables' values where every script starts. */
  vars?: Record<string, string>;
  /** Rules of LINT_OFF_BY_DEFAULT that `--include` names: reported although no config asks. */
  optIn?: RuleId[];
}

/**
 * Rules that are the hook's business, not CI's: off in lint unless the configuration sets their
 * severity (`"rules": {"BG1005": "error"}`) or `--include` names them. BG1005 guards the files that
 * switch an agent's guard off (`.claude/settings.json` ...); in a repository's own scripts a tree
 * writer that "may drop" one (`tar -x`, `cp -r`) is a finding on nearly every installer, and no
 * agent is running.
 */
export const LINT_OFF_BY_DEFAULT: ReadonlySet<RuleId> = new Set<RuleId>(['BG1005']);

/** The default step budget of lint (the hook's is smaller: its commands are one-liners). */
export const LINT_DEFAULT_STEPS = 400_000;

/**
 * The disk as lint sees it without `--read-disk`: only the checkout under `root()` (null while the
 * workspace is being opened: its discovery needs the real layout). File tests are never answered
 * (the tree's untracked files and the machine's home are not the script's input), so both ways of
 * a test are analyzed.
 */
function treeOnly(root: () => string | null): { host: Host; fs: PhysicalFs } {
  const inTree = (p: string): boolean => {
    const r = root();
    return r === null || isInside(p, r);
  };
  const host: Host = {
    cdTakenToSucceed: true,
    realpath: (p) => (inTree(p) ? nodeHost.realpath!(p) : null),
    readFile: (p) => (inTree(p) ? nodeHost.readFile!(p) : null),
  };
  const fs: PhysicalFs = {
    readlink: (p) => (inTree(p) ? nodeFs.readlink(p) : null),
    // Outside the tree: taken to exist (what policy assumes of a path it cannot ask about).
    exists: (p) => (inTree(p) ? nodeFs.exists!(p) : true),
  };
  return { host, fs };
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
    let opened: string | null = null;
    const disk = this.opts.readDisk || this.opts.fs ? null : treeOnly(() => opened);
    const ws = openWorkspace(dir, {
      env: this.opts.env,
      fs: this.opts.fs ?? disk?.fs,
      host: disk?.host,
      root: this.opts.root,
      enforceEverywhere: true,
      nestedDir: realpathOr(dir),
      config: this.opts.noConfig ? DEFAULT_CONFIG : undefined,
    });
    const root = ws.root!;
    opened = root;
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
    const { directives, problems, hints } = parseDirectives(source);
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
    const env: Record<string, string | undefined> = { ...scope.config.vars, ...this.opts.vars, ...Object.fromEntries(hints.vars.map((v) => [v.name, v.value])), ...(scriptPath ? { '0': scriptPath, BASH_SOURCE: scriptPath } : {}) };
    // Source hints: paths relative to the script's directory (`SCRIPTDIR` is that directory).
    const scriptDir = scriptPath ? dirname(scriptPath) : this.displayCwd;
    const fromScript = (p: string) => resolve(scriptDir, p.replace(/^SCRIPTDIR(?=\/|$)/, scriptDir));
    const sourceHints = { at: new Map(hints.sources.map((h) => [h.line, fromScript(h.path)] as const)), dirs: [...hints.sourcePaths.map(fromScript), ...(this.opts.sourcePath ?? []), ...scope.config.sourcePath] };
    // What the configuration, the command line or a directive sets, and the script's own path,
    // are given; the rest of the environment (the CI runner's HOME, PATH ...) is not the one the
    // script will run in, so no condition is decided on it.
    const knownEnv = Object.keys(env);
    if (!this.parser) throw new Error('this lint process has no parser (its children analyze)');
    this.current = source;
    let verdict: ReturnType<Workspace['check']>['verdict'];
    let unreachable: Unreachable[];
    try {
      const check = scope.ws.check(this.parser, source, { cwd, env, commandTraces: false, deterministic: true, maxSteps: this.opts.maxSteps ?? LINT_DEFAULT_STEPS, file: scriptPath ?? undefined, everyFunction: true, sourceHints, knownEnv });
      verdict = check.verdict;
      unreachable = check.analysis?.unreachable ?? [];
    } finally {
      this.current = null;
    }
    for (const f of verdict.findings) {
      const o = f.origin;
      const other = o && resolve(o.file) !== scriptPath ? resolve(o.file) : null;
      const line = o ? o.range.line : f.range.line;
      const own = other === null ? directives : otherFile(other).directives;
      if (suppress(own, f.rule, line)) {
        result.suppressed++;
        continue;
      }
      if (LINT_OFF_BY_DEFAULT.has(f.rule) && scope.config.rules[f.rule] === undefined && !this.opts.optIn?.includes(f.rule)) continue;
      const lf = toLintFinding(f, other === null ? display : displayName(other, this.displayCwd));
      if (o) {
        // Where the code is, and how this file got there as evidence (each step in its own file).
        Object.assign(lf, { line: o.range.line, column: o.range.column, endLine: o.range.endLine, endColumn: o.range.endColumn });
        lf.evidence = o.chain.map((c) => ({ line: c.line, column: 1, endLine: c.line, endColumn: 1, note: c.note, file: c.file === null || c.file === scriptPath ? display : displayName(c.file, this.displayCwd) }));
        if (other !== null) lf.elsewhere = other;
      }
      // A parse error of the script's own text is certain (ShellCheck fails a run on one too);
      // its severity is the config's (`rules: {"BG0001": "warning"}`). One in nested code
      // (`eval "$x"`, `bash -c`) may be an artefact of an unknown value: left as it is.
      if (lf.rule === 'BG0001' && lf.via.length === 0) lf.confidence = 'certain';
      out.push(lf);
    }
    // Every line is analyzed or explained: the regions no path reaches, with why.
    for (const u of unreachable) {
      if (suppress(directives, 'BG0005', u.range.line)) {
        result.suppressed++;
        continue;
      }
      const f = this.ownFinding('BG0005', scope.config, `unreachable: ${u.reason}`, display, u.range, 'certain');
      if (f) out.push(f);
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
    const text = f.elsewhere ? otherFile(f.elsewhere).lines : lines;
    const code = (text[f.line - 1] ?? '').replace(/\s+/g, ' ').trim();
    const base = `${f.rule}\0${f.file}\0${code}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    f.fingerprint = sha256Hex(`${base}\0${n}`).slice(0, 32);
    // Every occurrence of the same code: the first one's fingerprint (a baseline matches the
    // occurrences of a group by line, so a copied line is the new one, not the old: ./select.ts).
    // Not enumerable: no output format shows it.
    const near = (i: number) => (text[i] ?? '').replace(/\s+/g, ' ').trim();
    Object.defineProperty(f, 'context', { value: sha256Hex(`${near(f.line - 2)}\0${near(f.line)}`).slice(0, 16), enumerable: false, configurable: true, writable: true });
    Object.defineProperty(f, 'group', { value: n === 0 ? f.fingerprint : sha256Hex(`${base}\0${0}`).slice(0, 32), enumerable: false, configurable: true, writable: true });
  }
  return findings;
}

/**
 * Moves each finding in another file (`elsewhere`) to that file's result, made when the run has
 * none (the sourced file was not among the paths), and keeps one of each finding per file (a
 * library function every script calls the same way is reported once, at its line). Fingerprints
 * are then computed again, per file.
 */
export function regroup(results: FileResult[], displayCwd: string): FileResult[] {
  if (!results.some((r) => r.findings.some((f) => f.elsewhere))) return results;
  const byPath = new Map<string, FileResult>();
  for (const r of results) if (r.path !== '-') byPath.set(r.path, r);
  const out = [...results];
  const moved = new Set<FileResult>();
  for (const r of results) {
    const keep: LintFinding[] = [];
    for (const f of r.findings) {
      if (!f.elsewhere) {
        keep.push(f);
        continue;
      }
      let target = byPath.get(f.elsewhere);
      if (!target) {
        target = { file: displayName(f.elsewhere, displayCwd), path: f.elsewhere, root: r.root, rootSource: r.rootSource, cwd: r.cwd, findings: [], suppressed: 0, error: null, source: '', timeMs: 0, sourcedOnly: true };
        byPath.set(f.elsewhere, target);
        out.push(target);
      }
      moved.add(target);
      const { elsewhere: _, ...here } = f;
      target.findings.push(here);
    }
    r.findings = keep;
  }
  for (const t of moved) {
    t.source = otherFile(t.path).text;
    const seen = new Set<string>();
    t.findings = t.findings.filter((f) => {
      const k = `${f.rule}|${f.line}|${f.column}|${f.message}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    t.findings.sort((a, b) => a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0));
    fingerprint(t.findings, t.source);
  }
  return out;
}

/** Files findings were moved to (sourced files), read once per process: their lines and directives. */
const otherFiles = new Map<string, { text: string; lines: string[]; directives: ReturnType<typeof parseDirectives>['directives'] }>();

export function otherFile(path: string): { text: string; lines: string[]; directives: ReturnType<typeof parseDirectives>['directives'] } {
  let f = otherFiles.get(path);
  if (!f) {
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      // Read by the analysis a moment ago; gone now: no frame, no directive.
    }
    f = { text, lines: text.split('\n'), directives: parseDirectives(text).directives };
    otherFiles.set(path, f);
  }
  return f;
}

export const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };
