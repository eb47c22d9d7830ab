/**
 * Inline code in other languages (`python -c`, `node -e`, `perl -e`, `awk PROGRAM` ...): only
 * its real write sinks count. Per language, data says which calls write a file (`open(..., 'w')`,
 * `fs.writeFileSync`, `print > "f"`, `os.remove`, `shutil.*` ...) and which run shell code
 * (`os.system("...")`, awk `system("...")`, perl backticks ...). Code without a sink writes
 * nothing, whatever strings starting with `/` it holds (an awk regex `/has address/`, a path it
 * only reads). A sink whose path is a literal is a `likely` write of that path (resolved against
 * the cwd); other absolute path literals in code that has a sink are `possible` writes; literal
 * shell code is analyzed as a nested shell.
 */
import type { CommandContext, Invocation } from './context.js';
import { codeStrings } from './unknown.js';

export type Language = 'python' | 'node' | 'perl' | 'ruby' | 'awk' | 'php' | 'lua' | 'r';

interface LanguageSinks {
  /** Any of these in the code means it may write files. */
  sinks: RegExp[];
  /** A literal path written directly: group `p` is the path. */
  direct: RegExp[];
  /** A literal shell command run: group `c` is the command. */
  shell: RegExp[];
}

// A quoted string literal without escapes or interpolation: group p / c holds its text.
const S = (name: string) => `(?:'(?<${name}>[^'\\\\\\n]*)'|"(?<${name}2>[^"\\\\\\n$\`]*)")`;

