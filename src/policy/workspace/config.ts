/**
 * Trusted configuration (issue #12): configuration is read only from places the agent cannot
 * write, and a file the agent can write may only tighten.
 *
 * Layers, least specific first:
 * 1. the user's file, `$XDG_CONFIG_HOME/bashguard/config.json` (default `~/.config/...`);
 * 2. the project's file: the one named by `BASHGUARD_CONFIG` in the orchestrator's environment
 *    (which must exist), or else `<main checkout>/.bashguard.json` (the main checkout is protected);
 * 3. in a linked worktree, `<worktree>/.bashguard.json`: the agent can write it, so it may only
 *    tighten (raise a rule's severity, turn a decision stricter, `unanalyzable: deny`, add
 *    `protect` paths). Whatever it tries to loosen is ignored and reported as a notice.
 */
import { dirname, join } from 'node:path';
import { applyLayer, ConfigError, DEFAULT_CONFIG, parseConfigLayer, readConfigFile, type Config, type ConfigLayer, type Decision } from '../config.js';
import { ruleById, type Severity } from '../rules/catalog.js';
import type { Confidence } from '../../engine/effects/confidence.js';
import { DECISION_RANK } from '../policy.js';
import { normalizeLogical } from '../../engine/shell/paths.js';
import { under } from '../../util/under.js';
import { realpathSync } from 'node:fs';
import { scratchRoots } from '../regions.js';

export type Env = Record<string, string | undefined>;

export interface TrustedConfigInput {
  env: Env;
  /** Root of the main checkout (or of a plain checkout): its `.bashguard.json` is trusted. */
  projectRoot: string | null;
  /** Root of the linked worktree the agent works in: its `.bashguard.json` may only tighten. */
  worktreeRoot: string | null;
  /**
   * Lint: a directory below the project (or worktree) root whose own and intermediate
   * `.bashguard.json` files apply too, nearest last (like `.shellcheckrc` or ESLint's cascade).
   * Inside a linked worktree they are untrusted like the worktree's own file.
   */
  nestedDir?: string;
}

/**
 * An invalid or unreadable worktree `.bashguard.json`: the agent can write that file, so the hook
 * answers deny (fail closed) rather than ask as for a person's broken trusted file.
 */
export class UntrustedConfigError extends ConfigError {}

export interface LoadedConfig {
  config: Config;
  /** What the untrusted worktree file tried and was refused, one line each. */
  notices: string[];
  /** Config files named by the environment and ignored because the agent can write them, one line each (doctor fails on them). */
  ignored?: string[];
}

/**
 * Whether the agent may write `file` (its physical path): inside the worktree, a scratch dir or a
 * configured write root, and not inside the main checkout (which may itself lie under /tmp).
 */
function agentWritable(file: string, input: TrustedConfigInput, writeRoots: readonly string[]): string | null {
  const real = realFile(file);
  const inside = (root: string | null | undefined): boolean => !!root && (real === root || real.startsWith(root.endsWith('/') ? root : root + '/'));
  const project = input.projectRoot ? realFile(input.projectRoot) : null;
  if (input.worktreeRoot && inside(realFile(input.worktreeRoot))) return `the worktree ${input.worktreeRoot}`;
  if (project && inside(project) && !(input.worktreeRoot && inside(realFile(input.worktreeRoot)))) return null;
  for (const r of scratchRoots(input.env)) if (inside(realFile(r))) return `the scratch directory ${r}`;
  for (const r of writeRoots) if (inside(realFile(r))) return `the write root ${r}`;
  return null;
}

/** A path with its existing part resolved through symlinks (realpath of the longest existing prefix). */
function realFile(p: string): string {
  let head = normalizeLogical(p);
  let tail = '';
  for (;;) {
    try {
      const real = realpathSync.native(head);
      return tail ? (real === '/' ? '' : real) + tail : real;
    } catch {
      const slash = head.lastIndexOf('/');
      if (slash <= 0) return normalizeLogical(p);
      tail = head.slice(slash) + tail;
      head = head.slice(0, slash);
    }
  }
}

