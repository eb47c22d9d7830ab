/**
 * Worktree layout discovery by reading git's own files, the way git's setup code does, without
 * spawning git. Called by the hook on every tool call, so it sticks to a handful of syscalls:
 * roughly 10 for a checkout plus 2 per linked worktree of the repository.
 *
 * Behaviour:
 * - Discovery walks up from realpath(dir). At each level it checks `<d>/.git` (a gitfile or a
 *   git directory), then whether `<d>` itself is a git directory (bare repo, or inside a `.git`).
 *   A `.git` directory that is not a valid git dir (no HEAD, no objects) is skipped, as git does;
 *   a `.git` *file* that is garbage or points nowhere stops the walk with `unreadable`, as git
 *   dies with "invalid gitfile format" / "not a git repository" there.
 * - A gitdir whose parent is `<common>/worktrees` is a linked worktree; its root is the directory
 *   holding the `.git` file, and the common config's core.worktree / core.bare are ignored for it
 *   (git ignores them when the gitdir has a `commondir` file).
 * - Any other gitdir (a `.git` directory, `--separate-git-dir`, a submodule's `.git/modules/x`) is
 *   a plain checkout of kind 'main', and is its own repository's main checkout. Its root honours
 *   core.worktree (relative to the git dir), and core.bare = true makes it kind 'bare' (root null,
 *   main null).
 * - From a linked worktree the main root is: null if core.bare = true; core.worktree if set; the
 *   parent of the common dir if that is named `.git`; otherwise the common dir itself (what
 *   `git worktree list` prints, e.g. for `--separate-git-dir` repos where the main work tree is
 *   not recorded anywhere). Unlike `git worktree list`, core.worktree is honoured (so submodules
 *   with linked worktrees get their real main root).
 * - dir inside a bare repository (or inside a linked worktree admin dir of one): ok, with
 *   current = the bare repo (kind 'bare', root null, gitDir = commonDir), main null, and every
 *   linked worktree as a sibling.
 * - dir inside the git dir of a non-bare repository (e.g. `<main>/.git/objects`,
 *   `<main>/.git/worktrees/b1`, `<super>/.git/modules/sub`): `not-a-checkout`, like git, which
 *   has no work tree there. Callers that need to classify such paths should use
 *   `checkoutContaining` on the layout of the agent's own directory (a path under `<main>/.git`
 *   is inside the main root).
 * - Siblings come from `<common>/worktrees/<name>/gitdir`; entries without a readable gitdir file
 *   are skipped (git skips them too). Relative paths there (worktree.useRelativePaths) are
 *   resolved against the admin dir. Roots whose directory is gone are kept, normalized.
 * - A `dir` that does not exist is resolved through its nearest existing ancestor.
 * - Not modelled: GIT_DIR / GIT_WORK_TREE / GIT_CEILING_DIRECTORIES / GIT_DISCOVERY_ACROSS_FILESYSTEM
 *   environment variables, config `include`s, per-worktree `config.worktree` of linked worktrees.
 */
// Named imports: `import * as` of a builtin becomes a copy of all its ~100 properties in the
// hook's CommonJS bundle (esbuild's __toESM), in every hook process.
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { readRegularFileOrThrow } from '../../util/safe-read.js';
import { join, sep } from 'node:path';
import type { Checkout, DiscoveryResult, Layout } from './types.js';
// Paths under directories that are already normalized (realpaths) are concatenated; see src/util/under.ts.
import { nativeIO, statName } from '../../runtime/index.js';
import { baseOf, parentOf, resolveFrom, resolvePath, under } from '../../util/under.js';

/** What discovery needs of a stat result. */
export interface LayoutStat {
  isFile(): boolean;
  isDirectory(): boolean;
}

/**
 * The filesystem calls discovery makes. Every method may throw; a thrown error with code
 * ENOENT / ENOTDIR means "absent", anything else (EACCES, EIO, ...) means "exists but unreadable".
 */
export interface LayoutFs {
  /** File contents as UTF-8. */
  readFile(path: string): string;
  /** stat (following symlinks); null/undefined when the path does not exist. */
  stat(path: string): LayoutStat | null | undefined;
  /** Canonical absolute path with symlinks resolved; throws when the path does not exist. */
  realpath(path: string): string;
  /** Entry names of a directory. */
  readdir(path: string): string[];
}

