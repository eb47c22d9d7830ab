/**
 * Which oracle cases cannot be checked by running them here, and why.
 *
 * Before the run: a small, self-contained shell lexer (deliberately independent of bashguard's own
 * parser, so the oracle never shares a bug with the thing it checks) finds the programs a command
 * would start and flags network use and interactive programs. After the run: stderr tells us about
 * programs that are not installed and failed network access.
 *
 * A skipped result is not evidence either way: the command did (or would do) something the
 * sandbox cannot reproduce.
 */

export interface Invocation {
  /** The program as written (after peeling wrappers like sudo, env, xargs, timeout). */
  program: string;
  /** Its arguments, quotes removed; words with expansions keep their `$`. */
  args: string[];
}

// ---------------------------------------------------------------------------------------------
// Lexer

type Token = { kind: 'word'; value: string } | { kind: 'op'; value: string };

const OPS = ['&&', '||', ';;&', ';;', ';&', '|&', '&>>', '&>', '>>', '<<<', '<<-', '<<', '<>', '>|', '>&', '<&', ';', '&', '|', '(', ')', '<', '>', '\n'];
const REDIRECTS = new Set(['&>>', '&>', '>>', '<<<', '<<-', '<<', '<>', '>|', '>&', '<&', '<', '>']);
const SEPARATORS = new Set(['&&', '||', ';;&', ';;', ';&', '|&', ';', '&', '|', '(', ')', '\n']);

interface LexResult {
  tokens: Token[];
  /** Command texts found inside `$(...)`, backticks and process substitutions. */
  nested: string[];
}

