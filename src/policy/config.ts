/**
 * `.bashguard.json`: extra write roots, rule severities, decisions per confidence, what to do
 * with commands that cannot be analyzed, lint ignores. Validated by hand (no schema library on
 * the hook's start-up path); an invalid file gives one line naming the file and the field.
 */
import { lstatSync, statSync } from 'node:fs';
import { readRegularFileOrThrow } from '../util/safe-read.js';
import { nativeIO, STAT } from '../runtime/index.js';
import { resolvePath } from '../util/under.js';
import { resolveRuleRef, type RuleId, type Severity } from './rules/catalog.js';
import type { Confidence } from '../engine/effects/confidence.js';

/**
 * `sandbox` (issue #14): allow, but run the command inside `bashguard sandbox run` (bubblewrap
 * with the worktree's grants), for what static analysis cannot decide: `unanalyzable` and
 * `possible` findings only (certain and likely findings are known escapes). Clients that cannot
 * rewrite the command, and machines without bubblewrap, fall back to ask.
 */
export type Decision = 'allow' | 'ask' | 'deny' | 'sandbox';

export interface Config {
  /** Absolute directories where writes are also allowed. */
  writeRoots: string[];
  /** Severity overrides by rule id; 'off' disables a rule. */
  rules: Partial<Record<RuleId, Severity | 'off'>>;
  /** What a finding of each confidence does in the hook. */
  decisions: Record<Confidence, Decision>;
  /** What a command that cannot be analyzed (parse error, limits) does. */
  unanalyzable: Decision;
  /** Enforce in a plain checkout (no linked worktree) too, with the checkout root as the root. */
  enforceInPlainCheckout: boolean;
  /**
   * How allowed Bash calls are enforced by the OS (src/layers/sandbox/enforce.ts): `auto` (default)
   * wraps them in bubblewrap where it can start, else in Landlock where the kernel has it, `bwrap`
   * requires bubblewrap (ask where it is missing), `landlock` uses Landlock only
   * (src/layers/sandbox/landlock.ts; a worktree's file cannot ask for it), `client` relies on the client's own sandbox (Claude Code's `sandbox` settings),
   * `off` leaves the analyzer alone.
   */
  enforce: EnforceMode;
  /**
   * Whether an enforced Bash call may create Unix sockets (src/layers/sandbox/seccomp.ts): `block`
   * (default; a tmux, docker or systemd daemon outside the sandbox cannot be asked to run code) or
   * `allow`. Only a trusted file may allow them.
   */
  unixSockets: UnixSockets;
  /**
   * What Landlock holds in the worktree (src/layers/sandbox/landlock-line.ts): `held` (default:
   * its control files read-only, so no new top-level entry can be made beside them) or `whole`
   * (the worktree granted whole, new top-level entries included, and its own control files left
   * to the analyzer: a program the analyzer allows, `make` or a script, can then write them).
   * A worktree's file may only choose `held`.
   */
  landlockWorktree: LandlockWorktree;
  /** Lint: glob patterns of files to skip. */
  ignore: string[];
  /** Lint: directories where `source`d files are looked up (absolute; ShellCheck's source-path). */
  sourcePath: string[];
  /** Lint: values of variables the scripts read from their environment (`# bashguard var` for a whole tree). */
  vars: Record<string, string>;
  /** Paths protected even inside the worktree or a write root (absolute). */
  protect: string[];
  /** Lint: settings for the scripts matching globs (in order; later ones win). */
  overrides: ConfigOverride[];
  /** Where the config came from, for messages: the most specific trusted file, or null. */
  source: string | null;
  /** Every file that contributed, least specific first. */
  sources: string[];
}

/** Lint: per-glob settings, e.g. `{ "files": ["test/**"], "cwd": "script" }`. */
export interface ConfigOverride {
  /** Globs (as in `ignore`), relative to `base`. */
  files: string[];
  /** The directory of the config file that declared it. */
  base: string;
  /** Where the analysis of matching scripts starts: `script` (the script's own directory), `root`, or a directory. */
  cwd?: string;
  writeRoots?: string[];
  rules?: Partial<Record<RuleId, Severity | 'off'>>;
}

/** What one config file sets: only the fields present in it. */
export interface ConfigLayer {
  file: string;
  writeRoots?: string[];
  rules?: Partial<Record<RuleId, Severity | 'off'>>;
  decisions?: Partial<Record<Confidence, Decision>>;
  unanalyzable?: Decision;
  enforceInPlainCheckout?: boolean;
  enforce?: EnforceMode;
  unixSockets?: UnixSockets;
  landlockWorktree?: LandlockWorktree;
  ignore?: string[];
  sourcePath?: string[];
  vars?: Record<string, string>;
  protect?: string[];
  overrides?: ConfigOverride[];
}

