/**
 * The engine front-ends share: find the layout around a cwd, load config, analyze, evaluate.
 * `hook`, `check`, `explain` and `lint` only format what this returns.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { discoverLayout } from './layout/discover.js';
import type { Layout } from './layout/types.js';
import { analyzeWith, type AnalysisResult } from './analyze.js';
import type { BashParser } from './parse/index.js';
import { evaluate, scratchRoots, type PolicyContext, type Verdict } from './policy/policy.js';
import { loadConfig, type Config } from './policy/config.js';
import { nodeFs, resolvePhysical, type PhysicalFs } from './policy/physical.js';
import { normalizeLogical, isInside } from './interpret/paths.js';
import type { Host } from './interpret/interpreter.js';
import type { WriteEffect } from './effects/types.js';

export interface Scope {
  /** Why the guard is not enforcing here (plain checkout, not a checkout), or null when it is. */
  skipped: string | null;
  root: string | null;
  layout: Layout | null;
  config: Config;
}

export interface GuardEnv {
  env: Record<string, string | undefined>;
  fs?: PhysicalFs;
}

const MAX_SOURCE_BYTES = 64 * 1024;

export const nodeHost: Host = {
  realpath(p) {
    try {
      return realpathSync(p);
    } catch {
      return null;
    }
  },
  stat(p) {
    try {
      const s = statSync(p);
      return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other';
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : null;
    }
  },
  readFile(p) {
    try {
      if (statSync(p).size > MAX_SOURCE_BYTES) return null;
      return readFileSync(p, 'utf8');
    } catch {
      return null;
    }
  },
};

/**
 * Finds what to enforce around `cwd`: in a linked worktree, its root; in a plain checkout or
 * outside git, nothing unless config says so. Config errors throw ConfigError.
 */
export function scopeFor(cwd: string, env: Record<string, string | undefined>): Scope {
  const found = discoverLayout(cwd);
  if (!found.ok) {
    const config = loadConfig(null, env);
    if (config.source && config.writeRoots.length > 0) {
      return { skipped: null, root: config.writeRoots[0]!, layout: null, config: { ...config, writeRoots: config.writeRoots.slice(1) } };
    }
    return { skipped: found.reason === 'not-a-checkout' ? 'not inside a git checkout' : `git files unreadable: ${found.message}`, root: null, layout: null, config };
  }
  const layout = found.layout;
  const root = layout.current.root;
  const config = loadConfig(root, env);
  if (!root) return { skipped: 'inside a bare repository', root: null, layout, config };
  if (layout.current.kind !== 'linked-worktree' && !config.enforceInPlainCheckout && config.source === null) {
    return { skipped: 'in a plain checkout (not a linked worktree); nothing to enforce', root, layout, config };
  }
  if (layout.current.kind !== 'linked-worktree' && !config.enforceInPlainCheckout) {
    return { skipped: 'in a plain checkout and enforceInPlainCheckout is false', root, layout, config };
  }
  return { skipped: null, root, layout, config };
}

export function policyContext(scope: Scope, env: Record<string, string | undefined>, fs: PhysicalFs = nodeFs): PolicyContext {
  return { root: scope.root!, layout: scope.layout, writeRoots: scratchRoots(env), config: scope.config, fs };
}

export interface CommandCheck {
  scope: Scope;
  analysis: AnalysisResult | null;
  verdict: Verdict;
}

/** Analyzes a Bash command run from `cwd` and decides. */
export function checkCommand(parser: BashParser, command: string, cwd: string, genv: GuardEnv, scope = scopeFor(cwd, genv.env)): CommandCheck {
  const env = { HOME: genv.env.HOME, TMPDIR: genv.env.TMPDIR, USER: genv.env.USER, PWD: cwd, OLDPWD: genv.env.OLDPWD };
  const analysis = analyzeWith(parser, command, {
    cwd,
    env,
    host: nodeHost,
    gitToplevel: (dir) => (scope.layout && scope.root && isInside(dir, scope.root) ? scope.root : null),
  });
  if (scope.skipped) return { scope, analysis, verdict: { decision: 'allow', findings: [] } };
  const verdict = evaluate(analysis.effects, policyContext(scope, genv.env, genv.fs));
  return { scope, analysis, verdict };
}

/** The Edit/Write/MultiEdit/NotebookEdit check: one write to `path`. */
export function checkPath(path: string, cwd: string, tool: string, genv: GuardEnv, scope = scopeFor(cwd, genv.env)): { scope: Scope; verdict: Verdict; resolved: string } {
  const abs = normalizeLogical(path.startsWith('/') ? path : `${cwd}/${path}`);
  const resolved = resolvePhysical(path.startsWith('/') ? path : `${cwd}/${path}`, genv.fs ?? nodeFs);
  if (scope.skipped) return { scope, verdict: { decision: 'allow', findings: [] }, resolved };
  const range = { start: 0, end: path.length, line: 1, column: 1, endLine: 1, endColumn: path.length + 1 };
  const effect: WriteEffect = {
    kind: 'write',
    op: 'write',
    path: abs,
    text: path,
    subtree: false,
    confidence: 'certain',
    cwd: null,
    command: tool,
    via: [],
    range,
    evidence: [{ range, note: `${tool} targets ${path}` }],
  };
  return { scope, verdict: evaluate([effect], policyContext(scope, genv.env, genv.fs)), resolved };
}