/** Returns the index just past the bracket that closes the one opened before `i`. */
function skipBalanced(src: string, i: number, open: string, close: string): number {
  let depth = 1;
  while (i < src.length && depth > 0) {
    const c = src[i]!;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === "'") {
      const j = src.indexOf("'", i + 1);
      i = j < 0 ? src.length : j + 1;
      continue;
    }
    if (c === '"') {
      i++;
      while (i < src.length && src[i] !== '"') i += src[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (c === open) depth++;
    else if (c === close) depth--;
    i++;
  }
  return i;
}

function lex(src: string): LexResult {
  const tokens: Token[] = [];
  const nested: string[] = [];
  const pendingHeredocs: { delim: string; strip: boolean }[] = [];
  let i = 0;
  let word: string | null = null;
  const flush = () => {
    if (word !== null) tokens.push({ kind: 'word', value: word });
    word = null;
  };
  const add = (s: string) => {
    word = (word ?? '') + s;
  };

  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t') {
      flush();
      i++;
      continue;
    }
    if (c === '#' && word === null) {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (c === '\\') {
      if (src[i + 1] === '\n') i += 2;
      else {
        add(src[i + 1] ?? '');
        i += 2;
      }
      continue;
    }
    if (c === "'") {
      const j = src.indexOf("'", i + 1);
      add(src.slice(i + 1, j < 0 ? src.length : j));
      if (word === null) word = '';
      i = j < 0 ? src.length : j + 1;
      continue;
    }
    if (c === '$' && src[i + 1] === "'") {
      const j = skipAnsiC(src, i + 2);
      add(src.slice(i + 2, j - 1));
      i = j;
      continue;
    }
    if (c === '"') {
      if (word === null) word = '';
      i++;
      while (i < src.length && src[i] !== '"') {
        const d = src[i]!;
        if (d === '\\' && i + 1 < src.length) {
          add(src[i + 1]!);
          i += 2;
        } else if (d === '$' && src[i + 1] === '(') {
          const end = skipBalanced(src, i + 2, '(', ')');
          nested.push(src.slice(i + 2, end - 1));
          add(src.slice(i, end));
          i = end;
        } else if (d === '`') {
          const end = src.indexOf('`', i + 1);
          nested.push(src.slice(i + 1, end < 0 ? src.length : end));
          i = end < 0 ? src.length : end + 1;
          add('$(...)');
        } else {
          add(d);
          i++;
        }
      }
      i++;
      continue;
    }
    // $(...) command substitution; <(...) and >(...) process substitution at the start of a word
    if ((c === '$' && src[i + 1] === '(' && src[i + 2] !== '(') || ((c === '<' || c === '>') && src[i + 1] === '(' && word === null)) {
      const end = skipBalanced(src, i + 2, '(', ')');
      nested.push(src.slice(i + 2, end - 1));
      add(src.slice(i, end));
      i = end;
      continue;
    }
    if (c === '$' && src[i + 1] === '(' && src[i + 2] === '(') {
      const end = skipBalanced(src, i + 3, '(', ')');
      add(src.slice(i, end + 1));
      i = end + 1;
      continue;
    }
    if (c === '$' && src[i + 1] === '{') {
      const end = skipBalanced(src, i + 2, '{', '}');
      add(src.slice(i, end));
      i = end;
      continue;
    }
    if (c === '`') {
      const end = src.indexOf('`', i + 1);
      nested.push(src.slice(i + 1, end < 0 ? src.length : end));
      add('$(...)');
      i = end < 0 ? src.length : end + 1;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (op) {
      // `2>` and `{fd}>`: a word made only of digits right before a redirection is its fd.
      if (REDIRECTS.has(op) && word !== null && /^\d+$/.test(word)) word = null;
      flush();
      tokens.push({ kind: 'op', value: op });
      i += op.length;
      if (op === '<<' || op === '<<-') {
        // heredoc delimiter: the next word
        while (src[i] === ' ' || src[i] === '\t') i++;
        let j = i;
        let delim = '';
        while (j < src.length && !/[\s;&|<>()]/.test(src[j]!)) {
          if (src[j] !== "'" && src[j] !== '"' && src[j] !== '\\') delim += src[j];
          j++;
        }
        pendingHeredocs.push({ delim, strip: op === '<<-' });
        tokens.push({ kind: 'word', value: delim });
        i = j;
      }
      if (op === '\n' && pendingHeredocs.length > 0) {
        for (const h of pendingHeredocs.splice(0)) {
          for (;;) {
            const nl = src.indexOf('\n', i);
            const line = src.slice(i, nl < 0 ? src.length : nl);
            i = nl < 0 ? src.length : nl + 1;
            if ((h.strip ? line.replace(/^\t+/, '') : line) === h.delim || nl < 0) break;
          }
        }
      }
      continue;
    }
    add(c);
    i++;
  }
  flush();
  return { tokens, nested };
}

function skipAnsiC(src: string, i: number): number {
  while (i < src.length && src[i] !== "'") i += src[i] === '\\' ? 2 : 1;
  return i + 1;
}

// ---------------------------------------------------------------------------------------------
// Simple commands and wrappers

const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '{', '}', '!', 'coproc']);

function simpleCommands(src: string, depth = 0): string[][] {
  if (depth > 8) return [];
  const { tokens, nested } = lex(src);
  const out: string[][] = [];
  let cur: string[] = [];
  let inCasePatterns = false;
  let afterCaseWord = false;
  const end = () => {
    if (cur.length) out.push(cur);
    cur = [];
  };
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind === 'op') {
      if (REDIRECTS.has(t.value)) {
        k++; // its target word
        continue;
      }
      if (t.value === '(' && tokens[k + 1]?.value === ')' && cur.length === 1) {
        // name() { ...; } : a function definition, not a command
        cur = [];
        k++;
        continue;
      }
      if (t.value === ')' && inCasePatterns) {
        cur = [];
        inCasePatterns = false;
        continue;
      }
      if (t.value === ';;' || t.value === ';&' || t.value === ';;&') inCasePatterns = true;
      if (SEPARATORS.has(t.value)) end();
      continue;
    }
    if (inCasePatterns) {
      if (t.value === 'esac') inCasePatterns = false;
      continue;
    }
    if (afterCaseWord) {
      if (t.value === 'in') {
        afterCaseWord = false;
        inCasePatterns = true;
      }
      continue;
    }
    if (cur.length === 0) {
      if (KEYWORDS.has(t.value)) continue;
      if (t.value === 'case') {
        afterCaseWord = true;
        continue;
      }
      if (t.value === 'for' || t.value === 'select' || t.value === 'function' || t.value === '[[' || t.value === 'esac') {
        // skip to the end of this clause
        while (k + 1 < tokens.length && !(tokens[k + 1]!.kind === 'op' && SEPARATORS.has(tokens[k + 1]!.value))) k++;
        continue;
      }
      if (/^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(t.value)) continue; // assignment
    }
    cur.push(t.value);
  }
  end();
  for (const n of nested) out.push(...simpleCommands(n, depth + 1));
  return out;
}

