/**
 * The one workspace model every front end and layer uses (issue #14): opened from a directory, it
 * holds the layout (read from git's files), the trusted configuration, the write roots and the
 * protected regions, and answers `classify(path)`, `judgeWrite(path)` and `check(command)`.
 * `hook`, `check`/`explain`, `lint`, the corpus runner, the library and the layers around the hook
 * (env, sandbox, audit, prompt) all start here; none assembles its own scope.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../util/package-root.js';
import { discoverLayout, nodeLayoutFs, type LayoutFs } from '../layout/discover.js';
import type { Layout } from '../layout/types.js';
import { analyzeWith, type AnalysisResult } from '../../engine/analyze.js';
import type { BashParser } from '../../engine/parse/index.js';
import { evaluate, type PolicyContext, type Verdict } from '../policy.js';
import { DEFAULT_CONFIG, type Config } from '../config.js';
import { cachedFs, nodeFs, resolvePhysical, type PhysicalFs } from '../physical.js';
import { displayPath, isInside, normalizeLogical } from '../../engine/shell/paths.js';
import { under } from '../../util/under.js';
import type { Host } from '../../engine/interpret/interpreter.js';
import type { WriteEffect } from '../../engine/effects/types.js';
import { configFiles, loadTrustedConfig, userConfigFile, type Env } from './config.js';
import { buildRegions, classify, scratchRoots, type Region } from '../regions.js';
import { nodeHost } from './host.js';
import { gitFileStates } from './git-state.js';
import { decisionLogDir } from './state-dirs.js';
import { cacheLocation } from '../../runtime/index.js';
import { toolCacheRoots } from '../write-roots.js';

/** How the write root was chosen (lint reports it). */
export type RootSource = 'linked-worktree' | 'checkout' | 'option' | 'script-dir' | 'config';

export interface WorkspaceOptions {
  /** The environment of the hook / orchestrator: HOME, TMPDIR, XDG_CONFIG_HOME, BASHGUARD_CONFIG. Passed explicitly. */
  env: Env;
  /** Physical file system for symlink resolution (default: the real disk). */
  fs?: PhysicalFs;
  /** Host for the interpreter (realpath, sourced files; default: the real disk). */
  host?: Host;
  /** File system for layout discovery (default: the real disk). */
  layoutFs?: LayoutFs;
  /** A fixed write root instead of the checkout's (lint --root). */
  root?: string;
  /**
   * Enforce everywhere, as lint does: in a plain checkout its root is the write root, and outside
   * any checkout the directory itself is. The hook enforces only in linked worktrees (or where the
   * trusted config says `enforceInPlainCheckout`).
   */
  enforceEverywhere?: boolean;
  /** Use this configuration instead of loading the trusted files (corpus cases, tests, lint --norc). */
  config?: Config;
  /** Lint: `.bashguard.json` files from the root down to this directory apply too (nearest last). */
  nestedDir?: string;
}

export interface CommandCheck {
  workspace: Workspace;
  analysis: AnalysisResult | null;
  verdict: Verdict;
}

/** Files that control the guard or an agent client, protected by BG1005 (relative to a checkout root or HOME). */
const CHECKOUT_CONTROL = ['.bashguard.json', '.claude/settings.json', '.claude/settings.local.json', '.claude/hooks', '.codex/hooks.json', '.codex/config.toml', '.codex/rules', '.gemini/settings.json', '.cursor/hooks.json', '.github/hooks'];
const HOME_CONTROL = ['.claude/settings.json', '.claude/settings.local.json', '.claude/hooks', '.codex/hooks.json', '.codex/config.toml', '.codex/rules', '.gemini/settings.json', '.cursor/hooks.json'];
/**
 * What Codex reads as configuration in its home (`$CODEX_HOME`, default `~/.codex`): its hooks
 * (`hooks.json`, and `[hooks]` tables with their trust state in `config.toml`), its config
 * (sandbox mode, approval policy, `[features] hooks`) and its exec-policy rules (`rules/*.rules`,
 * `default.rules`). Sources: developers.openai.com/codex/hooks ("Codex discovers hooks next to
 * active config layers": hooks.json or inline [hooks] in config.toml), /codex/config-advanced,
 * and the 0.169.0 binary (`CODEX_HOME` resolution; `rules`, `default.rules`, `hooks.json`).
 */
