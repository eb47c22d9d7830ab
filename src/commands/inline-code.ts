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
import type { Interpreter, Invocation } from '../interpret/interpreter.js';

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
export function inlineCodeWrites(code: string, lang: Language | null, inv: Invocation, interp: Interpreter, what: string): boolean {
  if (lang === null) {
    // A language without sink data: every absolute path literal may be written.
    interp.maybeWrites(code, inv.range, inv.name, what);
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
  // The rest of the code may write any absolute path it mentions (through variables, loops ...).
  let rest = code;
  for (const p of direct) rest = rest.split(p).join('');
  interp.maybeWrites(rest, inv.range, inv.name, what);
  return true;
}