/** Options that take a separate argument, per wrapper. */
export const WRAPPER_ARGS: Record<string, Set<string>> = {
  sudo: new Set(['-u', '-g', '-p', '-C', '-h', '-D', '-r', '-t', '-T', '-U', '--user', '--group', '--prompt', '--chdir']),
  doas: new Set(['-u', '-C']),
  env: new Set(['-u', '-C', '--unset', '--chdir']),
  nice: new Set(['-n', '--adjustment']),
  ionice: new Set(['-c', '-n', '-p', '-P', '-u', '--class', '--classdata']),
  stdbuf: new Set(['-i', '-o', '-e', '--input', '--output', '--error']),
  timeout: new Set(['-k', '-s', '--kill-after', '--signal']),
  xargs: new Set(['-a', '-d', '-E', '-e', '-I', '-L', '-l', '-n', '-P', '-s', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-lines', '--replace', '--process-slot-var']),
  setsid: new Set([]),
  nohup: new Set([]),
  exec: new Set(['-a']),
  command: new Set([]),
  builtin: new Set([]),
  time: new Set(['-f', '-o', '--format', '--output']),
  flock: new Set(['-w', '-E', '--timeout', '--conflict-exit-code']),
  runuser: new Set(['-u', '-g', '-G', '--user', '--group']),
  chronic: new Set([]),
  unbuffer: new Set([]),
};

const SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox']);

function basename(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? p : p.slice(i + 1);
}

/** Peel wrappers and shells off one simple command; pushes every program it would run. */
function invocationsOf(words: string[], out: Invocation[], depth: number): void {
  let w = words;
  for (let guard = 0; guard < 16 && w.length > 0; guard++) {
    const name = basename(w[0]!);
    const takesArg = WRAPPER_ARGS[name];
    if (takesArg) {
      if (name === 'command' && w.slice(1).some((a) => a === '-v' || a === '-V')) return;
      let k = 1;
      while (k < w.length) {
        const a = w[k]!;
        if (a === '--') {
          k++;
          break;
        }
        if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) {
          k++;
          continue;
        }
        if (name === 'env' && (a === '-S' || a.startsWith('--split-string'))) {
          const s = a === '-S' ? w[k + 1] : a.split('=').slice(1).join('=');
          if (s) collect(s, out, depth + 1);
          return;
        }
        if (!a.startsWith('-') || a === '-') break;
        k += takesArg.has(a) ? 2 : 1;
      }
      if (name === 'timeout' && k < w.length) k++; // the duration
      if (name === 'flock' && k < w.length) {
        if (w[k + 1] === '-c') {
          if (w[k + 2]) collect(w[k + 2]!, out, depth + 1);
          return;
        }
        k++; // the lock file
      }
      if (name === 'nice' && /^-\d+$/.test(w[1] ?? '')) k = Math.max(k, 2);
      w = w.slice(k);
      continue;
    }
    if (SHELLS.has(name)) {
      const c = w.indexOf('-c');
      const combined = w.findIndex((a, idx) => idx > 0 && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a));
      const at = c > 0 ? c : combined;
      if (at > 0 && w[at + 1] !== undefined) {
        out.push({ program: w[0]!, args: w.slice(1) });
        collect(w[at + 1]!, out, depth + 1);
        return;
      }
    }
    if (name === 'eval') {
      collect(w.slice(1).join(' '), out, depth + 1);
      return;
    }
    if (name === 'su') {
      const c = w.findIndex((a) => a === '-c' || a === '--command');
      out.push({ program: w[0]!, args: w.slice(1) });
      if (c > 0 && w[c + 1]) collect(w[c + 1]!, out, depth + 1);
      return;
    }
    break;
  }
  if (w.length === 0) return;
  out.push({ program: w[0]!, args: w.slice(1) });
  if (basename(w[0]!) === 'find') {
    for (let k = 1; k < w.length; k++) {
      if (['-exec', '-execdir', '-ok', '-okdir'].includes(w[k]!)) {
        let e = k + 1;
        while (e < w.length && w[e] !== ';' && w[e] !== '+') e++;
        invocationsOf(w.slice(k + 1, e), out, depth + 1);
        k = e;
      }
    }
  }
}

