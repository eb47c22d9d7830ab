/**
 * What `git X` runs when X is none of the commands git.ts classifies, decided from the machine as
 * it is when the hook runs, the way git itself resolves the name (git.c, run_argv and cmd_main):
 *
 * 1. a builtin (git.ts's table covers every command git ships);
 * 2. else an executable `git-X` in git's exec path or on PATH (execv_dashed_external): an external
 *    git command, which may write anything the repository shares;
 * 3. else `alias.X` from the configuration git reads for the repository (system, global, the
 *    repository's and the worktree's config, their includes, `-c` and GIT_CONFIG_COUNT): `!code` is
 *    shell code git runs from the top-level directory, anything else a git command line
 *    (git-config(1), alias.*: "shell commands will be executed from the top-level directory of a
 *    repository, which may not necessarily be the current directory");
 * 4. else git prints "git: 'X' is not a git command" and exits 1, writing nothing, unless
 *    help.autocorrect makes it run its guess (git-config(1), help.autocorrect: a positive number
 *    of deciseconds, "immediate" or "prompt" run the suggested command; 0, "never" and, in newer
 *    git, "false"/"show" only show it).
 *
 * Every fact comes from the Host (stat and small reads); what the Host cannot answer, what this
 * very command changed before (a write that may reach a file or directory consulted here, a
 * program bashguard does not know, code not known statically, a git command that writes config),
 * and any variable the command sets that moves git's lookup make the answer `unknown`: the caller
 * keeps the closed world's possible finding.
 */
import { HOLE } from '../effects/types.js';
import type { CommandContext, Invocation } from './context.js';
import { dirnameOf, joinPath, normalizeLogical } from '../shell/paths.js';
import type { CwdValue } from '../shell/state.js';

export type GitResolution =
  /** `alias.X`: its value (`!code` or a git command line) and the file that set it. */
  | { kind: 'alias'; value: string; from: string; toplevel: string }
  /** An executable `git-X` git would run. */
  | { kind: 'external'; path: string }
  /** git fails with "not a git command" and writes nothing. */
  | { kind: 'none'; why: string }
  /** Cannot tell from here: possible. */
  | { kind: 'unknown'; why: string };

type Kind = 'file' | 'directory' | 'other' | 'missing';