const CODEX_HOME_CONTROL = ['hooks.json', 'config.toml', 'rules'];

export class Workspace {
  /** Why the guard does not enforce here (plain checkout, not a checkout), or null when it does. */
  readonly skipped: string | null;
  /** Where writes are allowed (realpath'd), or null when there is none. */
  readonly root: string | null;
  readonly rootSource: RootSource | null;
  readonly regions: Region[];
  readonly fs: PhysicalFs;
  readonly host: Host;
  /**
   * Set when the git files around `cwd` are broken in a way the agent could have caused: a `.git`
   * file that is garbage or points nowhere, or a directory git has registered as a linked worktree
   * whose `.git` file is gone or no longer points at its admin dir. The hook denies then.
   */
  broken: string | null = null;
  /**
   * Config files the environment named (BASHGUARD_CONFIG, XDG_CONFIG_HOME) that were ignored
   * because the agent can write them, one line each: `doctor` fails on them.
   */
  ignoredConfigs: string[] = [];
  /** Replaces the `git status` probe of control files (tests, in-memory scenarios). */
  gitFileStates?: PolicyContext['gitFileStates'];

  constructor(
    /** The directory the workspace was opened from. */
    readonly cwd: string,
    readonly layout: Layout | null,
    root: { path: string; source: RootSource } | null,
    readonly config: Config,
    /** What the untrusted worktree config tried to loosen, one line each. */
    readonly notices: string[],
    skipped: string | null,
    readonly env: Env,
    opts: Pick<WorkspaceOptions, 'fs' | 'host'> = {},
  ) {
    this.root = root?.path ?? null;
    this.rootSource = root?.source ?? null;
    this.skipped = skipped;
    this.fs = opts.fs ?? nodeFs;
    this.host = opts.host ?? nodeHost;
    this.regions = this.root
      ? buildRegions({ root: this.root, layout, scratch: scratchRoots(env), writeRoots: config.writeRoots, caches: toolCacheRoots(env), protect: this.protectedFiles(), ownBranch: this.ownBranch(), home: env.HOME?.startsWith('/') ? resolvePhysical(normalizeLogical(env.HOME), this.fs) : null })
      : [];
  }

  /** The branch a linked worktree's HEAD names, or null (detached, unreadable, a name git would refuse). */
  private ownBranch(): string | null {
    const c = this.layout?.current;
    if (c?.kind !== 'linked-worktree') return null;
    const head = this.host.readFile?.(`${c.gitDir}/HEAD`) ?? null;
    const m = head === null ? null : /^ref: refs\/heads\/(\S+)\s*$/.exec(head);
    return m && !m[1]!.split('/').some((p) => p === '' || p === '.' || p === '..') ? m[1]! : null;
  }