function collect(src: string, out: Invocation[], depth: number): void {
  if (depth > 8) return;
  for (const words of simpleCommands(src, depth)) invocationsOf(words, out, depth);
}

/** Every program the command would start, as far as a lexer can tell. */
export function invocations(cmd: string): Invocation[] {
  const out: Invocation[] = [];
  collect(cmd, out, 0);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Pre-run skip reasons

const NETWORK_PROGRAMS = new Set([
  'curl', 'wget', 'ssh', 'scp', 'sftp', 'ftp', 'lftp', 'telnet', 'nc', 'ncat', 'netcat', 'socat', 'ping', 'ping6',
  'dig', 'nslookup', 'host', 'aria2c', 'http', 'https', 'xh', 'mosh', 'gh', 'hub', 'glab', 'ssh-copy-id', 'ssh-keyscan',
]);

/** Package managers and tools whose listed subcommands fetch from the network. */
const NETWORK_SUBCOMMANDS: Record<string, Set<string>> = {
  npm: new Set(['install', 'i', 'ci', 'add', 'update', 'up', 'upgrade', 'publish', 'view', 'info', 'outdated', 'audit', 'exec', 'init', 'create', 'login']),
  pnpm: new Set(['install', 'i', 'add', 'update', 'up', 'upgrade', 'publish', 'dlx', 'outdated', 'audit', 'create']),
  yarn: new Set(['', 'install', 'add', 'upgrade', 'up', 'publish', 'dlx', 'create', 'outdated', 'audit']),
  bun: new Set(['install', 'i', 'add', 'update', 'x', 'create']),
  pip: new Set(['install', 'download', 'search', 'index']),
  pip3: new Set(['install', 'download', 'search', 'index']),
  pipx: new Set(['install', 'run', 'upgrade']),
  uv: new Set(['add', 'sync', 'lock', 'pip', 'tool', 'run', 'venv']),
  poetry: new Set(['install', 'add', 'update', 'lock', 'publish']),
  cargo: new Set(['install', 'fetch', 'update', 'publish', 'search', 'add']),
  go: new Set(['get', 'install', 'mod']),
  gem: new Set(['install', 'update', 'fetch', 'push']),
  bundle: new Set(['install', 'update', '']),
  composer: new Set(['install', 'update', 'require', 'create-project']),
  'apt-get': new Set(['install', 'update', 'upgrade', 'dist-upgrade', 'source', 'download']),
  apt: new Set(['install', 'update', 'upgrade', 'full-upgrade', 'source', 'download']),
  apk: new Set(['add', 'update', 'upgrade', 'fetch']),
  dnf: new Set(['install', 'update', 'upgrade', 'download']),
  yum: new Set(['install', 'update', 'upgrade']),
  brew: new Set(['install', 'update', 'upgrade', 'fetch', 'tap']),
  docker: new Set(['pull', 'push', 'login', 'run', 'build', 'search']),
  podman: new Set(['pull', 'push', 'login', 'run', 'build', 'search']),
  conda: new Set(['install', 'update', 'create']),
};

/** npx/pnpx/bunx download the package when it is not installed: treat as network. */
const NETWORK_RUNNERS = new Set(['npx', 'pnpx', 'bunx']);

const INTERACTIVE = new Set([
  'vi', 'vim', 'nvim', 'view', 'vimdiff', 'ex', 'nano', 'pico', 'emacs', 'joe', 'mcedit', 'micro', 'ne', 'less', 'more',
  'most', 'top', 'htop', 'btop', 'atop', 'iotop', 'watch', 'tmux', 'screen', 'mc', 'ranger', 'nnn', 'fzf', 'dialog',
  'whiptail', 'tig', 'lazygit',
]);

function isLocalRepoArg(a: string): boolean {
  return a.startsWith('/') || a.startsWith('./') || a.startsWith('../') || a.startsWith('~') || a === '.' || a === '..' || a.startsWith('file://');
}

/** git: value-taking global options, so we can find the subcommand. */
const GIT_GLOBAL_ARGS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);

