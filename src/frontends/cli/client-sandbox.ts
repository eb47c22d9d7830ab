/**
 * `install --enforce client`: Claude Code's own sandbox as the OS enforcement of every Bash call
 * (issue #38; on macOS the only one, where bashguard has no wrapper). Install writes the `sandbox`
 * block into the user or managed settings, merged into what is there, sets `"enforce": "client"`
 * in bashguard's user config, and records exactly what it added (`client-sandbox.json` beside that
 * config, a directory the agent cannot write), so that `uninstall` removes that and nothing else.
 *
 * What this relies on in Claude Code 2.1.330 (the shipped linux-x64 binary; schema texts quoted
 * from its settings schema, the rest checked with the real client in `-p` mode as root and by
 * test/system/e2e/client-sandbox.e2e.test.ts):
 * - `enabled`: "Run Bash commands inside the sandbox. Default: false." On Linux it runs each
 *   command under bubblewrap with `--ro-bind / /` and binds writable only the session's cwd, its
 *   own TMPDIR (`$TMPDIR/claude-<uid>`, exported as TMPDIR to the command), `~/.npm/_logs`, the
 *   shared git dir (so commits of a linked worktree work; its siblings' admin dirs stay
 *   read-only), and `filesystem.allowWrite`. So the main checkout that holds the worktree, the
 *   sibling worktrees, HOME and /tmp are read-only by construction ("read-only file system").
 * - `failIfUnavailable`: "Exit with an error at startup if sandbox.enabled is true but the sandbox
 *   cannot start (missing dependencies or unsupported platform). When false (default), a warning
 *   is shown and commands run unsandboxed." (Without socat the client refused to start: "sandbox
 *   required but unavailable: ... socat not installed".)
 * - `allowUnsandboxedCommands`: "When false, the dangerouslyDisableSandbox parameter is completely
 *   ignored and all commands must run sandboxed. Default: true. A false in managed, --settings or
 *   user settings holds whatever project settings (.claude/settings.json and
 *   .claude/settings.local.json) say". The hook denies such a call anyway.
 * - `filesystem.denyWrite` / `allowWrite`: "Additional paths to deny [allow] writing within the
 *   sandbox", merged across settings sources; a deny inside an allowed directory wins (checked:
 *   `~/.cache` allowed, `~/.cache/bashguard` denied, is read-only). Paths are absolute here.
 * - The mandatory denies (the `allowNestedUserNamespaces` text: "the paths the sandbox always
 *   write-protects (such as .claude/settings.json, git hooks and git config)"): in the bwrap
 *   arguments, the cwd's `.claude/` (settings.json, settings.local.json, hooks, skills, agents,
 *   commands ...), `.mcp.json`, the cwd's shell rc files, `.gitconfig`, `.gitmodules`, the shared
 *   git dir's `hooks/`, `config`, `info/`, `objects/info/` and every linked worktree's `gitdir`,
 *   `commondir` and `config.worktree`. Not denied: the shared git dir's `HEAD`, `index`, `refs/`,
 *   `packed-refs` and `logs/` (the main checkout's HEAD and index can be rewritten).
 * - network: `allowedDomains` "Domains sandboxed commands may reach without a prompt (wildcards
 *   such as *.example.com supported)". Commands get no network of their own (`--unshare-net`) and
 *   reach the outside through the client's proxy (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY ... set in
 *   their environment); with no domain allowed, a `-p` session refuses every host ("Connection
 *   blocked by network allowlist", "deny network-outbound registry.npmjs.org:443 (user denied)"),
 *   so `npm install` from a registry fails. `"allowedDomains": ["*"]` lets every host through the
 *   proxy (checked: registry.npmjs.org answered 200, a loopback server answered through it).
 *   Programs that ignore the proxy variables (Node's built-in fetch) have no network, and a
 *   server started by one call cannot be reached from the next (each call has its own loopback).
 * - layers: project settings override user settings. Unless managed settings or `--settings` set
 *   `allowUnsandboxedCommands: false`, a project `.claude/settings.local.json` with
 *   `"sandbox": {"enabled": false}` or a wider `filesystem.allowWrite` takes effect (checked: the
 *   write to the main checkout then landed); with managed settings (or `--settings`) holding it,
 *   it does not ("When managed settings or a --settings file set allowUnsandboxedCommands: false
 *   ..., values from project settings are ignored"). The agent cannot write those files itself
 *   (the sandbox's mandatory denies for Bash, BG1005 for Edit/Write); one already there is
 *   reported by `doctor`.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { userConfigFile } from '../../policy/workspace/config.js';
import { decisionLogDir } from '../../policy/workspace/state-dirs.js';
import { cacheLocation } from '../../runtime/index.js';
import { packageRoot } from '../../util/package-root.js';
import { readRegularFile } from '../../util/safe-read.js';
import { UsageError, type IO } from '../io.js';

type Json = Record<string, unknown>;

/** The scalar settings install sets under `sandbox`, with their values. */
const SCALARS = { enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false } as const;