  /** Every protected file: agent-client settings and hooks, bashguard's config, `protect` entries. */
  private protectedFiles(): { path: string; why: string }[] {
    const out: { path: string; why: string }[] = [];
    const roots = new Set<string>();
    if (this.root) roots.add(this.root);
    if (this.layout?.main?.root) roots.add(this.layout.main.root);
    for (const r of roots) for (const f of CHECKOUT_CONTROL) out.push({ path: under(normalizeLogical(r), f), why: 'a file that controls the guard or the agent client' });
    if (this.env.HOME?.startsWith('/')) {
      const home = normalizeLogical(this.env.HOME);
      for (const f of HOME_CONTROL) out.push({ path: under(home, f), why: "a user-level agent client's settings" });
    }
    // Codex reads its user layer from $CODEX_HOME when that is set (the hook inherits Codex's
    // environment); ~/.codex above stays protected for the sessions started without it.
    if (this.env.CODEX_HOME?.startsWith('/')) {
      const codexHome = normalizeLogical(this.env.CODEX_HOME);
      for (const f of CODEX_HOME_CONTROL) out.push({ path: under(codexHome, f), why: "Codex's configuration in $CODEX_HOME (hooks, config, rules)" });
    }
    const user = userConfigFile(this.env);
    if (user) out.push({ path: normalizeLogical(user + '/..'), why: "bashguard's user configuration" });
    if (this.env.BASHGUARD_CONFIG?.startsWith('/')) out.push({ path: normalizeLogical(this.env.BASHGUARD_CONFIG), why: "bashguard's configuration (BASHGUARD_CONFIG)" });
    const logDir = decisionLogDir(this.env);
    if (logDir) out.push({ path: normalizeLogical(logDir), why: "bashguard's decision log" });
    // Bytecode planted in the code cache would run inside the hook (its checks stop stale and
    // damaged files, not crafted ones written by the same user).
    const codeCache = cacheLocation(this.env);
    if (codeCache) out.push({ path: codeCache, why: "bashguard's code cache (bytecode the hook runs)" });
    // The files that make this directory a linked worktree: without them discovery finds the main
    // checkout around it, where the hook has nothing to enforce.
    const cur = this.layout?.current;
    if (cur?.kind === 'linked-worktree' && cur.root) {
      out.push({ path: under(normalizeLogical(cur.root), '.git'), why: "the worktree's link to its repository (.git file)" });
      for (const f of ['gitdir', 'commondir']) out.push({ path: under(normalizeLogical(cur.gitDir), f), why: "the worktree's registration in the repository" });
    }
    for (const p of this.config.protect) out.push({ path: p, why: 'a path the configuration protects' });
    return out;
  }

  /** The same workspace with another configuration (lint's per-glob overrides). */
  withConfig(config: Config): Workspace {
    return new Workspace(this.cwd, this.layout, this.root ? { path: this.root, source: this.rootSource! } : null, config, this.notices, this.skipped, this.env, { fs: this.fs, host: this.host });
  }

  /** The policy's view of this workspace, or null when there is no root. */
  policy(fs: PhysicalFs = this.fs): PolicyContext | null {
    if (!this.root) return null;
    // The context on the workspace's own file system is the same for every check: built once.
    if (fs === this.fs && this.ownPolicy) return this.ownPolicy;
    const ctx: PolicyContext = {
      root: this.root,
      layout: this.layout,
      regions: this.regions,
      config: this.config,
      fs,
      gitFileStates: this.gitFileStates ?? ((root, paths) => gitFileStates(root, paths, this.env)),
      physicalRegions: () => this.physicalRegions(fs),
      checkedOut: (name) => this.checkedOut(name),
      ...(fs === nodeFs ? { inodeOwner: (dev: number, ino: number) => this.inodeOwner(dev, ino), protectedDevices: () => this.protectedDevices() } : {}),
    };
    if (fs === this.fs) this.ownPolicy = ctx;
    return ctx;
  }
  private ownPolicy: PolicyContext | null = null;

  private imaged: { fs: PhysicalFs; regions: Region[] } | null = null;