function gitNetwork(args: string[]): string | null {
  let k = 0;
  while (k < args.length && args[k]!.startsWith('-')) k += GIT_GLOBAL_ARGS.has(args[k]!) ? 2 : 1;
  const sub = args[k];
  const rest = args.slice(k + 1);
  const positional = rest.filter((a) => !a.startsWith('-'));
  switch (sub) {
    case 'clone': {
      const repo = positional[0];
      return repo && !isLocalRepoArg(repo) ? `needs network: git clone ${repo}` : null;
    }
    case 'fetch':
    case 'pull':
    case 'push':
    case 'ls-remote': {
      // The layout has no remotes: without an explicit local repository git would go to origin.
      const repo = positional[0];
      if (repo && isLocalRepoArg(repo)) return null;
      return `needs network: git ${sub}${repo ? ' ' + repo : ''}`;
    }
    case 'submodule':
      return positional[0] === 'update' || positional[0] === 'add' || positional[0] === 'sync' ? `needs network: git submodule ${positional[0]}` : null;
    case 'remote':
      return positional[0] === 'update' || rest.includes('-f') ? 'needs network: git remote update' : null;
    case 'archive':
      return rest.some((a) => a.startsWith('--remote')) ? 'needs network: git archive --remote' : null;
    default:
      return null;
  }
}

function gitInteractive(args: string[]): string | null {
  let k = 0;
  while (k < args.length && args[k]!.startsWith('-')) k += GIT_GLOBAL_ARGS.has(args[k]!) ? 2 : 1;
  const sub = args[k];
  const rest = args.slice(k + 1);
  if ((sub === 'add' || sub === 'checkout' || sub === 'reset' || sub === 'stash' || sub === 'restore') && rest.some((a) => a === '-p' || a === '--patch' || a === '-i' || a === '--interactive')) {
    return `interactive program: git ${sub} ${rest.find((a) => a.startsWith('-'))}`;
  }
  if (sub === 'rebase' && rest.some((a) => a === '-i' || a === '--interactive')) return 'interactive program: git rebase -i';
  if (sub === 'mergetool' || sub === 'difftool') return `interactive program: git ${sub}`;
  return null;
}

/** curl given only file:// URLs and options known to take no value (or -o FILE): no network. */
function localCurl(args: string[]): boolean {
  const flags = new Set(['-s', '-S', '-sS', '-f', '-L', '-fsSL', '-sSL', '-O', '--silent', '--show-error', '--fail', '--location', '--remote-name']);
  let urls = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-o' || a === '--output') i++;
    else if (flags.has(a)) continue;
    else if (a.startsWith('file://')) urls++;
    else return false;
  }
  return urls > 0;
}