/** Variables that move git's configuration, repository discovery or command lookup. */
const MOVES_LOOKUP = /^(?:GIT_.*|PATH|HOME|XDG_CONFIG_HOME)$/;
/** Of those, the ones the hook's own environment may hold that this resolution cannot follow. */
const UNFOLLOWED_ENV = ['GIT_DIR', 'GIT_COMMON_DIR', 'GIT_WORK_TREE', 'GIT_CONFIG', 'GIT_CONFIG_PARAMETERS', 'GIT_CEILING_DIRECTORIES', 'GIT_DISCOVERY_ACROSS_FILESYSTEM', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_COUNT'];
const MAX_INCLUDE_DEPTH = 10;

class Unknown extends Error {}

interface Entry {
  key: string;
  value: string;
  file: string;
}

/**
 * Resolves `git NAME` run from `dir` (after `-C`), with `config` the `-c`/GIT_CONFIG_COUNT
 * settings of this invocation. `extraOptions`: global options other than -C/-c were given.
 */
export function resolveGitCommand(name: string, inv: Invocation, interp: CommandContext, dir: CwdValue, config: Array<{ key: string; value: string }>, extraOptions: boolean): GitResolution {
  try {
    return resolve(name, inv, interp, dir, config, extraOptions);
  } catch (e) {
    if (e instanceof Unknown) return { kind: 'unknown', why: e.message };
    throw e;
  }
}

function resolve(name: string, inv: Invocation, interp: CommandContext, dirValue: CwdValue, cmdline: Array<{ key: string; value: string }>, extraOptions: boolean): GitResolution {
  const host = interp.ctx.host;
  const stat = host?.stat;
  const readFile = host?.readFile;
  if (!stat || !readFile) throw new Unknown('the machine cannot be asked what git would run');
  if (!/^[A-Za-z0-9][A-Za-z0-9._+-]*$/.test(name)) throw new Unknown(`git looks ${name} up in ways not followed here`);
  if (extraOptions) throw new Unknown('global options other than -C and -c may change where git looks');
  const dir = dirValue.paths?.length === 1 && !dirValue.paths[0]!.includes(HOLE) ? dirValue.paths[0]! : null;
  if (dir === null || dirValue.confidence !== 'certain') throw new Unknown('the directory git runs in is not known');

  // Variables this command set (or a prefix assignment gave git) that move the lookup.
  for (const [k] of inv.env) if (MOVES_LOOKUP.test(k)) throw new Unknown(`${k} is set for this git command`);
  for (const [k, v] of inv.st.vars) if (MOVES_LOOKUP.test(k) && !v.fromEnvironment) throw new Unknown(`the command sets ${k} before git runs`);
  const env = (k: string): string | null => {
    const v = inv.st.vars.get(k);
    return v && v.fromEnvironment && v.value !== '' ? v.value : null;
  };
  for (const k of UNFOLLOWED_ENV) if (env(k) !== null) throw new Unknown(`${k} is set in the environment`);

  const known = (p: string): Kind => {
    // This command may have changed the path (or something above or below it) before git runs.
    if (interp.touched(p)) throw new Unknown(`the command may have changed ${p} before git runs`);
    const k = stat(p);
    if (k === null) throw new Unknown(`cannot tell what is at ${p}`);
    return k;
  };
  const read = (p: string): string | null => {
    const k = known(p);
    if (k === 'missing') return null;
    if (k !== 'file') throw new Unknown(`${p} is not a regular file`);
    const text = readFile(p);
    if (text === null) throw new Unknown(`cannot read ${p}`);
    return text;
  };

  const home = env('HOME');
  const path = env('PATH');
  if (path === null || path.includes(HOLE)) throw new Unknown('PATH is not known');
  const pathDirs = path.split(':').map((d) => (d === '' ? dir : joinPath(dir, d)));

  // 2. `git-NAME` in the exec path or on PATH (git prepends its exec path to PATH).
  const execPath = env('GIT_EXEC_PATH');
  const execDirs = execPath !== null ? [execPath] : execPathCandidates(pathDirs, known, host.realpath);
  const dashed = `git-${name}`;
  for (const d of [...execDirs, ...pathDirs]) {
    const p = normalizeLogical(joinPath(d, dashed));
    if (known(p) !== 'missing') return { kind: 'external', path: p };
  }

  // 3. The configuration git reads, in its order (git-config(1), FILES); the last value wins.
  const entries: Entry[] = [];
  const load = (file: string, depth: number): void => {
    const text = read(file);
    if (text === null) return;
    for (const e of parseConfig(text, file)) {
      entries.push(e);
      if (e.key === 'include.path' || (e.key.startsWith('includeif.') && e.key.endsWith('.path'))) {
        // Every include is followed, whatever its condition: reading more than git does only adds.
        if (depth >= MAX_INCLUDE_DEPTH) throw new Unknown(`includes in ${file} nest too deep`);
        if ((e.value.startsWith('~') && !e.value.startsWith('~/')) || e.value.startsWith('%(')) throw new Unknown(`${file} includes ${e.value}, a path form not followed here`);
        const target = e.value.startsWith('~/') ? (home === null ? null : joinPath(home, e.value.slice(2))) : joinPath(dirnameOf(file), e.value);
        if (target === null) throw new Unknown(`${file} includes ${e.value}, and HOME is not known`);
        load(normalizeLogical(target), depth + 1);
      }
    }
  };
  const noSystem = env('GIT_CONFIG_NOSYSTEM');
  if (noSystem === null || !isTrue(noSystem)) for (const f of systemConfigs(pathDirs, known, host.realpath)) load(f, 0);
  const xdg = env('XDG_CONFIG_HOME') ?? (home === null ? null : joinPath(home, '.config'));
  if (home === null || xdg === null) throw new Unknown('HOME is not known');
  load(joinPath(xdg, 'git/config'), 0);
  load(joinPath(home, '.gitconfig'), 0);
  const repo = discover(dir, known, read);
  let toplevel = dir;
  if (repo) {
    toplevel = repo.toplevel ?? dir;
    // The repository's config is shared by every checkout: a command that changed it (git config,
    // an unknown git command) may have added the alias.
    if (interp.effects.some((e) => e.kind === 'git' && e.access !== 'read' && e.access !== 'checkout')) throw new Unknown('an earlier git command may have changed the configuration');
    const before = entries.length;
    load(joinPath(repo.commonDir, 'config'), 0);
    const worktreeConfig = entries.slice(before).filter((e) => e.key === 'extensions.worktreeconfig').pop();
    if (worktreeConfig && isTrue(worktreeConfig.value)) load(joinPath(repo.gitDir, 'config.worktree'), 0);
  }
  for (const c of cmdline) entries.push({ key: canonicalKey(c.key), value: c.value, file: 'the command line' });

  const alias = entries.filter((e) => e.key.startsWith('alias.') && e.key.slice(6).toLowerCase() === name.toLowerCase()).pop();
  if (alias) return { kind: 'alias', value: alias.value, from: alias.file, toplevel };
  if (entries.some((e) => /^alias\..*\.command$/.test(e.key))) throw new Unknown('an alias is defined in a form not followed here');

  // 4. Not a git command: only help.autocorrect can make git run something else.
  const auto = entries.filter((e) => e.key === 'help.autocorrect').pop();
  if (auto && !/^(?:0|false|no|off|show|never)$/i.test(auto.value.trim())) throw new Unknown(`help.autocorrect=${auto.value} (${auto.file}) may run the closest git command`);
  return { kind: 'none', why: `no git-${name} in git's exec path or on PATH, no alias.${name}${auto ? '' : ', no help.autocorrect'}: git fails with "'${name}' is not a git command"` };
}

/**
 * Where git's exec path may be: it is compiled in (or relative to the binary with RUNTIME_PREFIX),
 * so every usual place beside the `git` found on PATH, and the distributions' fixed ones. Looking
 * in more directories than git does only finds more externals. None present: unknown.
 */
function execPathCandidates(pathDirs: string[], known: (p: string) => Kind, realpath: ((p: string) => string | null) | undefined): string[] {
  const bins = gitBinDirs(pathDirs, known, realpath);
  const out = new Set<string>();
  for (const b of bins) {
    out.add(normalizeLogical(joinPath(b, '../libexec/git-core')));
    out.add(normalizeLogical(joinPath(b, '../lib/git-core')));
  }
  for (const d of ['/usr/lib/git-core', '/usr/libexec/git-core', '/usr/local/libexec/git-core', '/usr/local/lib/git-core']) out.add(d);
  const present = [...out].filter((d) => known(d) === 'directory');
  if (present.length === 0) throw new Unknown("git's exec path was not found");
  return present;
}

/** The directories of the `git` PATH finds, as given and through symlinks. */
function gitBinDirs(pathDirs: string[], known: (p: string) => Kind, realpath: ((p: string) => string | null) | undefined): string[] {
  for (const d of pathDirs) {
    const p = normalizeLogical(joinPath(d, 'git'));
    if (known(p) !== 'file') continue;
    const real = realpath?.(p) ?? null;
    if (real === null) throw new Unknown(`cannot resolve ${p}`);
    return [dirnameOf(p), dirnameOf(real)];
  }
  throw new Unknown('no git on PATH');
}

/** The system config: $(prefix)/etc/gitconfig, prefix the git binary's (or /etc for /usr). */
function systemConfigs(pathDirs: string[], known: (p: string) => Kind, realpath: ((p: string) => string | null) | undefined): string[] {
  const out = new Set(['/etc/gitconfig', '/usr/local/etc/gitconfig']);
  for (const b of gitBinDirs(pathDirs, known, realpath)) out.add(normalizeLogical(joinPath(b, '../etc/gitconfig')));
  return [...out];
}

/** The repository git discovers from `dir` (setup_git_directory_gently): null outside any. */
function discover(dir: string, known: (p: string) => Kind, read: (p: string) => string | null): { gitDir: string; commonDir: string; toplevel: string | null } | null {
  let d = normalizeLogical(dir);
  for (let i = 0; i < 128; i++) {
    const dotGit = joinPath(d, '.git');
    const k = known(dotGit);
    let gitDir: string | null = null;
    let toplevel: string | null = d;
    if (k === 'directory') gitDir = dotGit;
    else if (k === 'file') {
      const m = /^gitdir: (.+?)\s*$/m.exec(read(dotGit) ?? '');
      if (!m) throw new Unknown(`${dotGit} is not a gitfile git follows`);
      gitDir = normalizeLogical(joinPath(d, m[1]!));
    } else if (k !== 'missing') throw new Unknown(`${dotGit} is neither a directory nor a gitfile`);
    else if (known(joinPath(d, 'HEAD')) === 'file' && known(joinPath(d, 'objects')) === 'directory') {
      gitDir = d;
      toplevel = null;
    }
    if (gitDir !== null) {
      const common = read(joinPath(gitDir, 'commondir'));
      const commonDir = common === null ? gitDir : normalizeLogical(joinPath(gitDir, common.trim()));
      return { gitDir, commonDir, toplevel };
    }
    if (d === '/') return null;
    d = dirnameOf(d);
  }
  throw new Unknown('repository discovery went too deep');
}

function isTrue(v: string): boolean {
  return /^(?:true|yes|on|1)$/i.test(v.trim()) || v === '';
}

/** `section.sub.name` with the section and name lowercased (git-config(1): they are case-insensitive). */
function canonicalKey(key: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first < 0) return key.toLowerCase();
  return key.slice(0, first).toLowerCase() + key.slice(first, last) + key.slice(last).toLowerCase();
}