  /**
   * The regions with, for every protected one, its physical image where its path runs through a
   * symlink (src/policy/policy.ts PolicyContext.physicalRegions), and the installed package. Read
   * from the disk at the first write judged (hook time), then kept.
   */
  physicalRegions(fs: PhysicalFs = this.fs): Region[] {
    if (this.imaged && this.imaged.fs === fs) return this.imaged.regions;
    const disk = cachedFs(fs, fs === nodeFs ? [this.root, this.layout?.current.gitDir, this.layout?.current.commonDir, this.layout?.main?.root] : []);
    const out = [...this.regions];
    const have = new Set(this.regions.filter((r) => r.kind === 'protected').map((r) => r.root));
    const extra: Region[] = [];
    for (const r of this.regions) {
      if (r.kind !== 'protected') continue;
      const image = resolvePhysical(r.root, disk);
      if (image !== r.root && !image.includes('\u0000') && !have.has(image)) {
        have.add(image);
        extra.push({ ...r, root: image, why: `${r.why ?? 'a protected file'} (${r.root} resolves there through a symlink)` });
      }
    }
    // The installed package (its code is what the hook runs) and the node running it, where they
    // lie in a place the agent may write (a worktree's node_modules, a scratch dir). Not when the
    // package holds the worktree (developing bashguard in a worktree of its own).
    if (fs === nodeFs && this.root) {
      for (const { path, real, why } of ownCode(this.host)) {
        if (isInside(this.root, path)) continue;
        for (const p of new Set([path, real])) if (!have.has(p)) extra.push({ kind: 'protected', root: p, why });
      }
    }
    const regions = extra.length === 0 ? this.regions : [...out, ...extra];
    this.imaged = { fs, regions };
    return regions;
  }

  private inodes: Map<string, { path: string; region: Region }> | null = null;

  /** The protected file with this inode (control files, files in protected directories, the shared git config and hooks). */
  inodeOwner(dev: number, ino: number): { path: string; region: Region } | null {
    if (!this.inodes) {
      const map = new Map<string, { path: string; region: Region }>();
      const note = (path: string, region: Region, depth: number) => {
        let st;
        try {
          st = statSync(path, { throwIfNoEntry: false });
        } catch {
          return;
        }
        if (!st) return;
        if (st.isFile()) {
          const key = `${st.dev}:${st.ino}`;
          if (!map.has(key)) map.set(key, { path, region });
        } else if (st.isDirectory() && depth < 2) {
          let names: string[] = [];
          try {
            names = readdirSync(path).slice(0, 256);
          } catch {
            return;
          }
          for (const n of names) note(`${path}/${n}`, region, depth + 1);
        }
      };
      for (const r of this.physicalRegions(nodeFs)) {
        // The installed package is too large to list; its files are written only from outside it.
        if (r.kind === 'protected' && !r.why?.startsWith("bashguard's installed package") && r.root !== process.execPath) note(r.root, r, 0);
        else if (r.kind === 'git-dir' && (r.detail === 'config' || r.detail === 'hooks')) note(r.root, r, 1);
      }
      this.inodes = map;
    }
    return this.inodes.get(`${dev}:${ino}`) ?? null;
  }

  private devices: Set<number> | null = null;

  /** st_dev of the main checkout and of each sibling worktree. */
  protectedDevices(): Set<number> {
    if (!this.devices) {
      this.devices = new Set();
      for (const r of this.regions) {
        if (r.kind !== 'main' && r.kind !== 'sibling') continue;
        try {
          const st = statSync(r.root, { throwIfNoEntry: false });
          if (st) this.devices.add(st.dev);
        } catch {
          // gone: nothing to compare with
        }
      }
    }
    return this.devices;
  }
  /** Which checkout has local branch `name` checked out (read from each checkout's HEAD, once). */
  checkedOut(name: string): string | null | undefined {
    if (!this.branches) {
      const map = new Map<string, string>();
      let unknown = false;
      const l = this.layout;
      for (const c of l ? [l.current, ...(l.main ? [l.main] : []), ...l.siblings] : []) {
        if (!c.root) continue;
        const head = this.host.readFile?.(`${c.gitDir}/HEAD`) ?? null;
        const m = head === null ? null : /^ref: refs\/heads\/(.+?)\s*$/.exec(head);
        if (head === null) unknown = true;
        else if (m && !map.has(m[1]!)) map.set(m[1]!, c.root);
      }
      this.branches = { map, unknown };
    }
    return this.branches.map.get(name) ?? (this.branches.unknown ? undefined : null);
  }
  private branches: { map: Map<string, string>; unknown: boolean } | null = null;