/** Why this command cannot be checked here, judged before running it; null if it can run. */
export function preRunSkipReason(cmd: string): string | null {
  // `:(){ :|:& };:` and friends: the pid namespace would contain it, but not the load it causes.
  if (/([^\s(){};|&]+)\s*\(\)\s*\{[^}]*\1\s*\|\s*\1\s*&/.test(cmd)) return 'fork bomb';
  for (const inv of invocations(cmd)) {
    const name = basename(inv.program);
    if (NETWORK_PROGRAMS.has(name) && !(name === 'curl' && localCurl(inv.args))) return `needs network: ${name}`;
    if (NETWORK_RUNNERS.has(name)) return `needs network: ${name} (may download the package)`;
    const subs = NETWORK_SUBCOMMANDS[name];
    if (subs) {
      const sub = inv.args.find((a) => !a.startsWith('-')) ?? '';
      if (subs.has(sub)) return `needs network: ${name}${sub ? ' ' + sub : ''}`;
    }
    // rsync's own rule: a colon before the first slash names a remote host (host:path, host::module).
    if (name === 'rsync' && inv.args.some((a) => !a.startsWith('-') && (a.startsWith('rsync://') || /^[^/]+:/.test(a)))) {
      return 'needs network: rsync to a remote host';
    }
    if (name === 'git') {
      const r = gitNetwork(inv.args) ?? gitInteractive(inv.args);
      if (r) return r;
    }
    // tmux with a detached session (-d) or a command for a running server needs no terminal.
    if (name === 'tmux' && inv.args.some((a) => a === '-d' || /^(?:ls|list-\w+|kill-\w+|send-keys|send|run-shell|run|has-session|has|display-message|display)$/.test(a))) continue;
    if (INTERACTIVE.has(name)) {
      // vim -es / ex -s / emacs --batch run as scripts; everything else wants a terminal.
      const scripted = inv.args.some((a) => a === '-es' || a === '-Es' || a === '--batch' || a === '-s' || a === '--script');
      if (!scripted) return `interactive program: ${name}`;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Post-run skip reasons

const NOT_FOUND_PATTERNS: RegExp[] = [
  /(?:^|\n)(?:[^\n]*?: )?(?:line \d+: )?([^\s:'"]+): command not found/g,
  /(?:^|\n)env: '([^']+)': No such file or directory/g,
  /(?:^|\n)(?:timeout|nohup|nice|stdbuf|setsid|chroot|flock|xargs|ionice|runuser): (?:failed to run command |failed to execute )?'?([^\s':]+)'?: No such file or directory/g,
];

const NETWORK_ERRORS =
  /Could not resolve host|Could not resolve hostname|Temporary failure in name resolution|Name or service not known|Network is unreachable|getaddrinfo|ENOTFOUND|EAI_AGAIN|ENETUNREACH|Failed to connect to|unable to access '[a-z]+:\/\//;

export interface RunFacts {
  exitCode: number | null;
  stderr: string;
  shims: string[];
}

/** Why a finished run says nothing about the command; null if its result stands. */
export function postRunSkipReason(facts: RunFacts): string | null {
  const missing = new Set<string>();
  for (const re of NOT_FOUND_PATTERNS) {
    for (const m of facts.stderr.matchAll(re)) if (m[1]) missing.add(m[1]);
  }
  if (missing.size > 0) return `program not installed: ${[...missing].join(', ')}`;
  const unsupported = facts.shims.find((s) => s.startsWith('unsupported:'));
  if (unsupported) return `sudo option not supported by the oracle's sudo shim: ${unsupported.slice('unsupported:'.length)}`;
  if (NETWORK_ERRORS.test(facts.stderr)) return 'needs network (the run failed to reach the network)';
  return null;
}
