/**
 * `.bashguard.json`: extra write roots, rule severities, decisions per confidence, what to do
 * with commands that cannot be analyzed, lint ignores. Validated by hand (no schema library on
 * the hook's start-up path); an invalid file gives one line naming the file and the field.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { resolveRuleRef, type RuleId, type Severity } from '../rules/catalog.js';
import type { Confidence } from '../effects/confidence.js';

export type Decision = 'allow' | 'ask' | 'deny';

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
  /** Lint: glob patterns of files to skip. */
  ignore: string[];
  /** Where the config came from, for messages. */
  source: string | null;
}

export const DEFAULT_CONFIG: Config = {
  writeRoots: [],
  rules: {},
  decisions: { certain: 'deny', likely: 'deny', possible: 'ask' },
  unanalyzable: 'ask',
  enforceInPlainCheckout: false,
  ignore: [],
  source: null,
};

export class ConfigError extends Error {}

const KEYS = new Set(['$schema', 'writeRoots', 'rules', 'decisions', 'unanalyzable', 'enforceInPlainCheckout', 'ignore']);
const DECISIONS = new Set(['allow', 'ask', 'deny']);
const SEVERITIES = new Set(['error', 'warning', 'info', 'off']);

/** Parses and validates config text. Throws ConfigError with `file: field: problem`. */
export function parseConfig(text: string, file: string, baseDir: string): Config {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${file}: invalid JSON (${(err as Error).message})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError(`${file}: the top level must be a JSON object`);
  const obj = raw as Record<string, unknown>;
  for (const k of Object.keys(obj)) if (!KEYS.has(k)) throw new ConfigError(`${file}: ${k}: unknown field (known: ${[...KEYS].filter((x) => x !== '$schema').join(', ')})`);
  const cfg: Config = { ...DEFAULT_CONFIG, decisions: { ...DEFAULT_CONFIG.decisions }, rules: {}, source: file };
  if (obj.writeRoots !== undefined) {
    if (!Array.isArray(obj.writeRoots) || obj.writeRoots.some((r) => typeof r !== 'string' || r === '')) throw new ConfigError(`${file}: writeRoots: must be an array of non-empty path strings`);
    cfg.writeRoots = (obj.writeRoots as string[]).map((r) => (isAbsolute(r) ? resolve(r) : resolve(baseDir, r)));
  }
  if (obj.rules !== undefined) {
    if (typeof obj.rules !== 'object' || obj.rules === null || Array.isArray(obj.rules)) throw new ConfigError(`${file}: rules: must be an object of rule -> severity`);
    for (const [k, v] of Object.entries(obj.rules as Record<string, unknown>)) {
      const id = resolveRuleRef(k);
      if (!id) throw new ConfigError(`${file}: rules.${k}: unknown rule (see \`bashguard rules\`)`);
      if (typeof v !== 'string' || !SEVERITIES.has(v)) throw new ConfigError(`${file}: rules.${k}: must be one of error, warning, info, off`);
      cfg.rules[id] = v as Severity | 'off';
    }
  }
  if (obj.decisions !== undefined) {
    if (typeof obj.decisions !== 'object' || obj.decisions === null || Array.isArray(obj.decisions)) throw new ConfigError(`${file}: decisions: must be an object of confidence -> decision`);
    for (const [k, v] of Object.entries(obj.decisions as Record<string, unknown>)) {
      if (!['certain', 'likely', 'possible'].includes(k)) throw new ConfigError(`${file}: decisions.${k}: unknown confidence (certain, likely, possible)`);
      if (typeof v !== 'string' || !DECISIONS.has(v)) throw new ConfigError(`${file}: decisions.${k}: must be one of allow, ask, deny`);
      cfg.decisions[k as Confidence] = v as Decision;
    }
  }
  if (obj.unanalyzable !== undefined) {
    if (obj.unanalyzable !== 'ask' && obj.unanalyzable !== 'deny') throw new ConfigError(`${file}: unanalyzable: must be "ask" or "deny" (never allow: a command bashguard cannot read is not safe)`);
    cfg.unanalyzable = obj.unanalyzable;
  }
  if (obj.enforceInPlainCheckout !== undefined) {
    if (typeof obj.enforceInPlainCheckout !== 'boolean') throw new ConfigError(`${file}: enforceInPlainCheckout: must be true or false`);
    cfg.enforceInPlainCheckout = obj.enforceInPlainCheckout;
  }
  if (obj.ignore !== undefined) {
    if (!Array.isArray(obj.ignore) || obj.ignore.some((r) => typeof r !== 'string')) throw new ConfigError(`${file}: ignore: must be an array of glob strings`);
    cfg.ignore = obj.ignore as string[];
  }
  return cfg;
}

/**
 * Loads `BASHGUARD_CONFIG` if set, else `<root>/.bashguard.json` if present, else defaults.
 * A missing file named by BASHGUARD_CONFIG is an error; a missing `.bashguard.json` is not.
 */
export function loadConfig(root: string | null, env: Record<string, string | undefined> = process.env): Config {
  const explicit = env.BASHGUARD_CONFIG;
  const file = explicit ? resolve(explicit) : root ? join(root, '.bashguard.json') : null;
  if (!file) return DEFAULT_CONFIG;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (!explicit && (err as NodeJS.ErrnoException).code === 'ENOENT') return DEFAULT_CONFIG;
    throw new ConfigError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return parseConfig(text, file, root ?? process.cwd());
}
