/**
 * Where bash stops reading: a script whose top level runs `exec COMMAND` on a line of its own is
 * replaced by COMMAND there, and bash never reads the lines after it. Bash reads a script one
 * complete command at a time and runs each before it reads the next (which is why editing a
 * running script changes what it does), so text after that line is never parsed by bash.
 *
 * That matters most for the polyglot scripts behind a `sh` shebang: Tcl/expect (`# \` then
 * `exec tclsh "$0" "$@"`), Perl, Python. The grammar reads the whole file: where the rest is not
 * bash it fills it with ERROR nodes, each a parse-error report on code bash never sees (and the
 * repairs of ./recover.ts re-parse the whole file up to four times for nothing: a 1,000-line
 * expect script took ~190 ms), and where it happens to parse, the rest is analyzed as commands
 * bash never runs (`eval $argv` in Tcl became a BG4002 finding).
 *
 * The input is cut after the `exec` line (./index.ts: in a tree without errors the tree itself is
 * cut, `execTail`; in one with errors the text up to the line is parsed alone, `endsInExec`),
 * only if all of these hold:
 * - the line is a top-level command on its own (not in a list, pipeline, function, `if`,
 *   subshell; not sent to the background; no redirect), named by the plain word `exec`;
 * - its first argument is a word that cannot expand to no field (a literal word not starting
 *   with `-`, or a quoted string without `@`): `exec` without a command only applies its
 *   redirects and the shell goes on, and a failing `exec` makes a non-interactive shell exit;
 * - nothing before it can change that: no `execfail`, `BASHOPTS`, `noexec`/`set -n`, `alias`,
 *   `enable`, or a function named `exec`;
 * - the text up to the end of that line parses without errors on its own (which is what bash reads
 *   before it runs the line), and the line starts at or before the first ERROR or MISSING node below the
 *   root (an error before it is one bash meets too).
 * Otherwise the grammar's tree of the whole input is used. A line with more after `exec COMMAND`
 * (`exec foo; bar`) is kept whole: the cut is only ever at the end of a line.
 */
import type { SyntaxNode } from './tree.js';

/** How many `exec` lines are tried (in a tree with errors each costs a parse of the text up to it). */
const MAX_CANDIDATES = 3;

/** What, earlier in the input, could keep `exec` from replacing the shell. */
const EXEC_CHANGED = /\bexecfail\b|\bBASHOPTS\b|\bnoexec\b|\bset[ \t]+[-+][A-Za-z]*n|\bexec[ \t]*\(|\bfunction[ \t]+exec\b|\balias\b|\benable\b/;

/** A literal word: no expansion, quote, glob, brace, tilde or option dash. */
const LITERAL_WORD = /^[A-Za-z0-9_./+:,%=@][A-Za-z0-9_./+:,%=@-]*$/;

/**
 * Offset of the first ERROR or MISSING node below the root in document order, or Infinity. A root
 * that is itself an ERROR (the grammar could not make a program of its children) says nothing
 * about where the trouble starts; the prefix parse decides then.
 */
export function firstErrorAt(root: SyntaxNode): number {
  let best = Infinity;
  const stack = [...root.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.start >= best) continue;
    if (n.type === 'ERROR' || n.missing) {
      best = n.start;
      continue;
    }
    for (const c of n.children) stack.push(c);
  }
  return best;
}

/** A line that looks like a top-level `exec COMMAND`: where `exec` starts, and where the line ends. */
export interface ExecLine {
  at: number;
  /** After the line's newline (after the last line of a continued one), or the end of the input. */
  end: number;
}

/**
 * The lines that look like a top-level `exec COMMAND` and start at or before `before`, in order,
 * at most MAX_CANDIDATES. Each still has to pass `execTail` or `endsInExec`. `before` may be given
 * as a function, called only if some line looks like one (firstErrorAt walks the whole tree: on a
 * 150 KB HTML page behind a `sh` shebang, with no such line, that walk was ~10 ms of a lint).
 */
export function execLines(source: string, before: number | (() => number)): ExecLine[] {
  const out: ExecLine[] = [];
  if (!source.includes('exec')) return out;
  const re = /^[ \t]*exec[ \t]+[^\s\-<>&|;]/gm;
  let bound: number | null = typeof before === 'number' ? before : null;
  for (let m = re.exec(source); m && m.index <= (bound ??= (before as () => number)()) && out.length < MAX_CANDIDATES; m = re.exec(source)) {
    if (EXEC_CHANGED.test(source.slice(0, m.index))) break;
    // A line ending in a backslash goes on: bash reads the next one as part of the command.
    let nl = source.indexOf('\n', m.index);
    while (nl > 0 && continues(source, nl)) nl = source.indexOf('\n', nl + 1);
    out.push({ at: m.index + m[0].indexOf('exec'), end: nl < 0 ? source.length : nl + 1 });
  }
  return out;
}

/** True when the newline at `nl` follows an odd number of backslashes (a line continuation). */
function continues(source: string, nl: number): boolean {
  let i = nl - 1;
  while (i >= 0 && source[i] === '\\') i--;
  return (nl - 1 - i) % 2 === 1;
}

/** True for a plain `exec WORD ...` command whose first argument cannot expand to no field. */
function isExecCommand(cmd: SyntaxNode | undefined, source: string): boolean {
  if (!cmd || cmd.type !== 'command') return false;
  if (cmd.children.some((c) => c.type.endsWith('_redirect'))) return false;
  const name = cmd.children.find((c) => c.field === 'name');
  if (!name || name.children.length !== 1 || name.children[0]!.type !== 'word' || source.slice(name.start, name.end) !== 'exec') return false;
  const first = cmd.children[cmd.children.indexOf(name) + 1];
  if (!first || first.field !== 'argument') return false;
  const text = source.slice(first.start, first.end);
  if (first.type === 'word') return LITERAL_WORD.test(text);
  if (first.type === 'raw_string') return true;
  if (first.type === 'string') return !text.includes('@');
  return false;
}

const TRAILING = (t: string): boolean => t === 'comment' || t === ';' || t === '\n';

/** True when the tree (of the text up to an `exec` line) ends in a top-level `exec COMMAND`. */
export function endsInExec(root: SyntaxNode, source: string): boolean {
  const kids = root.children;
  let i = kids.length - 1;
  while (i >= 0 && TRAILING(kids[i]!.type)) i--;
  return isExecCommand(kids[i], source);
}

/**
 * For a tree without errors: the root cut after the first candidate line that is a top-level
 * `exec COMMAND` with nothing but a comment after it on its line, or null. No parse is needed:
 * every top-level node before that line ends before it.
 */
export function execTail(root: SyntaxNode, source: string, lines: readonly ExecLine[]): SyntaxNode | null {
  const kids = root.children;
  for (const line of lines) {
    if (line.end >= source.length) return null;
    const i = kids.findIndex((k) => k.start >= line.at);
    if (i < 0 || kids[i]!.start !== line.at || !isExecCommand(kids[i], source)) continue;
    let j = i + 1;
    while (j < kids.length && kids[j]!.start < line.end && TRAILING(kids[j]!.type)) j++;
    if (j < kids.length && kids[j]!.start < line.end) continue;
    return { ...root, end: line.end, children: kids.slice(0, j) };
  }
  return null;
}