export const DEFAULT_CONFIG: Config = {
  writeRoots: [],
  rules: {},
  decisions: { certain: 'deny', likely: 'deny', possible: 'ask' },
  unanalyzable: 'ask',
  enforceInPlainCheckout: false,
  enforce: 'auto',
  unixSockets: 'block',
  landlockWorktree: 'held',
  ignore: [],
  sourcePath: [],
  vars: {},
  protect: [],
  overrides: [],
  source: null,
  sources: [],
};

export class ConfigError extends Error {}

const KEYS = new Set(['$schema', 'writeRoots', 'rules', 'decisions', 'unanalyzable', 'enforceInPlainCheckout', 'enforce', 'unixSockets', 'landlockWorktree', 'ignore', 'sourcePath', 'vars', 'protect', 'overrides']);
export type EnforceMode = 'auto' | 'bwrap' | 'landlock' | 'seatbelt' | 'client' | 'off';
export const ENFORCE_MODES: readonly EnforceMode[] = ['auto', 'bwrap', 'landlock', 'seatbelt', 'client', 'off'];
export type UnixSockets = 'block' | 'allow';
export type LandlockWorktree = 'whole' | 'held';
const DECISIONS = new Set(['allow', 'ask', 'deny', 'sandbox']);
const SEVERITIES = new Set(['error', 'warning', 'info', 'off']);

/**
 * Expands a configured path: `~`, `~/x`, `$HOME/x` and `${HOME}/x` against `home`; a relative path
 * against `baseDir`. A `~` or `$HOME` path with no HOME known is an error.
 */
export function expandConfigPath(p: string, baseDir: string, home: string | undefined, file: string, field: string): string {
  const m = /^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/.exec(p);
  if (m) {
    if (!home) throw new ConfigError(`${file}: ${field}: ${p} needs HOME, which is not set`);
    return resolvePath(home, '.' + p.slice(m[0].length));
  }
  if (p.startsWith('~')) throw new ConfigError(`${file}: ${field}: ${p}: only ~ and ~/ are expanded (not ~user)`);
  return resolvePath(baseDir, p);
}

function pathList(obj: Record<string, unknown>, key: string, file: string, baseDir: string, home: string | undefined): string[] | undefined {
  const v = obj[key];
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((r) => typeof r !== 'string' || r === '')) throw new ConfigError(`${file}: ${key}: must be an array of non-empty path strings`);
  return (v as string[]).map((r) => expandConfigPath(r, baseDir, home, file, key));
}

function parseRules(v: unknown, file: string, field: string): Partial<Record<RuleId, Severity | 'off'>> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ConfigError(`${file}: ${field}: must be an object of rule -> severity`);
  const out: Partial<Record<RuleId, Severity | 'off'>> = {};
  for (const [k, sev] of Object.entries(v as Record<string, unknown>)) {
    const id = resolveRuleRef(k);
    if (!id) throw new ConfigError(`${file}: ${field}.${k}: unknown rule (see \`bashguard rules\`)`);
    if (typeof sev !== 'string' || !SEVERITIES.has(sev)) throw new ConfigError(`${file}: ${field}.${k}: must be one of error, warning, info, off`);
    out[id] = sev as Severity | 'off';
  }
  return out;
}

const OVERRIDE_KEYS = new Set(['files', 'cwd', 'writeRoots', 'rules']);

