/**
 * `bashguard doctor --agent codex`: which mechanism holds the line for the Bash calls of a Codex
 * session started in this directory, from what can be checked here: the hook file (install-agents.ts),
 * Codex's config layers, and a trial run of bashguard's wrapper (src/layers/sandbox/enforce.ts
 * `enforcementStatus`). Codex facts relied on (0.169.0):
 * - its home is `$CODEX_HOME`, else ~/.codex; the user layer is `<home>/config.toml`, the system
 *   one /etc/codex/config.toml, and in a trusted project every `.codex/config.toml` from the project
 *   root down to the working directory, the closest winning (developers.openai.com/codex/config-advanced,
 *   /codex/config-reference); command-line `--sandbox`, `-c key=value` and `--profile` override
 *   them all, which no file shows;
 * - `sandbox_mode` is `read-only`, `workspace-write` or `danger-full-access` (the binary's
 *   ConfigToml keys: `sandbox_mode`, `sandbox_workspace_write`, `approval_policy`); in the first
 *   two Codex runs each command in its own bubblewrap, where a second one cannot start (see
 *   src/frontends/hook/clients/codex.ts: the wrapped command then runs a held check);
 * - hooks are on by default and `[features] hooks = false` (alias `codex_hooks`) turns them off,
 *   in a config layer or in requirements.toml (developers.openai.com/codex/hooks: "Hooks are
 *   enabled by default"; `codex features list` on 0.169.0: `hooks  stable  true`);
 * - a hook that is not managed runs only once reviewed and trusted (`[hooks.state."<key>"]
 *   trusted_hash` in the user config.toml, written by the /hooks review), or when the session is
 *   started with `--dangerously-bypass-hook-trust`; `codex exec` skips an untrusted hook silently.
 */
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { IO } from '../io.js';
import { readRegularFile } from '../../util/safe-read.js';
import { openWorkspace } from '../../policy/workspace/index.js';
import { clientShell, enforcementPlan, enforcementStatus, findBwrap } from '../../layers/sandbox/enforce.js';

export type TomlValue = string | boolean | number | string[];

/**
 * The `key = value` pairs of a TOML file that doctor needs, as `table.key` paths (`sandbox_mode`,
 * `features.hooks`, `hooks.state."<k>".trusted_hash`): strings, booleans, numbers and one-line
 * arrays of strings. Multi-line strings and arrays are skipped whole (their lines never read as
 * tables or keys); a value of another shape is left out. Not a TOML parser: what it cannot read
 * is absent, and doctor says "not set" only of keys it can read.
 */
export function readTomlKeys(text: string): Map<string, TomlValue> {
  const out = new Map<string, TomlValue>();
  let table = '';
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = stripComment(lines[i]!).trim();
    if (line === '') continue;
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(line);
    if (header) {
      table = keyPath(header[1]!) ?? '\0';
      continue;
    }
    const eq = /^((?:"[^"]*"|'[^']*'|[A-Za-z0-9_.\- ])+?)\s*=\s*(.*)$/.exec(line);
    if (!eq) continue;
    const key = keyPath(eq[1]!);
    let raw = eq[2]!;
    // Skip a multi-line string or array to its end.
    for (const q of ['"""', "'''"]) {
      if (raw.startsWith(q) && raw.indexOf(q, 3) < 0) {
        while (i + 1 < lines.length && !lines[++i]!.includes(q));
        raw = '';
      }
    }
    if (raw.startsWith('[') && depth(raw) > 0) {
      let d = depth(raw);
      while (d > 0 && i + 1 < lines.length) d += depth(stripComment(lines[++i]!));
      continue;
    }
    const v = value(raw);
    if (key !== null && v !== undefined && table !== '\0') out.set(table ? `${table}.${key}` : key, v);
  }
  return out;
}