/** What install added to one settings file: each scalar with the value it replaced (absent: none), each list entry. */
export interface SandboxAdded {
  scalars: Partial<Record<keyof typeof SCALARS, { previous?: unknown }>>;
  denyWrite: string[];
  allowWrite: string[];
  allowedDomains: string[];
}

/** The record kept beside the user config: per settings file what was added, and the config's `enforce` before. */
interface Record_ {
  settings: Record<string, SandboxAdded>;
  config?: { file: string; previous?: unknown };
}

/**
 * The paths the enforcement keeps read-only that are known at install time: Claude Code's user
 * directory and state file, bashguard's config, log and code cache directories, the installed
 * package, and the files git and the client's shell read outside the sandbox. HOME is read-only in
 * Claude Code's sandbox already; the entries hold also where an `allowWrite` (ours for caches, or
 * the user's) opens a directory around them.
 */
export function sandboxDenyWrite(env: IO['env']): string[] {
  const home = env.HOME?.startsWith('/') ? env.HOME : null;
  const out: string[] = [];
  const claudeDir = env.CLAUDE_CONFIG_DIR?.startsWith('/') ? env.CLAUDE_CONFIG_DIR : home ? join(home, '.claude') : null;
  if (claudeDir) out.push(claudeDir);
  if (home) out.push(join(home, '.claude.json'));
  const config = userConfigFile(env);
  if (config?.startsWith('/')) out.push(dirname(config));
  const log = decisionLogDir(env);
  if (log) out.push(log);
  const cache = cacheLocation(env);
  if (cache) out.push(cache);
  try {
    out.push(packageRoot());
  } catch {
    // no package root (never in an installed copy)
  }
  if (home) {
    const xdg = env.XDG_CONFIG_HOME?.startsWith('/') ? env.XDG_CONFIG_HOME : join(home, '.config');
    out.push(join(home, '.gitconfig'), join(xdg, 'git'));
    for (const f of ['.bashrc', '.bash_profile', '.bash_login', '.profile', '.zshenv', '.zshrc', '.zprofile', '.zlogin']) out.push(join(env.ZDOTDIR?.startsWith('/') && f.startsWith('.z') ? env.ZDOTDIR : home, f));
  }
  return [...new Set(out)];
}

/** The caches that package managers write in HOME (npm's cache, ~/.cache for pip, yarn, node-gyp, go): writable, so installs work. */
export function sandboxAllowWrite(env: IO['env']): string[] {
  const home = env.HOME?.startsWith('/') ? env.HOME : null;
  if (!home) return [];
  const cache = env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : join(home, '.cache');
  return [join(home, '.npm'), cache];
}

/** Every host, through Claude Code's proxy (see the file comment). */
export const ALLOWED_DOMAINS = ['*'];

function obj(v: unknown): Json | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;
}

/**
 * Settings with the sandbox block merged in, and what was added. Keeps every other key and entry.
 * For the managed settings (written by root for every user) the paths in the installer's HOME are
 * written `~/...`: the client expands `~` to the home of the user it runs as (the schema: paths are
 * "absolute, ~ expanded, or relative to the settings file root"; checked: `~/.npm` in allowWrite
 * and `~/.cache/bashguard` in denyWrite held).
 */