function parseOverrides(v: unknown, file: string, baseDir: string, home: string | undefined): ConfigOverride[] {
  if (!Array.isArray(v)) throw new ConfigError(`${file}: overrides: must be an array of { files, cwd?, writeRoots?, rules? }`);
  return v.map((o, i) => {
    const at = `overrides[${i}]`;
    if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new ConfigError(`${file}: ${at}: must be an object`);
    const obj = o as Record<string, unknown>;
    for (const k of Object.keys(obj)) if (!OVERRIDE_KEYS.has(k)) throw new ConfigError(`${file}: ${at}.${k}: unknown field (known: ${[...OVERRIDE_KEYS].join(', ')})`);
    if (!Array.isArray(obj.files) || obj.files.length === 0 || obj.files.some((f) => typeof f !== 'string' || f === '')) throw new ConfigError(`${file}: ${at}.files: must be a non-empty array of glob strings`);
    const out: ConfigOverride = { files: obj.files as string[], base: baseDir };
    if (obj.cwd !== undefined) {
      if (typeof obj.cwd !== 'string' || obj.cwd === '') throw new ConfigError(`${file}: ${at}.cwd: must be "script", "root" or a directory`);
      out.cwd = obj.cwd === 'script' || obj.cwd === 'root' ? obj.cwd : expandConfigPath(obj.cwd, baseDir, home, file, `${at}.cwd`);
    }
    const roots = pathList(obj, 'writeRoots', file, baseDir, home);
    if (roots) out.writeRoots = roots;
    if (obj.rules !== undefined) out.rules = parseRules(obj.rules, file, `${at}.rules`);
    return out;
  });
}

/**
 * Parses and validates one config file's text into the fields it sets. Throws ConfigError with
 * `file: field: problem`. Relative paths are resolved against `baseDir`, `~` against `home`.
 */
export function parseConfigLayer(text: string, file: string, baseDir: string, home?: string): ConfigLayer {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${file}: invalid JSON (${(err as Error).message})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError(`${file}: the top level must be a JSON object`);
  const obj = raw as Record<string, unknown>;
  for (const k of Object.keys(obj)) if (!KEYS.has(k)) throw new ConfigError(`${file}: ${k}: unknown field (known: ${[...KEYS].filter((x) => x !== '$schema').join(', ')})`);
  const layer: ConfigLayer = { file };
  const writeRoots = pathList(obj, 'writeRoots', file, baseDir, home);
  if (writeRoots) layer.writeRoots = writeRoots;
  const protect = pathList(obj, 'protect', file, baseDir, home);
  if (protect) layer.protect = protect;
  if (obj.rules !== undefined) layer.rules = parseRules(obj.rules, file, 'rules');
  if (obj.decisions !== undefined) {
    if (typeof obj.decisions !== 'object' || obj.decisions === null || Array.isArray(obj.decisions)) throw new ConfigError(`${file}: decisions: must be an object of confidence -> decision`);
    layer.decisions = {};
    for (const [k, v] of Object.entries(obj.decisions as Record<string, unknown>)) {
      if (!['certain', 'likely', 'possible'].includes(k)) throw new ConfigError(`${file}: decisions.${k}: unknown confidence (certain, likely, possible)`);
      if (v === 'sandbox' && k !== 'possible') throw new ConfigError(`${file}: decisions.${k}: sandbox is only for possible findings (certain and likely ones are known escapes: deny or ask)`);
      if (typeof v !== 'string' || !DECISIONS.has(v)) throw new ConfigError(`${file}: decisions.${k}: must be one of allow, ask, deny${k === 'possible' ? ', sandbox' : ''}`);
      layer.decisions[k as Confidence] = v as Decision;
    }
  }
  if (obj.unanalyzable !== undefined) {
    if (obj.unanalyzable !== 'ask' && obj.unanalyzable !== 'deny' && obj.unanalyzable !== 'sandbox') throw new ConfigError(`${file}: unanalyzable: must be "ask", "deny" or "sandbox" (never allow: a command bashguard cannot read is not safe)`);
    layer.unanalyzable = obj.unanalyzable;
  }
  if (obj.enforceInPlainCheckout !== undefined) {
    if (typeof obj.enforceInPlainCheckout !== 'boolean') throw new ConfigError(`${file}: enforceInPlainCheckout: must be true or false`);
    layer.enforceInPlainCheckout = obj.enforceInPlainCheckout;
  }
  if (obj.enforce !== undefined) {
    if (typeof obj.enforce !== 'string' || !(ENFORCE_MODES as readonly string[]).includes(obj.enforce)) throw new ConfigError(`${file}: enforce: must be one of ${ENFORCE_MODES.map((m) => `"${m}"`).join(', ')}`);
    layer.enforce = obj.enforce as EnforceMode;
  }
  if (obj.unixSockets !== undefined) {
    if (obj.unixSockets !== 'block' && obj.unixSockets !== 'allow') throw new ConfigError(`${file}: unixSockets: must be "block" or "allow"`);
    layer.unixSockets = obj.unixSockets;
  }
  if (obj.landlockWorktree !== undefined) {
    if (obj.landlockWorktree !== 'whole' && obj.landlockWorktree !== 'held') throw new ConfigError(`${file}: landlockWorktree: must be "whole" or "held"`);
    layer.landlockWorktree = obj.landlockWorktree;
  }
  if (obj.ignore !== undefined) {
    if (!Array.isArray(obj.ignore) || obj.ignore.some((r) => typeof r !== 'string')) throw new ConfigError(`${file}: ignore: must be an array of glob strings`);
    layer.ignore = obj.ignore as string[];
  }
  if (obj.sourcePath !== undefined) {
    if (!Array.isArray(obj.sourcePath) || obj.sourcePath.some((r) => typeof r !== 'string' || r === '')) throw new ConfigError(`${file}: sourcePath: must be an array of directory paths`);
    layer.sourcePath = (obj.sourcePath as string[]).map((d) => expandConfigPath(d, baseDir, home, file, 'sourcePath'));
  }
  if (obj.vars !== undefined) {
    const v = obj.vars;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ConfigError(`${file}: vars: must be an object of NAME: "value"`);
    for (const [k, val] of Object.entries(v)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new ConfigError(`${file}: vars: ${JSON.stringify(k)} is not a shell variable name`);
      if (typeof val !== 'string') throw new ConfigError(`${file}: vars.${k}: must be a string`);
    }
    layer.vars = v as Record<string, string>;
  }
  if (obj.overrides !== undefined) layer.overrides = parseOverrides(obj.overrides, file, baseDir, home);
  return layer;
}