function stripComment(line: string): string {
  let q: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (q) {
      if (c === '\\' && q === '"') i++;
      else if (c === q) q = null;
    } else if (c === '"' || c === "'") q = c;
    else if (c === '#') return line.slice(0, i);
  }
  return line;
}

/** Brackets opened minus closed outside strings. */
function depth(s: string): number {
  let d = 0;
  let q: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (q) {
      if (c === '\\' && q === '"') i++;
      else if (c === q) q = null;
    } else if (c === '"' || c === "'") q = c;
    else if (c === '[') d++;
    else if (c === ']') d--;
  }
  return d;
}

/** A dotted key as one path with quoted parts kept quoted (`hooks.state."a.b"`), or null. */
function keyPath(k: string): string | null {
  const part = `(?:"(?:[^"\\\\]|\\\\.)*"|'[^']*'|[A-Za-z0-9_-]+)`;
  if (!new RegExp(`^\\s*${part}(?:\\s*\\.\\s*${part})*\\s*$`).test(k)) return null;
  const parts = k.match(new RegExp(part, 'g'))!;
  return parts.map((p) => (p.startsWith("'") ? `"${p.slice(1, -1)}"` : p)).join('.');
}

function value(raw: string): TomlValue | undefined {
  const s = raw.trim();
  if (s === 'true' || s === 'false') return s === 'true';
  if (/^-?\d+$/.test(s)) return Number(s);
  const str = /^"((?:[^"\\]|\\.)*)"$/.exec(s) ?? /^'([^']*)'$/.exec(s);
  if (str) return s.startsWith('"') ? str[1]!.replace(/\\(["\\])/g, '$1') : str[1]!;
  if (s.startsWith('[') && s.endsWith(']')) {
    const items = s.slice(1, -1).split(',').map((x) => x.trim()).filter((x) => x !== '');
    const vals = items.map(value);
    return vals.every((v): v is string => typeof v === 'string') ? vals : undefined;
  }
  return undefined;
}

export interface CodexLayer {
  scope: 'system' | 'user' | 'project' | 'requirements';
  file: string;
  keys: Map<string, TomlValue> | null;
  /** Why the file could not be read (absent files are simply not listed). */
  problem?: string;
  /** A project layer Codex does not load: why. */
  ignored?: string;
}

/** Codex's home as a session started with this environment sees it, or why there is none. */
export function codexHome(env: IO['env']): { dir: string | null; problem?: string } {
  const set = env.CODEX_HOME;
  if (set !== undefined && set !== '') {
    if (!set.startsWith('/')) return { dir: null, problem: `CODEX_HOME=${set} is not an absolute path: Codex resolves it against its working directory, and bashguard protects only an absolute one` };
    return { dir: set.replace(/\/+$/, '') || '/' };
  }
  return env.HOME ? { dir: join(env.HOME, '.codex') } : { dir: null, problem: 'neither CODEX_HOME nor HOME is set' };
}

/** The config layers a Codex session in `cwd` reads, lowest precedence first (project layers: the closest last). */
export function codexLayers(env: IO['env'], cwd: string, projectRoot: string | null, home: string | null, mainRoot: string | null = null): CodexLayer[] {
  const files: { scope: CodexLayer['scope']; file: string }[] = [{ scope: 'requirements', file: '/etc/codex/requirements.toml' }, { scope: 'system', file: '/etc/codex/config.toml' }];
  if (home) files.push({ scope: 'user', file: join(home, 'config.toml') });
  if (projectRoot) {
    const dirs: string[] = [];
    for (let d = cwd; ; d = dirname(d)) {
      dirs.unshift(d);
      if (d === projectRoot || d === dirname(d)) break;
    }
    if (dirs[0] === projectRoot) for (const d of dirs) files.push({ scope: 'project', file: join(d, '.codex', 'config.toml') });
  }
  const out: CodexLayer[] = [];
  for (const f of files) {
    const r = readRegularFile(f.file);
    if (r.ok) out.push({ ...f, keys: readTomlKeys(r.text) });
    else if (r.code !== 'ENOENT' && r.code !== 'ENOTDIR') out.push({ ...f, keys: null, problem: r.message });
  }
  // Project layers load only in a trusted project: `[projects."<root>"] trust_level = "trusted"`
  // in the user config, keyed by the project's root, and for a linked worktree by its main
  // checkout's (developers.openai.com/codex/config-advanced: "Codex loads project-scoped config
  // files only when the project is trusted"; openai/codex#2585 `resolve_root_git_project_for_trust`
  // maps a worktree to the main repository; #19426: no inheritance from parent directories).
  const user = out.find((l) => l.scope === 'user')?.keys;
  const trust = [projectRoot, mainRoot].filter((r): r is string => r !== null).map((r) => user?.get(`projects."${r}".trust_level`)).find((t) => t !== undefined);
  if (trust !== 'trusted') {
    for (const l of out) if (l.scope === 'project') l.ignored = `not loaded: the project is not trusted (${trust === undefined ? 'no' : `trust_level = ${JSON.stringify(trust)} in the`} [projects] entry for it in ${home ? join(home, 'config.toml') : 'the user config'})`;
  }
  return out;
}

/** The value a key has where Codex would take it (requirements aside): the last config layer that sets it. */
function effective(layers: CodexLayer[], ...keys: string[]): { value: TomlValue; file: string } | null {
  let found: { value: TomlValue; file: string } | null = null;
  for (const l of layers) {
    if (l.scope === 'requirements' || !l.keys || l.ignored) continue;
    for (const k of keys) if (l.keys.has(k)) found = { value: l.keys.get(k)!, file: l.file };
  }
  return found;
}

export interface DoctorLine {
  ok: boolean | null;
  text: string;
}

const SANDBOXED = new Set(['workspace-write', 'read-only']);

/**
 * The Codex lines of `doctor --agent codex`: Codex's home, hooks feature, hook trust, sandbox
 * mode and the enforcement that holds. `hookInstalled`: a bashguard entry with the current command
 * is in a hook file Codex reads (install-agents.ts). `ok: false` lines make doctor fail.
 */
export function codexDoctorLines(io: IO, hookInstalled: boolean): DoctorLine[] {
  const lines: DoctorLine[] = [];
  const home = codexHome(io.env);
  if (home.problem) lines.push({ ok: false, text: `Codex home: ${home.problem}` });
  else lines.push({ ok: true, text: `Codex home: ${home.dir}${io.env.CODEX_HOME ? ' ($CODEX_HOME)' : ''}` });
  let ws: ReturnType<typeof openWorkspace>;
  try {
    ws = openWorkspace(io.cwd, { env: io.env });
  } catch (err) {
    lines.push({ ok: false, text: `config: ${(err as Error).message.split('\n')[0]}` });
    return lines;
  }
  const layers = codexLayers(io.env, io.cwd, ws.layout?.current.root ?? null, home.dir, ws.layout?.main?.root ?? null);
  for (const l of layers) if (l.problem) lines.push({ ok: false, text: `${l.file}: ${l.problem}` });
  for (const l of layers) if (l.ignored && l.keys?.size) lines.push({ ok: null, text: `${l.file}: ${l.ignored}` });

  // The hooks feature: on unless a layer (the closest that says) or the requirements turn it off.
  const req = layers.find((l) => l.scope === 'requirements');
  const forcedOff = req?.keys && (req.keys.get('features.hooks') === false || req.keys.get('features.codex_hooks') === false);
  const feature = effective(layers, 'features.codex_hooks', 'features.hooks');
  const hooksOn = !forcedOff && feature?.value !== false;
  if (forcedOff) lines.push({ ok: false, text: `hooks: off in ${req!.file} ([features] hooks = false): Codex runs no hook, bashguard's included` });
  else if (feature?.value === false) lines.push({ ok: false, text: `hooks: off in ${feature.file} ([features] hooks = false): Codex runs no hook, bashguard's included (a session started with --enable hooks turns them on)` });
  else lines.push({ ok: true, text: `hooks: on (${feature ? `[features] hooks = ${String(feature.value)} in ${feature.file}` : "Codex's default"})` });

  // Trust: recorded by Codex's own review, in a form bashguard does not compute; the count is a fact.
  const user = layers.find((l) => l.scope === 'user');
  const trusted = user?.keys ? [...user.keys.keys()].filter((k) => /^hooks\.state\..+\.trusted_hash$/.test(k)).length : 0;
  lines.push({
    ok: null,
    text: `hook trust: ${trusted} reviewed hook(s) recorded in ${user?.file ?? join(home.dir ?? '~/.codex', 'config.toml')} ([hooks.state] trusted_hash); Codex runs an unreviewed hook only in a session started with --dangerously-bypass-hook-trust (\`codex exec\` skips it silently): review it with /hooks in the Codex TUI`,
  });

  const mode = effective(layers, 'sandbox_mode');
  const modeText = mode ? `sandbox_mode = ${JSON.stringify(mode.value)} in ${mode.file}` : 'sandbox_mode is not set in any config layer read here';
  const override = 'a session started with --sandbox, -c sandbox_mode=..., --profile or --dangerously-bypass-approvals-and-sandbox runs in that mode instead';
  const known = mode === null || (typeof mode.value === 'string' && (SANDBOXED.has(mode.value) || mode.value === 'danger-full-access'));
  lines.push(known ? { ok: null, text: `Codex sandbox: ${modeText} (${override})` } : { ok: false, text: `Codex sandbox: ${modeText}, which is not one of "read-only", "workspace-write", "danger-full-access"` });
  const sandboxed = mode !== null && typeof mode.value === 'string' && SANDBOXED.has(mode.value);

  // The enforcement.
  const hookRuns = hookInstalled && hooksOn;
  const codexOnly = (why: string): DoctorLine =>
    sandboxed
      ? { ok: true, text: `enforcement: Codex's own sandbox only (${modeText}): it keeps everything outside its writable roots read-only; ${why}` }
      : { ok: false, text: `enforcement: none holds for Codex sessions in ${io.cwd}: ${why}, and ${mode ? `${modeText} (no sandbox of Codex's own)` : `${modeText} (nothing says Codex runs its own)`}` };
  if (!hookRuns) {
    lines.push(codexOnly(`bashguard's hook does not run (${!hookInstalled ? 'not installed for Codex, see above' : 'hooks are off'})`));
    return lines;
  }
  const cfgMode = ws.config.enforce;
  const from = ws.config.source ? ` (set in ${ws.config.source})` : '';
  if (cfgMode === 'client') {
    lines.push(sandboxed ? { ok: true, text: `enforcement: Codex's own sandbox ("enforce": "client"${from}; ${modeText})` } : { ok: false, text: `enforcement: none: "enforce": "client"${from} leaves it to Codex's own sandbox, but ${modeText}` });
    return lines;
  }
  if (cfgMode === 'off') {
    lines.push(sandboxed ? { ok: true, text: `enforcement: bashguard's is off${from}; Codex's own sandbox (${modeText}) holds what it covers` } : { ok: true, text: `enforcement: off${from}: the analyzer alone decides; nothing holds the line for what it misses (${modeText})` });
    return lines;
  }
  const s = enforcementStatus(ws, io.env, []);
  if ((!s.ok || s.mechanism === 'none') && (cfgMode === 'bwrap' || cfgMode === 'landlock')) {
    lines.push({ ok: false, text: `enforcement: the configuration requires ${cfgMode === 'bwrap' ? 'bubblewrap' : 'Landlock'} ("enforce": "${cfgMode}"${from}) and it cannot run here: ${s.detail}; the hook refuses every call it would allow (Codex has no "ask")` });
    return lines;
  }
  if (!s.ok || s.mechanism === 'none') {
    lines.push(codexOnly(`bashguard's wrapper cannot run here: ${s.detail}`));
    return lines;
  }
  if (s.mechanism === 'landlock') {
    // No held check for Landlock (src/frontends/decide.ts): rulesets stack, so the same wrapper
    // runs whatever Codex's sandbox mode.
    lines.push({ ok: true, text: `enforcement: ${s.detail}; the same wrapper runs whatever Codex's sandbox mode (Landlock rulesets stack; ${modeText})` });
    return lines;
  }
  if (!mode || typeof mode.value !== 'string') {
    lines.push({ ok: true, text: `enforcement: ${s.detail}. ${modeText}: a session without a sandbox of Codex's own runs each call in the wrapper; one in workspace-write or read-only runs it as Codex does where every path the wrapper keeps read-only is read-only already, else the wrapper, which fails there rather than run unconfined` });
  } else if (mode.value === 'danger-full-access') {
    lines.push({ ok: true, text: `enforcement: ${s.detail}. ${modeText}: Codex runs commands without a sandbox of its own, so the wrapper is what holds` });
  } else {
    lines.push({ ok: true, text: `enforcement: Codex's own sandbox (${modeText}), checked at run time: a second bubblewrap cannot start inside it, so each call runs as Codex runs it where every path bashguard keeps read-only is read-only already, else in the wrapper (${s.detail}), which fails there rather than run unconfined` });
    if (mode.value === 'workspace-write') {
      const open = heldInWritableRoots(ws, io, layers);
      if (open.length) lines.push({ ok: null, text: `warning: ${open.length} path(s) the wrapper keeps read-only lie in Codex's writable roots, where its sandbox lets a command write them: every Bash call then runs the wrapper, which cannot start there, and fails: ${open.slice(0, 4).map((o) => `${o.path} (in ${o.root})`).join(', ')}${open.length > 4 ? ' ...' : ''}` });
    }
  }
  return lines;
}

/**
 * The paths of the held check (src/frontends/decide.ts `heldCheck`: the read-only grants outside
 * the worktree) inside one of Codex's workspace-write roots: the session's working directory,
 * /tmp and $TMPDIR unless `[sandbox_workspace_write] exclude_slash_tmp` /
 * `exclude_tmpdir_env_var`, and its `writable_roots` (developers.openai.com/codex/config-reference,
 * `sandbox_workspace_write.*`).
 */
function heldInWritableRoots(ws: ReturnType<typeof openWorkspace>, io: IO, layers: CodexLayer[]): { path: string; root: string }[] {
  const bwrap = findBwrap(io.env);
  if (!bwrap || !ws.root) return [];
  const key = (k: string) => effective(layers, `sandbox_workspace_write.${k}`)?.value;
  const roots = [io.cwd];
  if (key('exclude_slash_tmp') !== true) roots.push('/tmp');
  if (key('exclude_tmpdir_env_var') !== true && io.env.TMPDIR?.startsWith('/')) roots.push(io.env.TMPDIR);
  const extra = key('writable_roots');
  if (Array.isArray(extra)) roots.push(...extra.filter((r) => r.startsWith('/')));
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return null;
    }
  };
  const realRoots = [...new Set(roots.map(real).filter((r): r is string => r !== null))];
  const root = ws.root;
  const plan = enforcementPlan(ws, bwrap, clientShell(io.env, 'codex'));
  const held = plan.grants.filter((g) => g.access === 'ro' && !g.reserve && !g.pin && g.path !== root && !g.path.startsWith(root + '/')).map((g) => g.path);
  const out: { path: string; root: string }[] = [];
  for (const p of held) {
    const r = realRoots.find((w) => p === w || p.startsWith(w === '/' ? '/' : w + '/'));
    if (r) out.push({ path: p, root: r });
  }
  return out;
}