/** The user's config file, or null when neither XDG_CONFIG_HOME nor HOME is set. */
export function userConfigFile(env: Env): string | null {
  if (env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith('/')) return under(normalizeLogical(env.XDG_CONFIG_HOME), 'bashguard', 'config.json');
  if (env.HOME?.startsWith('/')) return under(normalizeLogical(env.HOME), '.config', 'bashguard', 'config.json');
  return env.HOME ? join(env.HOME, '.config', 'bashguard', 'config.json') : null;
}

/** The config files bashguard reads for a workspace, trusted ones first (for doctor and protection). */
export function configFiles(input: TrustedConfigInput): { file: string; trusted: boolean }[] {
  const out: { file: string; trusted: boolean }[] = [];
  const user = userConfigFile(input.env);
  if (user) out.push({ file: user, trusted: true });
  if (input.env.BASHGUARD_CONFIG) out.push({ file: input.env.BASHGUARD_CONFIG, trusted: true });
  else if (input.projectRoot) out.push({ file: under(input.projectRoot, '.bashguard.json'), trusted: true });
  if (input.worktreeRoot && input.worktreeRoot !== input.projectRoot) out.push({ file: under(input.worktreeRoot, '.bashguard.json'), trusted: false });
  const top = input.worktreeRoot ?? input.projectRoot;
  if (input.nestedDir && top && input.nestedDir !== top && input.nestedDir.startsWith(top + '/')) {
    let dir = top;
    for (const part of input.nestedDir.slice(top.length + 1).split('/')) {
      dir = join(dir, part);
      out.push({ file: join(dir, '.bashguard.json'), trusted: !input.worktreeRoot });
    }
  }
  return out;
}

function readLayer(file: string, optional: boolean, env: Env): ConfigLayer | null {
  const text = readConfigFile(file, optional);
  return text === null ? null : parseConfigLayer(text, file, dirname(file), env.HOME);
}

/** Loads the layered configuration. Throws ConfigError for an invalid or unreadable file. */
export function loadTrustedConfig(input: TrustedConfigInput): LoadedConfig {
  let config = DEFAULT_CONFIG;
  const notices: string[] = [];
  const ignored: string[] = [];
  // A file named by the environment (BASHGUARD_CONFIG, XDG_CONFIG_HOME) is trusted only where the
  // agent cannot write it: the hook cannot tell who set its environment (an `env` entry of a
  // project's `.claude/settings.local.json` reaches it as well as the orchestrator's own).
  const env: Env = { ...input.env };
  const userLayerRoots = (): string[] => {
    const user = userConfigFile(env);
    if (!user) return [];
    const r = readConfigFile(user, true);
    return r === null ? [] : (parseConfigLayer(r, user, dirname(user), input.env.HOME).writeRoots ?? []);
  };
  for (const key of ['XDG_CONFIG_HOME', 'BASHGUARD_CONFIG'] as const) {
    const value = env[key];
    if (!value) continue;
    const file = key === 'XDG_CONFIG_HOME' ? userConfigFile({ XDG_CONFIG_HOME: value }) : value;
    if (!file || !file.startsWith('/')) continue;
    // XDG_CONFIG_HOME naming the default place (~/.config) names nothing the agent could choose.
    if (key === 'XDG_CONFIG_HOME' && file === userConfigFile({ HOME: input.env.HOME })) continue;
    let roots: string[] = [];
    try {
      roots = key === 'BASHGUARD_CONFIG' ? userLayerRoots() : [];
    } catch {
      // a broken user file is reported when it is read below
    }
    const where = agentWritable(file, input, roots);
    if (where === null) continue;
    delete env[key];
    const line = `${key}=${value} ignored: ${file} lies in ${where}, where the agent can write, so it cannot be trusted (put the configuration where the agent cannot write: ~/.config/bashguard/config.json, or a file outside every write root)`;
    notices.push(line);
    ignored.push(line);
  }
  input = { ...input, env };
  for (const { file, trusted } of configFiles(input)) {
    // The file BASHGUARD_CONFIG names must exist; the others are optional.
    let layer: ConfigLayer | null;
    try {
      layer = readLayer(file, !(trusted && file === input.env.BASHGUARD_CONFIG), input.env);
    } catch (err) {
      if (!trusted && err instanceof ConfigError) throw new UntrustedConfigError(err.message);
      throw err;
    }
    if (!layer) continue;
    config = trusted ? applyLayer(config, layer) : tighten(config, layer, notices);
  }
  return { config, notices, ...(ignored.length ? { ignored } : {}) };
}