const KINDS = {
  file: { isFile: () => true, isDirectory: () => false },
  directory: { isFile: () => false, isDirectory: () => true },
  other: { isFile: () => false, isDirectory: () => false },
} satisfies Record<string, LayoutStat>;

/**
 * stat through bashguard's addon where it is built (src/util/native-io.ts: one system call, and no
 * Node fs function run cold in the hook's fresh process): undefined when nothing is there
 * (ENOENT, ENOTDIR: absent, as for LayoutFs); an error is left to Node's statSync, which throws it
 * with its code.
 */
function statFollowing(path: string): LayoutStat | undefined {
  const native = nativeIO();
  const name = native ? statName(native.statKind(path, true)) : 'error';
  if (name === 'error') return statSync(path, { throwIfNoEntry: false });
  return name === 'missing' ? undefined : KINDS[name];
}

/** The default LayoutFs, on synchronous node:fs. */
export const nodeLayoutFs: LayoutFs = {
  // (a FIFO or a device at `.git` or `gitdir` must not block the hook: src/util/safe-read.ts)
  readFile: (path) => readRegularFileOrThrow(path, { maxBytes: 1024 * 1024 }),
  stat: statFollowing,
  realpath: (path) => realpathSync.native(path),
  readdir: (path) => readdirSync(path),
};

/** True when `path` is `root` or below it, comparing whole path components. Both absolute, normalized. */
export function isInside(path: string, root: string): boolean {
  if (path === root) return true;
  const prefix = root.endsWith(sep) ? root : root + sep;
  return path.startsWith(prefix);
}

/**
 * The checkout of `layout` whose root contains `path` (longest root wins, so a worktree nested in
 * the main checkout beats the main checkout). `path` should be absolute and realpath'd by the
 * caller (it is only normalized here). Checkouts without a root (bare) never match. When the
 * current checkout is the main checkout, the role is 'current'.
 */
export function checkoutContaining(
  layout: Layout,
  path: string,
): { checkout: Checkout; role: 'current' | 'main' | 'sibling' } | null {
  const p = resolvePath(path);
  let best: { checkout: Checkout; role: 'current' | 'main' | 'sibling' } | null = null;
  let bestLen = -1;
  const consider = (checkout: Checkout | null, role: 'current' | 'main' | 'sibling'): void => {
    if (!checkout || checkout.root === null) return;
    // Strictly longer only: candidates are considered current, main, siblings, so ties keep the earlier role.
    if (checkout.root.length > bestLen && isInside(p, checkout.root)) {
      best = { checkout, role };
      bestLen = checkout.root.length;
    }
  };
  consider(layout.current, 'current');
  consider(layout.main, 'main');
  for (const s of layout.siblings) consider(s, 'sibling');
  return best;
}

class Unreadable extends Error {}

/** Find the layout around `dir`. Never throws. */
export function discoverLayout(dir: string, fs: LayoutFs = nodeLayoutFs): DiscoveryResult {
  try {
    return new Discovery(fs).run(dir);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { ok: false, reason: 'unreadable', message: oneLine(message) };
  }
}