export function mergeSandbox(settings: Json, env: IO['env'], scope: 'user' | 'managed' = 'user'): { settings: Json; added: SandboxAdded } {
  const home = env.HOME?.startsWith('/') ? env.HOME.replace(/\/+$/, '') : '';
  const spell = (p: string) => (scope === 'managed' && home !== '' && p.startsWith(home + '/') ? `~${p.slice(home.length)}` : p);
  const had = obj(settings.sandbox);
  if (settings.sandbox !== undefined && !had) throw new UsageError('"sandbox" in the settings is not an object; not changing it');
  const sandbox: Json = { ...(had ?? {}) };
  const added: SandboxAdded = { scalars: {}, denyWrite: [], allowWrite: [], allowedDomains: [] };
  for (const [k, v] of Object.entries(SCALARS) as [keyof typeof SCALARS, boolean][]) {
    if (sandbox[k] === v) continue;
    added.scalars[k] = k in sandbox ? { previous: sandbox[k] } : {};
    sandbox[k] = v;
  }
  const list = (parent: string, key: 'denyWrite' | 'allowWrite' | 'allowedDomains', want: string[]) => {
    const p = obj(sandbox[parent]);
    if (sandbox[parent] !== undefined && !p) throw new UsageError(`"sandbox.${parent}" in the settings is not an object; not changing it`);
    const cur = p?.[key];
    if (cur !== undefined && !(Array.isArray(cur) && cur.every((x) => typeof x === 'string'))) throw new UsageError(`"sandbox.${parent}.${key}" in the settings is not a list of strings; not changing it`);
    const have = (cur as string[] | undefined) ?? [];
    const missing = want.filter((w) => !have.includes(w));
    if (missing.length === 0) return;
    added[key].push(...missing);
    sandbox[parent] = { ...(p ?? {}), [key]: [...have, ...missing] };
  };
  list('filesystem', 'denyWrite', sandboxDenyWrite(env).map(spell));
  list('filesystem', 'allowWrite', sandboxAllowWrite(env).map(spell));
  list('network', 'allowedDomains', ALLOWED_DOMAINS);
  return { settings: { ...settings, sandbox }, added };
}

/** Settings with exactly what `added` recorded taken out again (a value changed since stays). */
export function removeSandbox(settings: Json, added: SandboxAdded): Json {
  const had = obj(settings.sandbox);
  if (!had) return settings;
  const sandbox: Json = { ...had };
  for (const [k, rec] of Object.entries(added.scalars) as [keyof typeof SCALARS, { previous?: unknown }][]) {
    if (sandbox[k] !== SCALARS[k]) continue;
    if ('previous' in rec) sandbox[k] = rec.previous;
    else delete sandbox[k];
  }
  const list = (parent: string, key: 'denyWrite' | 'allowWrite' | 'allowedDomains') => {
    const p = obj(sandbox[parent]);
    const cur = p?.[key];
    if (!p || !Array.isArray(cur)) return;
    const left = cur.filter((x) => !added[key].includes(x as string));
    const next: Json = { ...p, [key]: left };
    if (left.length === 0) delete next[key];
    if (Object.keys(next).length === 0) delete sandbox[parent];
    else sandbox[parent] = next;
  };
  list('filesystem', 'denyWrite');
  list('filesystem', 'allowWrite');
  list('network', 'allowedDomains');
  const out = { ...settings, sandbox };
  if (Object.keys(sandbox).length === 0) delete (out as Json).sandbox;
  return out;
}

/** The record's file: beside the user config (`$XDG_CONFIG_HOME/bashguard/client-sandbox.json`). */
export function recordFile(env: IO['env']): string {
  const config = userConfigFile(env);
  if (!config?.startsWith('/')) throw new UsageError("neither XDG_CONFIG_HOME nor HOME is set: no place for bashguard's config (\"enforce\": \"client\")");
  return join(dirname(config), 'client-sandbox.json');
}

function readJson(file: string): Json | null {
  if (!existsSync(file)) return null;
  const r = readRegularFile(file);
  if (!r.ok) throw new UsageError(`${r.message}; not changing it`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(r.text);
  } catch (err) {
    throw new UsageError(`${file}: not valid JSON (${(err as Error).message}); not changing it`);
  }
  const o = obj(parsed);
  if (!o) throw new UsageError(`${file}: the top level is not a JSON object; not changing it`);
  return o;
}