  /** The region a path is in, after physical resolution (symlinks as the kernel follows them). */
  classify(path: string): Region {
    return classify(resolvePhysical(path.startsWith('/') ? path : join(this.cwd, path), this.fs), this.root ? this.physicalRegions() : this.regions);
  }

  /** The config files read for this workspace (for doctor): trusted or not. */
  configFiles(): { file: string; trusted: boolean }[] {
    return configFiles({ env: this.env, projectRoot: projectRootOf(this.layout), worktreeRoot: this.layout?.current.kind === 'linked-worktree' ? this.layout.current.root : null });
  }

  /** The repository root that `git rev-parse --show-toplevel` gives from `dir`, as far as this workspace knows. */
  gitToplevel(dir: string): string | null {
    return this.layout && this.root && isInside(dir, this.root) ? this.root : null;
  }

  /** Analyzes a Bash command run from `cwd` (default: where the workspace was opened) and decides. */
  check(parser: BashParser, command: string, opts: { cwd?: string; budgetMs?: number; env?: Env; commandTraces?: boolean; deterministic?: boolean; maxSteps?: number; file?: string; everyFunction?: boolean; sourceHints?: { at: Map<number, string>; dirs: string[] }; knownEnv?: readonly string[] } = {}): CommandCheck {
    const cwd = opts.cwd ?? this.cwd;
    const env = opts.env ? { ...analysisEnv(this.env), PWD: cwd, ...opts.env } : this.commandEnv(cwd);
    const analysis = analyzeWith(parser, command, { cwd, env, host: this.host, gitToplevel: this.boundGitToplevel, budgetMs: opts.budgetMs, commandTraces: opts.commandTraces, deterministic: opts.deterministic, maxSteps: opts.maxSteps, file: opts.file, everyFunction: opts.everyFunction, sourceHints: opts.sourceHints, knownEnv: opts.knownEnv });
    const policy = this.policy();
    if (this.skipped || !policy) return { workspace: this, analysis, verdict: { decision: 'allow', findings: [] } };
    return { workspace: this, analysis, verdict: evaluate(analysis.effects, policy) };
  }

  private lastEnv: { cwd: string; env: Env } | null = null;
  private readonly boundGitToplevel = (dir: string): string | null => this.gitToplevel(dir);

  /**
   * What a command run from `cwd` inherits (`analysisEnv` plus PWD), built once per cwd (the
   * spreads cost ~2% of a check) from the workspace's environment, which, like its regions, is
   * read as it was when the workspace was opened. Frozen: the interpreter then also builds its
   * variables once (Interpreter#initialState).
   */
  private commandEnv(cwd: string): Env {
    const last = this.lastEnv;
    if (last && last.cwd === cwd) return last.env;
    const env = Object.freeze({ ...analysisEnv(this.env), PWD: cwd });
    this.lastEnv = { cwd, env };
    return env;
  }

  /** The Edit/Write/MultiEdit/NotebookEdit check: one write by `tool` to `path`. */
  judgeWrite(path: string, opts: { tool?: string; cwd?: string } = {}): { verdict: Verdict; resolved: string } {
    const tool = opts.tool ?? 'Write';
    const cwd = opts.cwd ?? this.cwd;
    const full = path.startsWith('/') ? path : `${cwd}/${path}`;
    const physical = resolvePhysical(full, this.fs);
    // (through /proc/<pid>/cwd, physical.ts: an unknown stretch, shown as such)
    const resolved = physical.includes('\u0000') ? displayPath(physical) : physical;
    const policy = this.policy();
    if (this.skipped || !policy) return { verdict: { decision: 'allow', findings: [] }, resolved };
    return { verdict: evaluate([toolWriteEffect(normalizeLogical(full), path, tool)], policy), resolved };
  }
}