function oneLine(s: string): string {
  return s.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

function errCode(e: unknown): string | undefined {
  if (typeof e === 'object' && e !== null && 'code' in e) {
    const code = (e as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

function isAbsent(e: unknown): boolean {
  const code = errCode(e);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function describe(e: unknown): string {
  return oneLine(e instanceof Error ? e.message : String(e));
}

function stripNewlines(s: string): string {
  return s.replace(/[\r\n]+$/, '');
}

interface GitConfig {
  bare: boolean | undefined;
  worktree: string | undefined;
}

class Discovery {
  constructor(private readonly fs: LayoutFs) {}

  run(dir: string): DiscoveryResult {
    const start = this.realpathExisting(resolvePath(dir));
    for (let d = start; ; ) {
      const dotGit = under(d, '.git');
      const st = this.statQuiet(dotGit);
      if (st?.isFile()) return this.fromGitFile(d, dotGit);
      if (st?.isDirectory() && this.isGitDirectory(dotGit)) return this.fromGitDir(d, dotGit);
      if (this.isGitDirectory(d)) return this.fromInsideGitDir(d);
      const up = parentOf(d);
      if (up === d) break;
      d = up;
    }
    return { ok: false, reason: 'not-a-checkout', message: `no git checkout at or above ${start}` };
  }

  // ---- filesystem helpers -------------------------------------------------------------------

  private statQuiet(path: string): LayoutStat | null {
    try {
      return this.fs.stat(path) ?? null;
    } catch {
      return null;
    }
  }

  /** Contents of an optional file: null when absent; Unreadable when present but unreadable. */
  private readOptional(path: string): string | null {
    try {
      return this.fs.readFile(path);
    } catch (e) {
      if (isAbsent(e)) return null;
      throw new Unreadable(`cannot read ${path}: ${describe(e)}`);
    }
  }

  private realpathOrThrow(path: string, what: string): string {
    try {
      return this.fs.realpath(path);
    } catch (e) {
      throw new Unreadable(`${what} ${path} ${isAbsent(e) ? 'does not exist' : `cannot be resolved: ${describe(e)}`}`);
    }
  }

  /** realpath when the path exists, else the normalized path as given. */
  private realpathOrNormalized(path: string): string {
    try {
      return this.fs.realpath(path);
    } catch {
      return resolvePath(path);
    }
  }

  /** realpath of the nearest existing ancestor, with the missing tail re-attached. */
  private realpathExisting(abs: string): string {
    const tail: string[] = [];
    for (let p = abs; ; ) {
      try {
        const real = this.fs.realpath(p);
        return tail.length ? join(real, ...tail.reverse()) : real;
      } catch {
        const up = parentOf(p);
        if (up === p) return abs;
        tail.push(baseOf(p));
        p = up;
      }
    }
  }

  /** git's is_git_directory, cheaply: a HEAD file, and either a commondir file or an objects dir. */
  private isGitDirectory(path: string): boolean {
    if (!this.statQuiet(under(path, 'HEAD'))?.isFile()) return false;
    if (this.statQuiet(under(path, 'commondir'))?.isFile()) return true;
    return this.statQuiet(under(path, 'objects'))?.isDirectory() ?? false;
  }

  // ---- discovery branches -------------------------------------------------------------------

  /** `<d>/.git` is a file: `gitdir: <path>`, relative to `d`. */
  private fromGitFile(d: string, dotGit: string): DiscoveryResult {
    let text: string;
    try {
      text = this.fs.readFile(dotGit);
    } catch (e) {
      throw new Unreadable(`cannot read ${dotGit}: ${describe(e)}`);
    }
    const line = stripNewlines(text.split('\n', 1)[0] ?? '');
    if (!line.startsWith('gitdir: ') || line.length === 'gitdir: '.length) {
      throw new Unreadable(`invalid gitfile format: ${dotGit}`);
    }
    const target = resolveFrom(d, line.slice('gitdir: '.length));
    if (!this.isGitDirectory(target)) throw new Unreadable(`${dotGit} points at ${target}, which is not a git directory`);
    return this.fromGitDir(d, target, true);
  }

  /** `d` holds `.git` (a dir, or a file pointing at `gitDirPath`). */
  private fromGitDir(d: string, gitDirPath: string, viaGitFile = false): DiscoveryResult {
    const gitDir = this.realpathOrThrow(gitDirPath, 'git dir');
    const commonRaw = this.readOptional(under(gitDir, 'commondir'));
    const commonDir =
      commonRaw === null ? gitDir : this.realpathOrThrow(resolveFrom(gitDir, stripNewlines(commonRaw)), 'common dir');
    // A gitfile leading to `<repo>/worktrees/<name>` is a linked worktree of <repo> (git worktree
    // add writes `../..` there): a `commondir` that is missing or leads elsewhere was changed after
    // the fact, and would make this worktree look like a checkout of its own, where nothing is
    // enforced. Broken: a person repairs it (git worktree repair).
    const holder = parentOf(parentOf(gitDir));
    if (viaGitFile && baseOf(parentOf(gitDir)) === 'worktrees' && commonDir !== holder && this.isGitDirectory(holder)) {
      throw new Unreadable(`${under(gitDir, 'commondir')} ${commonRaw === null ? 'is missing' : `leads to ${commonDir}`}, not to ${holder}, the repository whose worktrees/ holds this worktree's git dir`);
    }

    if (commonRaw !== null && parentOf(gitDir) === under(commonDir, 'worktrees')) {
      const current: Checkout = { kind: 'linked-worktree', root: d, gitDir, commonDir, name: baseOf(gitDir) };
      const main = this.mainOf(commonDir, this.readConfig(commonDir));
      return this.layout(current, main);
    }

    if (commonRaw !== null) {
      // Has a commondir but is not under <common>/worktrees: git ignores core.bare/core.worktree here.
      const current: Checkout = { kind: 'main', root: d, gitDir, commonDir, name: null };
      return this.layout(current, current);
    }

    const cfg = this.readConfig(gitDir);
    if (cfg.bare === true) {
      const current: Checkout = { kind: 'bare', root: null, gitDir, commonDir, name: null };
      return this.layout(current, null);
    }
    const root = cfg.worktree !== undefined ? this.realpathOrNormalized(resolvePath(gitDir, cfg.worktree)) : d;
    const current: Checkout = { kind: 'main', root, gitDir, commonDir, name: null };
    return this.layout(current, current);
  }

  /** `d` is itself a git directory (found without a `.git`): a bare repo, or inside some `.git`. */
  private fromInsideGitDir(d: string): DiscoveryResult {
    const commonRaw = this.readOptional(under(d, 'commondir'));
    const commonDir =
      commonRaw === null ? d : this.realpathOrThrow(resolveFrom(d, stripNewlines(commonRaw)), 'common dir');
    const cfg = this.readConfig(commonDir);
    const bare = cfg.bare ?? (cfg.worktree === undefined && baseOf(commonDir) !== '.git');
    if (!bare || cfg.worktree !== undefined) {
      return {
        ok: false,
        reason: 'not-a-checkout',
        message: `${d} is inside the git dir ${commonDir}, not a work tree`,
      };
    }
    const current: Checkout = { kind: 'bare', root: null, gitDir: commonDir, commonDir, name: null };
    return this.layout(current, null);
  }

  /** The main checkout of the repository whose common dir is `commonDir`, seen from a linked worktree. */
  private mainOf(commonDir: string, cfg: GitConfig): Checkout | null {
    if (cfg.bare === true) return null;
    let root: string;
    if (cfg.worktree !== undefined) root = this.realpathOrNormalized(resolvePath(commonDir, cfg.worktree));
    else if (baseOf(commonDir) === '.git') root = parentOf(commonDir);
    else root = commonDir; // what `git worktree list` reports when the main work tree is unrecorded
    return { kind: 'main', root, gitDir: commonDir, commonDir, name: null };
  }

  private layout(current: Checkout, main: Checkout | null): DiscoveryResult {
    const siblings = this.linkedWorktrees(current.commonDir).filter(
      (s) => s.gitDir !== current.gitDir && s.root !== current.root && (main === null || s.root !== main.root),
    );
    return { ok: true, layout: { current, main, siblings } };
  }

  /** Every `<common>/worktrees/<name>` with a readable gitdir file, sorted by name. */
  private linkedWorktrees(commonDir: string): Checkout[] {
    const adminRoot = under(commonDir, 'worktrees');
    let names: string[];
    try {
      names = this.fs.readdir(adminRoot);
    } catch {
      return [];
    }
    const out: Checkout[] = [];
    for (const name of [...names].sort()) {
      const adminDir = under(adminRoot, name);
      let text: string;
      try {
        text = this.fs.readFile(under(adminDir, 'gitdir'));
      } catch {
        continue; // not an admin dir, or no gitdir file: git skips these too
      }
      const written = text.trim();
      if (!written) continue;
      const dotGit = resolveFrom(adminDir, written);
      const rootPath = baseOf(dotGit) === '.git' ? parentOf(dotGit) : dotGit;
      out.push({
        kind: 'linked-worktree',
        root: this.realpathOrNormalized(rootPath),
        gitDir: adminDir,
        commonDir,
        name,
      });
    }
    return out;
  }

  /** core.bare, core.worktree and extensions.worktreeConfig of `<gitDir>/config` (+ config.worktree). */
  private readConfig(gitDir: string): GitConfig {
    const text = this.readOptional(under(gitDir, 'config'));
    const values = text === null ? new Map<string, string | true>() : parseGitConfig(text);
    const worktreeConfig = configBool(values.get('extensions.worktreeconfig')) === true;
    if (worktreeConfig) {
      const extra = this.readOptional(under(gitDir, 'config.worktree'));
      if (extra !== null) for (const [k, v] of parseGitConfig(extra)) values.set(k, v);
    }
    const wt = values.get('core.worktree');
    return {
      bare: configBool(values.get('core.bare')),
      worktree: typeof wt === 'string' && wt !== '' ? wt : undefined,
    };
  }
}

/** git's boolean parsing; undefined when unset or not a boolean. A bare key (`[core] bare`) is true. */
function configBool(v: string | true | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  if (v === true) return true;
  const s = v.trim().toLowerCase();
  if (s === 'true' || s === 'yes' || s === 'on') return true;
  if (s === 'false' || s === 'no' || s === 'off' || s === '') return false;
  if (/^[-+]?\d+$/.test(s)) return Number(s) !== 0;
  return undefined;
}

/**
 * Minimal git config parser: `section.key` (lowercased) -> last value, for sections without a
 * subsection only (`[core]`, not `[remote "x"]`). Handles comments, quotes, escapes, line
 * continuations and keys without `=` (value true). Includes are not followed.
 */
export function parseGitConfig(text: string): Map<string, string | true> {
  const out = new Map<string, string | true>();
  let section: string | null = null;
  const n = text.length;
  let i = 0;
  const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\r';
  const skipLine = (): void => {
    while (i < n && text[i] !== '\n') i++;
    i++;
  };
  // Sticky patterns for the common runs (whitespace, a key, a plain value): a character loop is
  // slow in the cold interpreter every hook process starts with.
  const blank = /[ \t\r\n]*/y;
  const keyChars = /[A-Za-z0-9-]*/y;
  const plainValue = /[ \t\r]*([^"\\#;\n\r]*?)[ \t\r]*(?=\n|$)/y;
  while (i < n) {
    blank.lastIndex = i;
    blank.exec(text);
    i = blank.lastIndex;
    if (i >= n) break;
    const c = text[i];
    if (c === '#' || c === ';') {
      skipLine();
      continue;
    }
    if (c === '[') {
      const close = text.indexOf(']', i);
      const nl = text.indexOf('\n', i);
      if (close < 0 || (nl >= 0 && nl < close)) {
        section = null;
        skipLine();
        continue;
      }
      const header = text.slice(i + 1, close).trim();
      const m = /^([A-Za-z0-9.-]+)(\s+".*")?$/.exec(header);
      // Invalid headers, subsections ([remote "x"]) and old-style [a.b] are not plain sections:
      // null makes their keys ignored.
      section = m?.[1] !== undefined && m[2] === undefined && !m[1].includes('.') ? m[1].toLowerCase() : null;
      i = close + 1;
      continue; // the rest of the line may hold a key, parsed by the next iteration
    }
    // key [= value]
    const keyStart = i;
    keyChars.lastIndex = i;
    keyChars.exec(text);
    i = keyChars.lastIndex;
    const key = text.slice(keyStart, i).toLowerCase();
    if (!key) {
      skipLine();
      continue;
    }
    while (i < n && isSpace(text[i])) i++;
    let value: string | true = true;
    if (text[i] === '=') {
      i++;
      plainValue.lastIndex = i;
      const plain = plainValue.exec(text);
      if (plain) {
        // No quote, escape or comment on the line: the value is the text, trimmed.
        if (section !== null) out.set(`${section}.${key}`, plain[1]!);
        i = plainValue.lastIndex;
        skipLine();
        continue;
      }
      let v = '';
      let quoted = false;
      let pendingSpace = '';
      for (; i < n; i++) {
        const ch = text[i] as string;
        if (ch === '\n') break; // end of value (inside quotes git errors; keep what we have)
        if (!quoted && (ch === '#' || ch === ';')) {
          while (i < n && text[i] !== '\n') i++;
          break;
        }
        if (!quoted && isSpace(ch)) {
          if (v !== '') pendingSpace += ch === '\r' ? '' : ch;
          continue;
        }
        if (ch === '"') {
          v += pendingSpace;
          pendingSpace = '';
          quoted = !quoted;
          continue;
        }
        if (ch === '\\') {
          const nx = text[i + 1];
          i++;
          if (nx === '\n') continue; // line continuation
          if (nx === '\r' && text[i + 1] === '\n') {
            i++;
            continue;
          }
          v += pendingSpace;
          pendingSpace = '';
          if (nx === 'n') v += '\n';
          else if (nx === 't') v += '\t';
          else if (nx === 'b') v = v.slice(0, -1);
          else if (nx !== undefined) v += nx;
          continue;
        }
        v += pendingSpace + ch;
        pendingSpace = '';
      }
      value = v;
    } else if (text[i] === '#' || text[i] === ';') {
      while (i < n && text[i] !== '\n') i++;
    }
    if (section !== null) out.set(`${section}.${key}`, value);
    skipLine();
  }
  return out;
}