/**
 * git's config syntax (git-config(1), CONFIGURATION FILE): sections `[s]`, `[s "sub"]`, `[s.sub]`;
 * `name = value` or `name` (true); `#`/`;` comments; double quotes; `\"`, `\\`, `\n`, `\t`, `\b`
 * escapes; a backslash at the end of a line continues it. What it cannot read: Unknown.
 */
export function parseConfig(text: string, file: string): Entry[] {
  const out: Entry[] = [];
  let section: string | null = null;
  let i = 0;
  const n = text.length;
  const bad = (what: string): never => {
    throw new Unknown(`${file}: ${what}, which git's config syntax does not allow`);
  };
  while (i < n) {
    const c = text[i]!;
    if (c === '\n' || c === ' ' || c === '\t' || c === '\r' || c === '\ufeff') {
      i++;
      continue;
    }
    if (c === '#' || c === ';') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '[') {
      const close = text.indexOf(']', i);
      const nl = text.indexOf('\n', i);
      if (close < 0 || (nl >= 0 && nl < close && !text.slice(i, close).includes('"'))) bad('an unclosed section header');
      const head = text.slice(i + 1, close);
      const m = /^\s*([A-Za-z0-9.-]+)\s*(?:"((?:[^"\\\n]|\\.)*)")?\s*$/.exec(head);
      if (!m) bad(`a section header [${head}]`);
      const base = m![1]!;
      if (m![2] !== undefined) section = `${base.toLowerCase()}.${m![2]!.replace(/\\(.)/g, '$1')}`;
      else {
        const dot = base.indexOf('.');
        section = dot < 0 ? base.toLowerCase() : `${base.slice(0, dot).toLowerCase()}.${base.slice(dot + 1)}`;
      }
      i = close + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(c)) bad(`a line starting with ${JSON.stringify(c)}`);
    let j = i;
    while (j < n && /[A-Za-z0-9-]/.test(text[j]!)) j++;
    const name = text.slice(i, j).toLowerCase();
    if (section === null) bad('a variable outside any section');
    while (j < n && (text[j] === ' ' || text[j] === '\t')) j++;
    let value = '';
    if (j < n && text[j] === '=') {
      j++;
      let quote = false;
      let spaces = 0;
      let started = false;
      for (;;) {
        if (j >= n) {
          if (quote) bad('an unterminated quote');
          break;
        }
        const ch = text[j]!;
        if (ch === '\n' && !quote) break;
        if (ch === '\n') bad('a newline inside quotes');
        if (!quote && (ch === ';' || ch === '#')) {
          while (j < n && text[j] !== '\n') j++;
          break;
        }
        if (!quote && (ch === ' ' || ch === '\t' || ch === '\r')) {
          if (started) spaces++;
          j++;
          continue;
        }
        if (started) value += ' '.repeat(spaces);
        spaces = 0;
        started = true;
        if (ch === '\\') {
          const e = text[j + 1];
          if (e === '\n') {
            started = value !== '';
            j += 2;
            continue;
          }
          if (e === '\r' && text[j + 2] === '\n') {
            j += 3;
            continue;
          }
          const map: Record<string, string> = { '"': '"', '\\': '\\', n: '\n', t: '\t', b: '\b' };
          if (e === undefined || map[e] === undefined) bad(`an escape \\${e ?? ''}`);
          value += map[e!]!;
          j += 2;
          continue;
        }
        if (ch === '"') {
          quote = !quote;
          j++;
          continue;
        }
        value += ch;
        j++;
      }
    } else if (j < n && text[j] !== '\n' && text[j] !== '\r' && text[j] !== '#' && text[j] !== ';') bad(`${JSON.stringify(text.slice(i, j + 1))}`);
    out.push({ key: `${section}.${name}`, value, file });
    i = j;
  }
  return out;
}

/** git's split_cmdline (alias.c): words split on blanks, with single and double quotes and backslashes. */
export function splitCommandLine(s: string): string[] | null {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote === null && /\s/.test(c)) {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (c === '\\' && quote !== "'") {
      if (i + 1 >= s.length) return null;
      cur += s[++i]!;
    } else if (quote === null && (c === '"' || c === "'")) quote = c;
    else if (quote === c) quote = null;
    else cur += c;
  }
  if (quote !== null) return null;
  if (inWord) out.push(cur);
  return out;
}