const SEVERITY_RANK: Record<Severity | 'off', number> = { off: 0, info: 1, warning: 2, error: 3 };

/** Applies an untrusted layer, keeping only what makes the guard stricter. */
export function tighten(base: Config, layer: ConfigLayer, notices: string[]): Config {
  const refuse = (what: string) => notices.push(`${layer.file}: ${what} ignored: a worktree's .bashguard.json may only tighten the configuration (put it in the main checkout's .bashguard.json or the user config)`);
  const out: Config = { ...base, rules: { ...base.rules }, decisions: { ...base.decisions }, sources: [...base.sources, layer.file] };
  if (layer.writeRoots?.length) refuse(`writeRoots (${layer.writeRoots.join(', ')})`);
  if (layer.ignore?.length) refuse('ignore');
  // Lint's declarations decide where paths resolve: only trusted files may make them.
  if (layer.sourcePath?.length) refuse('sourcePath');
  if (layer.vars && Object.keys(layer.vars).length) refuse('vars');
  if (layer.overrides?.length) refuse('overrides');
  if (layer.enforceInPlainCheckout === false && base.enforceInPlainCheckout) refuse('enforceInPlainCheckout: false');
  else if (layer.enforceInPlainCheckout) out.enforceInPlainCheckout = true;
  for (const [rule, sev] of Object.entries(layer.rules ?? {}) as [keyof Config['rules'], Severity | 'off'][]) {
    const current = base.rules[rule] ?? ruleById(rule).severity;
    if (SEVERITY_RANK[sev] >= SEVERITY_RANK[current]) out.rules[rule] = sev;
    else refuse(`rules.${rule}: ${sev}`);
  }
  for (const [conf, d] of Object.entries(layer.decisions ?? {}) as [Confidence, Decision][]) {
    if (DECISION_RANK[d] >= DECISION_RANK[base.decisions[conf]]) out.decisions[conf] = d;
    else refuse(`decisions.${conf}: ${d}`);
  }
  if (layer.unanalyzable !== undefined) {
    if (DECISION_RANK[layer.unanalyzable] >= DECISION_RANK[base.unanalyzable]) out.unanalyzable = layer.unanalyzable;
    else refuse(`unanalyzable: ${layer.unanalyzable}`);
  }
  if (layer.protect?.length) out.protect = [...base.protect, ...layer.protect];
  // Enforcement: the worktree's file may only require bubblewrap where the default would use it.
  if (layer.enforce !== undefined && layer.enforce !== base.enforce) {
    if (layer.enforce === 'bwrap' && base.enforce === 'auto') out.enforce = 'bwrap';
    else refuse(`enforce: ${layer.enforce}`);
  }
  if (layer.unixSockets === 'block') out.unixSockets = 'block';
  else if (layer.unixSockets === 'allow' && base.unixSockets !== 'allow') refuse('unixSockets: allow');
  if (layer.landlockWorktree === 'held') out.landlockWorktree = 'held';
  else if (layer.landlockWorktree === 'whole' && base.landlockWorktree !== 'whole') refuse('landlockWorktree: whole');
  return out;
}

export { ConfigError };