/**
 * The variables of the hook's environment that the command inherits and that move its effects:
 * where `~` and `cd` go, scratch dirs, and the repository git acts on (an orchestrator that gives
 * its builder `GIT_DIR`/`GIT_WORK_TREE`, see `bashguard env`, gives them to the hook too).
 */
const ANALYSIS_ENV = ['HOME', 'TMPDIR', 'USER', 'OLDPWD', 'CDPATH', 'GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_CEILING_DIRECTORIES', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME',
  // What `git X` runs for a name git.ts does not classify (src/engine/commands/git-resolve.ts).
  'PATH', 'GIT_EXEC_PATH', 'GIT_COMMON_DIR', 'GIT_CONFIG', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT', 'GIT_DISCOVERY_ACROSS_FILESYSTEM'];

function analysisEnv(env: Env): Env {
  const out: Env = {};
  for (const k of ANALYSIS_ENV) if (env[k] !== undefined) out[k] = env[k];
  return out;
}

/** The write effect of a file tool (Edit/Write/...) targeting `path` (`text` as the agent wrote it). */
export function toolWriteEffect(abs: string, text: string, tool: string): WriteEffect {
  const range = { start: 0, end: text.length, line: 1, column: 1, endLine: 1, endColumn: text.length + 1 };
  return { kind: 'write', op: 'write', path: abs, text, subtree: false, confidence: 'certain', cwd: null, command: tool, via: [], range, evidence: [{ range, note: `${tool} targets ${text}` }] };
}

function withIgnored(ws: Workspace, ignored: string[]): Workspace {
  ws.ignoredConfigs = ignored;
  return ws;
}

let ownCodeCache: { path: string; real: string; why: string }[] | null = null;

/** The installed package and the node running it, as given and realpath'd (the same for the whole process). */
function ownCode(host: Host): { path: string; real: string; why: string }[] {
  if (ownCodeCache) return ownCodeCache;
  const out: { path: string; real: string; why: string }[] = [];
  for (const [path, why] of [[installedPackage(), "bashguard's installed package (the hook's code)"], [process.execPath, 'the node that runs the hook']] as const) {
    if (path) out.push({ path, real: host.realpath?.(path) ?? path, why });
  }
  return (ownCodeCache = out);
}

/** The installed package's root, or null where it cannot be found. */
function installedPackage(): string | null {
  try {
    return packageRoot();
  } catch {
    return null;
  }
}

/** The checkout whose `.bashguard.json` is trusted: the main checkout (never a linked worktree). */
function projectRootOf(layout: Layout | null): string | null {
  if (!layout) return null;
  return layout.current.kind === 'linked-worktree' ? (layout.main?.root ?? null) : layout.current.root;
}

/**
 * Opens the workspace around `cwd`. Throws ConfigError for an invalid or unreadable config file
 * (the hook answers that with ask: the agent may have caused it).
 */
export function openWorkspace(cwd: string, opts: WorkspaceOptions): Workspace {
  const found = discoverLayout(cwd, opts.layoutFs ?? nodeLayoutFs);
  const layout = found.ok ? found.layout : null;
  const linked = layout?.current.kind === 'linked-worktree' ? layout.current.root : null;
  // With a fixed root (lint --root), that directory's `.bashguard.json` is the project's.
  const fixedRoot = opts.root ? realpathOr(opts.root, opts.host) : null;
  const loaded = opts.config
    ? { config: opts.config, notices: [] }
    : loadTrustedConfig({
        env: opts.env,
        projectRoot: fixedRoot ?? (layout ? projectRootOf(layout) : opts.enforceEverywhere ? realpathOr(cwd, opts.host) : null),
        worktreeRoot: fixedRoot ? null : linked,
        nestedDir: opts.nestedDir,
      });
  const { config, notices } = loaded;
  const ignored = 'ignored' in loaded ? (loaded.ignored ?? []) : [];
  const make = (root: { path: string; source: RootSource } | null, skipped: string | null, l: Layout | null = layout) =>
    withIgnored(new Workspace(cwd, l, root, config, notices, skipped, opts.env, opts), ignored);
  if (fixedRoot) {
    const path = fixedRoot;
    // The layout only when the root is a checkout root itself; a directory inside one is its own island.
    return make({ path, source: 'option' }, null, layout && layout.current.root === path ? layout : null);
  }
  if (!found.ok) {
    if (opts.enforceEverywhere) return make({ path: realpathOr(cwd, opts.host), source: 'script-dir' }, null);
    if (config.source && config.writeRoots.length > 0) {
      // Outside any checkout, a trusted config's first write root is the root (orchestrators without git).
      return withIgnored(new Workspace(cwd, null, { path: config.writeRoots[0]!, source: 'config' }, { ...config, writeRoots: config.writeRoots.slice(1) }, notices, null, opts.env, opts), ignored);
    }
    const ws = make(null, found.reason === 'not-a-checkout' ? 'not inside a git checkout' : `git files unreadable: ${found.message}`);
    if (found.reason === 'unreadable') ws.broken = `the git files around ${cwd} are unreadable or invalid (${found.message})`;
    return ws;
  }
  const l = found.layout;
  const lost = lostWorktree(l, realpathOr(cwd, opts.host));
  if (lost && !fixedRoot && !opts.enforceEverywhere) {
    const ws = make(null, `inside ${lost}, a registered linked worktree whose .git file is missing or does not point at its admin dir`);
    ws.broken = `${lost} is registered as a linked worktree of ${l.current.commonDir}, but its .git file is missing or points elsewhere`;
    return ws;
  }
  const root = l.current.root;
  if (!root) return make(null, 'inside a bare repository');
  const source: RootSource = l.current.kind === 'linked-worktree' ? 'linked-worktree' : 'checkout';
  if (l.current.kind !== 'linked-worktree' && !config.enforceInPlainCheckout && !opts.enforceEverywhere) {
    return make({ path: root, source }, config.source === null ? 'in a plain checkout (not a linked worktree); nothing to enforce' : 'in a plain checkout and enforceInPlainCheckout is false');
  }
  return make({ path: root, source }, null);
}

/**
 * The root of a registered linked worktree (a sibling in the layout) that holds `dir` more closely
 * than the checkout discovery found: its `.git` file was deleted or rewritten, so discovery walked
 * past it (to the main checkout around it) or took it for a checkout of its own.
 */
function lostWorktree(l: Layout, dir: string): string | null {
  if (l.current.kind === 'linked-worktree') return null;
  const here = l.current.root ?? '';
  // A `.git` file rewritten to name the main repository's `.git` directory: a "checkout" nested in
  // the main checkout whose git dir is the main one's.
  const natural = l.current.gitDir.endsWith('/.git') ? l.current.gitDir.slice(0, -'/.git'.length) : null;
  if (natural && here && here !== natural && isInside(here, natural)) return here;
  for (const s of l.siblings) {
    if (s.root && s.root.length > here.length && isInside(dir, s.root)) return s.root;
  }
  return null;
}

/** A workspace over a layout given as data (the standard scenario, corpus cases, rule examples). */
export function workspaceFromLayout(layout: Layout | null, cwd: string, opts: WorkspaceOptions & { config: Config }): Workspace {
  const config = opts.config ?? DEFAULT_CONFIG;
  if (!layout || !layout.current.root) return new Workspace(cwd, layout, null, config, [], 'not inside a git checkout', opts.env, opts);
  const skipped = layout.current.kind !== 'linked-worktree' && !config.enforceInPlainCheckout ? 'in a plain checkout (not a linked worktree)' : null;
  return new Workspace(cwd, layout, { path: layout.current.root, source: layout.current.kind === 'linked-worktree' ? 'linked-worktree' : 'checkout' }, config, [], skipped, opts.env, opts);
}

function realpathOr(p: string, host?: Host): string {
  return (host ?? nodeHost).realpath?.(p) ?? p;
}