/** Built on first use: ~60 regular expressions that most hook processes never need (0.35 ms). */
let langs: Record<Language, LanguageSinks> | null = null;
const LANGS = (): Record<Language, LanguageSinks> => (langs ??= {
  python: {
    sinks: [
      /\bopen\s*\([^()]*?,\s*(?:mode\s*=\s*)?['"][rbtU]*[wax+][rbt+]*['"]/,
      /\.(?:write_text|write_bytes|touch|mkdir|unlink|rmdir|rename|replace|symlink_to|hardlink_to|chmod)\s*\(/,
      /\bos\.(?:remove|unlink|rmdir|removedirs|mkdir|makedirs|rename|renames|replace|symlink|link|chmod|chown|truncate|utime|open|system|popen|exec\w*|spawn\w*|mkfifo)\s*\(/,
      /\bshutil\.\w+\s*\(/,
      /\bsubprocess\.\w+\s*\(/,
      /\b(?:zipfile\.ZipFile|tarfile\.open)\s*\([^)]*,\s*(?:mode\s*=\s*)?['"][wax]/,
      /\.(?:extractall|extract|to_csv|to_json|to_parquet|to_excel|savefig|save)\s*\(/,
      /\bsqlite3\.connect\s*\(/,
      /\b(?:np|numpy)\.save\w*\s*\(/,
      /\bexec\s*\(|\beval\s*\(|\b__import__\s*\(/,
    ],
    direct: [
      new RegExp(`\\bopen\\s*\\(\\s*${S('p')}\\s*,\\s*(?:mode\\s*=\\s*)?['"][^'"]*[wax+]`),
      new RegExp(`\\bPath\\s*\\(\\s*${S('p')}\\s*\\)\\s*\\.(?:write_text|write_bytes|touch|mkdir|unlink|rmdir)`),
      new RegExp(`\\bos\\.(?:remove|unlink|rmdir|removedirs|mkdir|makedirs|truncate|mkfifo)\\s*\\(\\s*${S('p')}`),
      new RegExp(`\\bshutil\\.rmtree\\s*\\(\\s*${S('p')}`),
      new RegExp(`\\bshutil\\.(?:copy\\w*|move)\\s*\\(\\s*[^,]+,\\s*${S('p')}`),
      new RegExp(`\\bos\\.(?:rename|replace|symlink|link)\\s*\\(\\s*[^,]+,\\s*${S('p')}`),
    ],
    shell: [new RegExp(`\\bos\\.(?:system|popen)\\s*\\(\\s*${S('c')}\\s*[,)]`), new RegExp(`\\bsubprocess\\.\\w+\\s*\\(\\s*${S('c')}\\s*,[^)]*shell\\s*=\\s*True`)],
  },
  node: {
    sinks: [
      /\b(?:writeFile|appendFile|mkdir|mkdtemp|rm|rmdir|unlink|rename|copyFile|cp|symlink|link|chmod|chown|truncate|utimes|createWriteStream|writeSync|openSync|open)(?:Sync)?\s*\(/,
      /\bchild_process\b|\bexecSync\s*\(|\bexecFileSync\s*\(|\bspawnSync\s*\(|\bexec\s*\(|\bspawn\s*\(/,
      /\beval\s*\(|\bnew\s+Function\s*\(/,
    ],
    direct: [new RegExp(`\\b(?:writeFile|appendFile|mkdir|rm|rmdir|unlink|truncate|createWriteStream)(?:Sync)?\\s*\\(\\s*${S('p')}`), new RegExp(`\\b(?:rename|copyFile|cp|symlink|link)(?:Sync)?\\s*\\(\\s*[^,]+,\\s*${S('p')}`)],
    shell: [new RegExp(`\\b(?:execSync|exec)\\s*\\(\\s*${S('c')}\\s*[,)]`)],
  },
  perl: {
    sinks: [
      /\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*(?:['"]\s*(?:>|\+<|\+>|\|)|['"][^'"]*\|['"])/,
      /\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*['"]\s*>/,
      /\b(?:unlink|mkdir|rmdir|rename|symlink|link|chmod|chown|utime|truncate|system|exec|copy|move|make_path|mkpath|remove_tree|rmtree|write_file|spurt|sysopen)\b/,
      /`|\bqx\s*[^\w\s]/,
      /\beval\b/,
    ],
    direct: [new RegExp(`\\bopen\\s*\\(?\\s*(?:my\\s+)?[$\\w]+\\s*,\\s*['"](?:>|>>|\\+<|\\+>)['"]\\s*,\\s*${S('p')}`), /\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*(?:'\s*>>?\s*(?<p>[^'\\\n$]+)'|"\s*>>?\s*(?<p2>[^"\\\n$]+)")/, new RegExp(`\\b(?:unlink|mkdir|rmdir)\\s*\\(?\\s*${S('p')}`)],
    shell: [new RegExp(`\\b(?:system|exec)\\s*\\(?\\s*${S('c')}\\s*\\)?\\s*(?:;|$)`), /`(?<c>[^`$\\\n]+)`/],
  },
  ruby: {
    sinks: [
      /\bFile\.(?:write|open|delete|unlink|rename|symlink|link|chmod|chown|truncate|utime|new)\b/,
      /\b(?:FileUtils|Dir)\.\w+/,
      /\bIO\.(?:write|popen)\b/,
      /\b(?:system|exec|spawn)\b|`|%x/,
      /\beval\b/,
    ],
    direct: [new RegExp(`\\bFile\\.(?:write|delete|unlink|truncate)\\s*\\(?\\s*${S('p')}`), new RegExp(`\\bFile\\.(?:open|new)\\s*\\(\\s*${S('p')}\\s*,\\s*['"][wa]`), new RegExp(`\\bFileUtils\\.(?:touch|mkdir_p|mkdir|rm_rf|rm_r|rm|rm_f)\\s*\\(?\\s*${S('p')}`)],
    shell: [new RegExp(`\\b(?:system|exec)\\s*\\(?\\s*${S('c')}\\s*\\)?\\s*(?:;|$)`), /`(?<c>[^`#\\\n]+)`/],
  },
  awk: {
    // Output redirection inside print/printf, pipes to and from shell commands, system().
    sinks: [/\bprintf?\b[^;{}\n]*>/, /\bprintf?\b[^;{}\n]*\|/, /\|\s*getline\b/, /\bsystem\s*\(/],
    direct: [/\bprintf?\b[^;{}\n]*?>>?\s*"(?<p>[^"\\\n]+)"/],
    shell: [/\bsystem\s*\(\s*"(?<c>[^"\\\n]*)"\s*\)/, /\bprintf?\b[^;{}\n]*?\|\s*"(?<c>[^"\\\n]+)"/, /"(?<c>[^"\\\n]+)"\s*\|\s*getline\b/],
  },
  php: {
    sinks: [/\b(?:file_put_contents|fopen|fwrite|unlink|mkdir|rmdir|rename|copy|touch|symlink|link|chmod|chown|tempnam|system|exec|shell_exec|passthru|popen|proc_open|eval)\s*\(|`/],
    direct: [new RegExp(`\\b(?:file_put_contents|unlink|mkdir|rmdir|touch)\\s*\\(\\s*${S('p')}`), new RegExp(`\\bfopen\\s*\\(\\s*${S('p')}\\s*,\\s*['"][waxc]`)],
    shell: [new RegExp(`\\b(?:system|exec|shell_exec|passthru)\\s*\\(\\s*${S('c')}\\s*[,)]`)],
  },
  lua: {
    sinks: [/\bio\.open\s*\([^)]*,\s*['"][rb]*[wa+]/, /\bos\.(?:remove|rename|execute|tmpname)\s*\(/, /\bio\.popen\s*\(/, /\bload(?:string)?\s*\(/],
    direct: [new RegExp(`\\bio\\.open\\s*\\(\\s*${S('p')}\\s*,\\s*['"][wa]`), new RegExp(`\\bos\\.remove\\s*\\(\\s*${S('p')}`)],
    shell: [new RegExp(`\\bos\\.execute\\s*\\(\\s*${S('c')}\\s*\\)`)],
  },
  r: {
    sinks: [/\b(?:write\w*|saveRDS|save|sink|file\.(?:create|remove|rename|copy|append)|unlink|dir\.create|system2?|ggsave|pdf|png)\s*\(/, /\bfile\s*\([^)]*,\s*(?:open\s*=\s*)?['"][rb]*[wa]/],
    direct: [],
    shell: [new RegExp(`\\bsystem\\s*\\(\\s*${S('c')}\\s*\\)`)],
  },
});

export function languageOf(name: string): Language | null {
  if (/^python[0-9.]*$|^pypy3?$/.test(name)) return 'python';
  if (name === 'node' || name === 'nodejs' || name === 'bun' || name === 'deno') return 'node';
  if (name === 'perl') return 'perl';
  if (name === 'ruby') return 'ruby';
  if (/^(?:g|m|n)?awk$/.test(name) || name === 'busybox-awk') return 'awk';
  if (name === 'php') return 'php';
  if (name === 'lua' || /^lua5/.test(name)) return 'lua';
  if (name === 'Rscript') return 'r';
  return null;
}

const pick = (m: RegExpExecArray, k: string): string | undefined => m.groups?.[k] ?? m.groups?.[`${k}2`];

/**
 * What a snippet of inline code may write. Returns true when the code has a write sink (so the
 * arguments handed to it may be written too).
 */
export function inlineCodeWrites(code: string, lang: Language | null, inv: Invocation, interp: CommandContext, what: string): boolean {
  if (lang === null) {
    // A language without sink data: any string in it that resolves into a protected region or
    // a control file may be written, as for an unknown command.
    codeStrings(inv, interp, code, what);
    return true;
  }
  const spec = LANGS()[lang];
  if (!spec.sinks.some((r) => r.test(code))) return false;
  const global = (r: RegExp) => new RegExp(r.source, r.flags.includes('g') ? r.flags : r.flags + 'g');
  for (const r of spec.shell) {
    for (const m of code.matchAll(global(r))) {
      const c = pick(m, 'c');
      if (!c || !c.trim()) continue;
      // A string that is not shell code on its own (a fragment joined with variables at run
      // time) is treated like the rest of the code: its absolute paths may be written.
      const parsed = interp.ctx.parse(c);
      if ('error' in parsed || parsed.problems.length > 0) interp.maybeWrites(c, inv.range, inv.name, what);
      else interp.runNested(c, interp.child(inv.st), inv.range, `${inv.name} code runs a shell command`);
    }
  }
  const direct = new Set<string>();
  for (const r of spec.direct) {
    for (const m of code.matchAll(global(r))) {
      const p = pick(m, 'p')?.trim();
      if (!p || direct.has(p)) continue;
      direct.add(p);
      interp.write('write', { value: p, confidence: 'likely', evidence: [{ range: inv.range, note: `${what} writes ${p}` }], glob: false }, inv.st, inv.range, inv.name);
    }
  }
  // The rest of the code may write any absolute path it mentions (through variables, loops ...),
  // except strings that only reach a read, a URL or a string test.
  // Relative ones (`../x`, `./x`, `~/x`) count where they resolve into a protected region, as an
  // unknown program's do (`File.write(%q(../../x))`, R's `file.create("../../x")`).
  for (const lit of writeCandidates(code)) {
    if (direct.has(lit.trim())) continue;
    interp.maybeWrites(lit, inv.range, inv.name, what);
    codeStrings(inv, interp, lit, what);
  }
  return true;
}

/**
 * Calls whose string arguments are not paths written: reads, listings, tests on names, URLs and
 * HTTP requests, printing, parsing (python, node, perl, ruby, php, lua, R spellings).
 */
const NOT_WRITTEN = new Set([
  'glob', 'iglob', 'listdir', 'scandir', 'walk', 'exists', 'isfile', 'isdir', 'islink', 'ismount', 'lexists', 'getsize', 'getmtime', 'getatime', 'getctime',
  'stat', 'lstat', 'access', 'realpath', 'abspath', 'relpath', 'readlink', 'basename', 'dirname', 'splitext', 'normpath', 'expanduser', 'samefile',
  'startswith', 'endswith', 'find', 'rfind', 'index', 'rindex', 'count', 'match', 'search', 'fullmatch', 'findall', 'finditer', 'compile', 'fnmatch', 'split', 'rsplit', 'partition', 'strip', 'rstrip', 'lstrip', 'removeprefix', 'removesuffix',
  // `f.write(TEXT)`: the text written, not a path (the path came from open()).
  'write', 'writelines',
  'get', 'post', 'put', 'head', 'options', 'request', 'urlopen', 'Request', 'urlparse', 'urljoin', 'urlsplit', 'quote', 'unquote', 'fetch', 'connect_ex', 'gethostbyname', 'create_connection',
  'print', 'printf', 'puts', 'echo', 'log', 'info', 'debug', 'warning', 'warn', 'error', 'exit', 'len', 'str', 'repr', 'format', 'encode', 'decode', 'getenv', 'which', 'load', 'loads', 'read_csv', 'read_json', 'read_text', 'read_bytes', 'safe_load',
  'readFileSync', 'readFile', 'existsSync', 'statSync', 'lstatSync', 'readdirSync', 'readdir', 'accessSync', 'realpathSync', 'readlinkSync', 'startsWith', 'endsWith', 'includes', 'indexOf', 'test', 'require', 'resolve', 'parse',
  'file_exists', 'is_file', 'is_dir', 'file_get_contents', 'strpos', 'preg_match', 'exist?', 'file?', 'directory?', 'start_with?', 'end_with?', 'include?', 'read', 'readlines', 'foreach', 'file.exists', 'dir.exists', 'readLines', 'readRDS', 'grepl',
]);

/**
 * The string literals of code that may name a path it writes: not the argument of a call in
 * NOT_WRITTEN (`requests.get('http://localhost:5000/status')`, `glob('/proc/[0-9]*')`), not a
 * URL or a piece joined to one, not one side of a comparison (`name.endswith('/ffmpeg')`,
 * `x == '/a'`, `'/a' in s`), not `open(PATH)` for reading, not awk's `getline < "FILE"`.
 */
export function writeCandidates(code: string): string[] {
  const out: string[] = [];
  const lits: Array<{ start: number; end: number; text: string }> = [];
  for (let i = 0; i < code.length; i++) {
    const q = code[i]!;
    if (q === '#' && /(^|\n)\s*$/.test(code.slice(Math.max(0, i - 40), i))) {
      // A comment line (python, perl, ruby, R): skip to its end.
      const nl = code.indexOf('\n', i);
      i = nl < 0 ? code.length : nl;
      continue;
    }
    if (q !== '"' && q !== "'" && q !== '`') continue;
    const triple = code.startsWith(q.repeat(3), i);
    const close = triple ? q.repeat(3) : q;
    let j = i + close.length;
    for (; j < code.length; j++) {
      if (code[j] === '\\') {
        j++;
        continue;
      }
      if (code.startsWith(close, j)) break;
    }
    lits.push({ start: i, end: Math.min(j + close.length, code.length), text: code.slice(i + close.length, j) });
    i = j + close.length - 1;
  }
  for (let k = 0; k < lits.length; k++) {
    const l = lits[k]!;
    if (!/[/~]/.test(l.text)) continue;
    if (l.text.includes('://')) continue;
    const before = code.slice(Math.max(0, l.start - 200), l.start);
    const after = code.slice(l.end, l.end + 12);
    // Joined to a URL: `"http://host" + "/status"`.
    if (/\+\s*$/.test(before) && k > 0 && lits[k - 1]!.text.includes('://') && /^['"`]\s*\+\s*$/.test(code.slice(lits[k - 1]!.end - 1, l.start))) continue;
    const joined = /([A-Za-z_]\w*)\s*\+\s*$/.exec(before);
    if (joined && new RegExp(`\\b${joined[1]}\\s*=\\s*f?['"][^'"]*://`).test(code)) continue;
    // A comparison or a membership test.
    if (/(?:==|!=|===|!==|\bin|\bnot in|=~|<)\s*$/.test(before) || /^\s*(?:==|!=|===|!==|in\b|not in\b)/.test(after)) continue;
    const call = enclosingCall(code, l.start);
    if (call !== null) {
      const name = call.name.split('.').pop()!;
      if (NOT_WRITTEN.has(name) || NOT_WRITTEN.has(call.name)) continue;
      // open(PATH) / open(PATH, 'r'): a read.
      if (name === 'open' && call.args !== null && !/,\s*(?:mode\s*=\s*)?['"][^'"]*[wax+]/.test(call.args)) continue;
    }
    out.push(l.text);
  }
  return out;
}

/** The call whose argument list holds position `at`: its dotted name and argument text (null when unclosed). */
function enclosingCall(code: string, at: number): { name: string; args: string | null } | null {
  let depth = 0;
  for (let i = at - 1; i >= 0 && at - i < 2000; i--) {
    const c = code[i]!;
    if (c === ')' || c === ']' || c === '}') depth++;
    else if (c === '[' || c === '{') {
      if (depth === 0) return null;
      depth--;
    } else if (c === '(') {
      if (depth > 0) {
        depth--;
        continue;
      }
      const m = /([A-Za-z_$][\w$.?]*)\s*$/.exec(code.slice(Math.max(0, i - 80), i));
      if (!m) return null;
      let d = 0;
      let end = -1;
      for (let j = i; j < code.length; j++) {
        if (code[j] === '(') d++;
        else if (code[j] === ')' && --d === 0) {
          end = j;
          break;
        }
      }
      return { name: m[1]!, args: end < 0 ? null : code.slice(i + 1, end) };
    } else if (c === '\n' && depth === 0 && !/[,(\\]\s*$/.test(code.slice(Math.max(0, i - 40), i))) return null;
  }
  return null;
}