function writeJson(file: string, value: Json): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.bashguard-${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n');
  renameSync(tmp, file);
}

function readRecord(env: IO['env']): Record_ {
  const r = readJson(recordFile(env));
  return { settings: (obj(r?.settings) as Record<string, SandboxAdded> | null) ?? {}, ...(obj(r?.config) ? { config: r!.config as Record_['config'] } : {}) };
}

/**
 * After the settings file is written: records what was added to it (merged with an earlier
 * install's record for the same file) and sets `"enforce": "client"` in bashguard's user config.
 * Returns the lines install prints.
 */
export function recordSandboxInstall(env: IO['env'], settingsFile: string, added: SandboxAdded): string[] {
  const rec = readRecord(env);
  const old = rec.settings[settingsFile];
  rec.settings[settingsFile] = old
    ? { scalars: { ...added.scalars, ...old.scalars }, denyWrite: [...old.denyWrite, ...added.denyWrite], allowWrite: [...old.allowWrite, ...added.allowWrite], allowedDomains: [...old.allowedDomains, ...added.allowedDomains] }
    : added;
  const lines: string[] = [];
  const configFile = userConfigFile(env)!;
  const config = readJson(configFile) ?? {};
  if (config.enforce !== 'client') {
    if (!rec.config) rec.config = { file: configFile, ...('enforce' in config ? { previous: config.enforce } : {}) };
    writeJson(configFile, { ...config, enforce: 'client' });
    lines.push(`set "enforce": "client" in ${configFile}${'enforce' in config ? ` (was ${JSON.stringify(config.enforce)})` : ''}`);
  }
  writeJson(recordFile(env), rec as unknown as Json);
  return lines;
}

/** Uninstall: takes out of `settings` what install recorded for `settingsFile`; `done` then forgets it and restores the config. */
export function sandboxUninstall(env: IO['env'], settingsFile: string, settings: Json): { settings: Json; done: () => string[] } | null {
  let rec: Record_;
  try {
    rec = readRecord(env);
  } catch {
    return null;
  }
  const added = rec.settings[settingsFile];
  if (!added) return null;
  return {
    settings: removeSandbox(settings, added),
    done: () => {
      delete rec.settings[settingsFile];
      const lines = [`removed the sandbox settings install added to ${settingsFile}`];
      if (Object.keys(rec.settings).length === 0) {
        // The last one: `enforce` back to what it was.
        if (rec.config) {
          const config = readJson(rec.config.file) ?? {};
          if (config.enforce === 'client') {
            const next = { ...config };
            if ('previous' in rec.config) next.enforce = rec.config.previous;
            else delete next.enforce;
            if (Object.keys(next).length === 0 && !lstatSync(rec.config.file).isSymbolicLink()) rmSync(rec.config.file, { force: true });
            else writeJson(rec.config.file, next);
            lines.push(`restored "enforce" in ${rec.config.file} (${'previous' in rec.config ? JSON.stringify(rec.config.previous) : 'unset: the default'})`);
          }
        }
        rmSync(recordFile(env), { force: true });
      } else writeJson(recordFile(env), rec as unknown as Json);
      return lines;
    },
  };
}

/** What install prints about the sandbox it set up. */
export function sandboxNotes(scope: 'user' | 'managed'): string[] {
  return [
    "Claude Code's sandbox: every Bash call runs under its bubblewrap (Linux; Seatbelt on macOS), writable only beneath the session's directory, its TMPDIR, the shared git dir, ~/.npm and ~/.cache; bashguard's control paths are denied writing",
    'network: every host through Claude Code\'s proxy ("allowedDomains": ["*"]); programs that ignore HTTP(S)_PROXY (Node\'s built-in fetch) have no network, and a server started in one call is not reachable from the next',
    ...(scope === 'user'
      ? ['note: from user settings, a project\'s .claude/settings.json or settings.local.json can still turn the sandbox off or widen it (Claude Code ignores their sandbox values only when managed settings hold it): `bashguard install --managed --enforce client` (as root) closes that; `bashguard doctor` names such a layer']
      : []),
  ];
}