/** A trusted layer over a config: fields it sets replace, lists add up, rules merge per rule. */
export function applyLayer(base: Config, layer: ConfigLayer): Config {
  return {
    writeRoots: [...base.writeRoots, ...(layer.writeRoots ?? [])],
    rules: { ...base.rules, ...layer.rules },
    decisions: { ...base.decisions, ...layer.decisions },
    unanalyzable: layer.unanalyzable ?? base.unanalyzable,
    enforceInPlainCheckout: layer.enforceInPlainCheckout ?? base.enforceInPlainCheckout,
    enforce: layer.enforce ?? base.enforce,
    unixSockets: layer.unixSockets ?? base.unixSockets,
    landlockWorktree: layer.landlockWorktree ?? base.landlockWorktree,
    ignore: [...base.ignore, ...(layer.ignore ?? [])],
    sourcePath: [...base.sourcePath, ...(layer.sourcePath ?? [])],
    vars: { ...base.vars, ...layer.vars },
    protect: [...base.protect, ...(layer.protect ?? [])],
    overrides: [...base.overrides, ...(layer.overrides ?? [])],
    source: layer.file,
    sources: [...base.sources, layer.file],
  };
}

/** Parses one file as the whole configuration (over the defaults). */
export function parseConfig(text: string, file: string, baseDir: string, home?: string): Config {
  return applyLayer(DEFAULT_CONFIG, parseConfigLayer(text, file, baseDir, home));
}

/**
 * Reads one config file. A missing file is `null` when `optional`, an error otherwise; a dangling
 * symlink, a directory or an unreadable file is always an error naming the file.
 */
export function readConfigFile(file: string, optional: boolean): string | null {
  // The usual case, no file there, is found without an exception: the hook looks for three
  // config files on every call and lint for several per directory, and a thrown ENOENT costs a
  // fresh process ~0.1 ms each (creating the error and its stack) against ~0.01 for a stat.
  let missing = false;
  // (Through the addon where it is built: no Node fs function run cold in the hook's process.)
  const native = nativeIO();
  try {
    missing = native ? native.statKind(file, true) === STAT.ENOENT : statSync(file, { throwIfNoEntry: false }) === undefined;
  } catch {
    // ENOTDIR, EACCES ...: reported by the read below
  }
  if (!missing) {
    try {
      return readRegularFileOrThrow(file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EISDIR') throw new ConfigError(`${file}: is a directory, not a JSON file`);
      if (code === 'ENOTREG' || code === 'EFBIG' || code === 'EAGAIN') throw new ConfigError((err as Error).message);
      if (code !== 'ENOENT') throw new ConfigError(`${file}: cannot read (${code ?? (err as Error).message})`);
    }
  }
  // Nothing there (the stat said so, or the file went away before the read).
  let dangling = false;
  try {
    dangling = native ? native.statKind(file, false) === STAT.SYMLINK : lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  } catch {
    // nothing there at all
  }
  if (dangling) throw new ConfigError(`${file}: a symlink to a file that does not exist`);
  if (optional) return null;
  throw new ConfigError(`${file}: cannot read (ENOENT)`);
}
