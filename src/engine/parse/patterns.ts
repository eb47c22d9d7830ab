/**
 * Extglob groups (`@(a|b)`, `!(-*)`, `?(r)`, `*(x)`, `+(x)`) in the pattern words bash reads
 * them in: the right side of `==`, `!=` and `=` in `[[ ]]`, and case patterns. With extglob on
 * (bash-completion, many Debian scripts) each is one pattern word to bash; tree-sitter-bash 0.25.1
 * reads the parenthesis as grouping or a subshell and leaves an ERROR (or a test that swallows the
 * rest of a function). The group is shown to the grammar as `?`s of the same length (letters after
 * a quoted part trip the grammar: `*"-t"x)`); the IR reads every word from the original text, so
 * the pattern keeps its value. A group holding an expansion, a quote or a newline is left alone:
 * masking it would hide a command substitution.
 */
import { bracedName, type Edit } from './rewrite.js';
import { skipQuoted } from './skip.js';
import type { SyntaxNode } from './tree.js';

const EXTGLOB = '@!?*+';

/**
 * The extglob groups inside [start, end) of `source` (quoted text skipped), as `?`s. With
 * `expansions`, expansions, command substitutions and quoted parts inside a group keep their text,
 * so the grammar still builds their nodes (a `$(...)` in a pattern still runs); without, such a
 * group is left alone (in `[[ ]]` and case patterns the grammar reads `+($x)` itself).
 */
export function maskGroups(source: string, start: number, end: number, expansions = false): Edit[][] {
  const out: Edit[][] = [];
  walkUnquoted(source, start, end, (i) => {
    const c = source[i]!;
    if (c === '$') return i + 1;
    if (!EXTGLOB.includes(c) || source[i + 1] !== '(') return i;
    const g = groupRuns(source, i, end, expansions);
    if (!g) return -1;
    out.push(g.edits);
    return g.close;
  });
  return out;
}

/**
 * Visits each character of [start, end) that is neither quoted nor in a substitution, backslash
 * pairs skipped; `visit` answers the offset of the last character it consumed, or -1 to stop.
 * False when stopped, or when a quote or substitution is unterminated before `end`.
 */
function walkUnquoted(source: string, start: number, end: number, visit: (i: number) => number): boolean {
  for (let i = start; i < end; i++) {
    const c = source[i]!;
    if (c === '\\') i++;
    else if (c === "'") {
      const j = source.indexOf("'", i + 1);
      if (j < 0 || j >= end) return false;
      i = j;
    } else if (c === '"' || c === '`' || (c === '$' && (source[i + 1] === '(' || source[i + 1] === '{'))) {
      const j = skipQuoted(source, i);
      if (j < 0 || j > end) return false;
      i = j - 1;
    } else {
      i = visit(i);
      if (i < 0) return false;
    }
  }
  return true;
}

/** At an extglob operator: its group's literal characters as `?` runs, and the offset of its `)`. */
function groupRuns(source: string, at: number, end: number, expansions: boolean): { edits: Edit[]; close: number } | null {
  const edits: Edit[] = [];
  let run = -1;
  const flush = (i: number) => {
    if (run >= 0 && i > run) edits.push({ start: run, end: i, text: '?'.repeat(i - run) });
    run = -1;
  };
  let depth = 0;
  for (let i = at; i < end; i++) {
    const c = source[i]!;
    const expansion = c === '$' && /[({A-Za-z_]/.test(source[i + 1] ?? '');
    if (c === '\n') return null;
    if (c === "'" || c === '"' || c === '`' || expansion) {
      if (!expansions) return null;
      flush(i);
      const j = skipPart(source, i, end, edits);
      if (j <= 0 || j > end) return null;
      i = j - 1;
      continue;
    }
    if (run < 0) run = i;
    if (c === '\\') i++;
    else if (c === '(' && (depth > 0 || i === at + 1)) depth++;
    else if (c === '(') return null;
    else if (c === ')' && --depth === 0) {
      flush(i + 1);
      return { edits, close: i };
    }
  }
  return null;
}

/**
 * The words of the `[[ ]]` whose text begins at `from` (just after `[[`), read as bash splits
 * them, up to the closing `]]`; the groups in each word after `==`, `!=` or `=`, as `?`s.
 * Empty when the `]]` is not found the way bash finds it.
 */
export function testPatternEdits(source: string, from: number): Edit[][] {
  const out: Edit[][] = [];
  let prev = '';
  let prevStart = -1;
  let i = from;
  while (i < source.length) {
    while (i < source.length && (source[i] === ' ' || source[i] === '\t' || source[i] === '\n' || source.startsWith('\\\n', i))) i += source[i] === '\\' ? 2 : 1;
    if (source.startsWith(']]', i) && /^[\s;&|)]?$/.test(source[i + 2] ?? '')) return out;
    const start = i;
    const compared = prev === '==' || prev === '!=' || prev === '=' || prev === '=~';
    const op = compared ? null : /^(?:&&|\|\||!=|[()!<>])/.exec(source.slice(i, i + 2));
    if (op && op[0] !== '!=') {
      prev = op[0];
      prevStart = i;
      i += op[0].length;
      continue;
    }
    const end = wordEnd(source, i, prev === '=~');
    if (end <= start) return [];
    const word = source.slice(start, end);
    if (compared && prev !== '=~') out.push(...maskGroups(source, start, end));
    // A lone word (`[[ ^4\.[0-4]\.* ]]`, true when not empty: no pattern, no operator after it):
    // the grammar loses the `]]` after a bracket expression in it; bash reads its brackets as
    // letters, and so may the grammar.
    else if (!compared && word.includes('[') && /^[ \t]*(?:\]\]|&&|\|\||\))/.test(source.slice(end, end + 40))) {
      const b = bracketLetters(source, start, end);
      if (b.length) out.push(b);
    }
    // `( $1 =~ $re)`: the grammar's regex runs on over the `)` that closes the group; a blank
    // before it (bash ends the word there too) keeps them apart.
    if (prev === '=~' && source[end] === ')') out.push([{ start: end, end: end, text: ' ' }]);
    // A bracket expression in a regex (`\[([^]]*)$`): the grammar ends the regex at its `]]`.
    if (prev === '=~' && word.includes('[')) {
      const r = regexEdits(source, start, end);
      if (r) out.push(r);
    }
    // `=` (bash's `==`): the grammar reads a pattern after a lone `=` as a regex that runs on
    // past `&&` (`[[ $a = $m/$v && $b ]]` loses its `]]`); after `==` it reads the pattern. The
    // `==` token maps back onto the `=` the IR reads.
    if (prev === '=' && !/[=!<>]$/.test(source.slice(0, prevStart).trimEnd())) out.push([{ start: prevStart, end: prevStart + 1, text: '==' }]);
    prev = word;
    prevStart = start;
    i = end;
  }
  return [];
}

/** The unquoted `[` and `]` of a word outside its expansions, each shown as a letter. */
function bracketLetters(source: string, start: number, end: number): Edit[] {
  const out: Edit[] = [];
  const whole = walkUnquoted(source, start, end, (i) => {
    if (source[i] === '[' || source[i] === ']') out.push({ start: i, end: i + 1, text: '_' });
    return i;
  });
  return whole ? out : [];
}

/** The end of the `[[ ]]` word at `i`: blanks inside an extglob group (or a regex's parentheses) are the word's own. */
function wordEnd(source: string, i: number, regex: boolean): number {
  let depth = 0;
  const start = i;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') i += 2;
    else if (c === "'") {
      const j = source.indexOf("'", i + 1);
      if (j < 0) return -1;
      i = j + 1;
    } else if (c === '"' || c === '$' || c === '`') {
      // Inside these the word goes on to their end; a group holding one is not masked anyway.
      const j = skipQuoted(source, i);
      if (j < 0) return -1;
      i = j;
    } else if (c === '(' && depth === 0 && !regex && !(i > start && EXTGLOB.includes(source[i - 1]!))) return i;
    else if (c === '(') {
      depth++;
      i++;
    } else if (c === ')') {
      if (depth === 0) return i;
      depth--;
      i++;
    } else if (depth === 0 && (c === ' ' || c === '\t' || c === '\n' || ';&|<>'.includes(c))) return i;
    else i++;
  }
  return i;
}

/**
 * A line that is a case item's pattern list (`  --help | -!(-*)@([sD]|[hV]*))`): words joined by
 * `|`, ending at the `)` that closes the list. Null when the line is not one.
 */
// (the name is taken whole: a `$name` that could also end early and go on as letters makes the
// repetitions below try every split, exponential on `$a$a$a...`)
const NAME = String.raw`\$[A-Za-z_][A-Za-z0-9_]*(?![A-Za-z0-9_])|\$\{[^}\n'"$\x60]*\}`;
const PATTERN_WORD = String.raw`(?:[^\s|()'"$\x60;&<>\\]|\\.|${NAME}|'[^'\n]*'|"[^"$\x60\\\n]*"|[@!?*+]\((?:[^()\n'"$\x60]|${NAME}|\([^()\n'"$\x60]*\))*\))+`;
// Ends at the list's `)`, or at a `|` and a line continuation (the list goes on on the next line).
const PATTERN_LINE = new RegExp(String.raw`^[ \t]*\(?[ \t]*${PATTERN_WORD}(?:[ \t]*\|[ \t]*${PATTERN_WORD})*[ \t]*(?:\)|\|[ \t]*\\$)`);

/** The groups (the edits of each) in the case pattern lists on the lines an ERROR node spans. */
export function casePatternEdits(source: string, n: SyntaxNode): Edit[][] {
  const out: Edit[][] = [];
  let at = source.lastIndexOf('\n', n.start - 1) + 1;
  while (at < n.end && at < source.length) {
    const nl = source.indexOf('\n', at);
    const lineEnd = nl < 0 ? source.length : nl;
    const m = PATTERN_LINE.exec(source.slice(at, lineEnd));
    if (m) out.push(...maskGroups(source, at, at + m[0].length), ...escapeEdits(source, at, at + m[0].length));
    at = lineEnd + 1;
  }
  return out;
}

/**
 * `$MIME\;*)`: the grammar rejects a backslash escape right after an expansion or a quoted part
 * in a case pattern (`a\;b` it reads). The escaped character is literal to bash, and the IR reads
 * the pattern from the original text: the escape is shown as two letters, one word still.
 */
function escapeEdits(source: string, start: number, end: number): Edit[][] {
  const out: Edit[][] = [];
  for (let i = start; i < end; i++) {
    const c = source[i]!;
    if (c === "'" || c === '"') {
      const j = source.indexOf(c, i + 1);
      if (j < 0 || j >= end) return out;
      i = j;
    } else if (c === '$' && source[i + 1] === '{') {
      const j = source.indexOf('}', i);
      if (j < 0 || j >= end) return out;
      i = j;
    } else if (c === '\\') {
      const e = source.charCodeAt(i + 1);
      if (i + 1 < end && e > 32 && e < 127 && i > start && /(?:\$[A-Za-z_][A-Za-z0-9_]*|[}'"])$/.test(source.slice(Math.max(start, i - 64), i))) out.push([{ start: i, end: i + 2, text: 'xx' }]);
      i++;
    }
  }
  return out;
}

/** Every `[[` token of the tree (the grammar keeps it even inside an ERROR). */
export function testOpeners(root: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (!n.named && n.type === '[[') out.push(n);
    for (const c of n.children) stack.push(c);
  }
  return out;
}

/**
 * `$((16#$x))`: a base prefix glued to a plain `$name` in arithmetic, which the grammar rejects
 * but reads as `16#${x}` (the same value to bash). Two insertions, so the name keeps its range.
 */
export function arithmeticBaseEdits(source: string, n: SyntaxNode): Edit[] {
  const out: Edit[] = [];
  const re = /(?<![\w#])\d+#\$([A-Za-z_][A-Za-z0-9_]*)/g;
  const text = source.slice(n.start, n.end);
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const name = n.start + m.index + m[0].length - m[1]!.length;
    out.push(...bracedName(name, name + m[1]!.length));
  }
  if (out.length > 0) return out;
  // `$((0x${v%:*}))`: any other literal glued before a `${`, which the grammar cannot read at all,
  // is shown as blanks. The IR keeps an arithmetic expansion as its original text and the
  // substitutions in it, which stay.
  const glued = /(?<![\w#$])[A-Za-z0-9_#]+(?=\$\{)/g;
  for (let m = glued.exec(text); m; m = glued.exec(text)) out.push({ start: n.start + m.index, end: n.start + m.index + m[0].length, text: ' '.repeat(m[0].length) });
  return out;
}

/**
 * Extglob groups in command words (`ls -d $d/!(CVS)`, `f=(!(CVS))`, `for s in $d/!($skip); do`,
 * also inside `$( )` and backquotes) that start inside one of `ranges` (the ERROR nodes, and the
 * nodes with a MISSING token; a group overlapping one). The text is read from its start with bash's quoting (an ERROR can
 * begin inside a string the grammar misread), so quoted text, `${...}`, `$'...'`, comments,
 * heredoc bodies (`bodies`), `[[ ]]` (./testPatternEdits) and arithmetic (`(( a*(b+1) ))`, where
 * `*(` is multiplication) are never taken for one.
 */
export function wordGlobEdits(source: string, ranges: readonly [number, number][], bodies: readonly [number, number][]): Edit[][] {
  const out: Edit[][] = [];
  if (ranges.length === 0 || !/[@!?*+]\(/.test(source)) return out;
  const inRange = (from: number, to: number) => ranges.some(([a, b]) => a <= to && from < b);
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') i++;
    else if (c === '\n') {
      const body = bodies.find(([a]) => a === i + 1);
      if (body) i = body[1] - 1;
    } else if (c === "'" || (c === '$' && source[i + 1] === "'")) {
      // `$'...'` takes backslash escapes; `'...'` none.
      const ansi = c === '$';
      let j = ansi ? i + 2 : i + 1;
      while (j < source.length && source[j] !== "'") j += ansi && source[j] === '\\' ? 2 : 1;
      if (j >= source.length) return out;
      i = j;
    } else if (c === '"' || (c === '$' && (source[i + 1] === '{' || source.startsWith('((', i + 1)))) {
      const j = skipQuoted(source, i);
      if (j < 0) return out;
      i = j - 1;
    } else if (c === '$') {
      // `$(` (its commands are read on, as any), `$name` or a special parameter (`$!(` is not a group).
      if (source[i + 1] !== '(') i++;
    } else if (c === '#' && (i === 0 || /[\s;&|(]/.test(source[i - 1]!))) {
      const nl = source.indexOf('\n', i);
      if (nl < 0) return out;
      i = nl - 1;
    } else if (c === '[' && source[i + 1] === '[' && /^[\s;&|(]?$/.test(source[i - 1] ?? '') && /\s/.test(source[i + 2] ?? '')) {
      const j = source.slice(i + 2).search(/\s\]\](?=[\s;&|)]|$)/);
      if (j < 0) return out;
      i = i + 2 + j + 2;
    } else if (c === '(' && source[i + 1] === '(' && !EXTGLOB.includes(source[i - 1] ?? '')) {
      const j = source.indexOf('))', i + 2);
      if (j < 0) return out;
      i = j + 1;
    } else if (EXTGLOB.includes(c) && source[i + 1] === '(') {
      const g = groupRuns(source, i, source.length, true);
      if (!g) continue;
      if (inRange(i, g.close)) out.push(g.edits);
      i = g.close;
    }
  }
  return out;
}

/**
 * `a[$m/$v]=x`: in a subscript the grammar glues `$v` to the word before it and fails; it reads
 * `a[${m}/${v}]`, the same to bash. Each plain `$name` of the subscript gets its braces (two
 * insertions, the name keeps its range).
 */
export function subscriptEdits(source: string, n: SyntaxNode): Edit[] {
  const out: Edit[] = [];
  for (let i = n.start; i < n.end; i++) {
    const c = source[i]!;
    if (c === '\\') i++;
    else if (c === "'") {
      const j = source.indexOf("'", i + 1);
      if (j < 0) return out;
      i = j;
    } else if (c === '"' || c === '`' || (c === '$' && (source[i + 1] === '(' || source[i + 1] === '{'))) {
      const j = skipQuoted(source, i);
      if (j < 0) return out;
      i = j - 1;
    } else if (c === '$') {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i + 1, n.end));
      if (!m) continue;
      out.push(...bracedName(i + 1, i + 1 + m[0].length));
      i += m[0].length;
    }
  }
  return out;
}

/** At an extglob operator (`@+!*?`) directly before `(`: the group to its `)`, as letters. */
export function extglobGroupAt(source: string, at: number): Edit | null {
  if (at < 0 || !'@+!*?'.includes(source[at] ?? '') || source[at + 1] !== '(') return null;
  let depth = 0;
  for (let i = at + 1; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') i++;
    else if (c === '\n' || c === "'" || c === '"' || c === '$' || c === '`') return null;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return { start: at, end: i + 1, text: 'x'.repeat(i + 1 - at) };
  }
  return null;
}

/**
 * The literal characters of the regex word [start, end) as letters; quoted parts and expansions
 * keep their text (a plain `$name` gets braces, so a letter after it does not lengthen the name).
 * The IR reads the regex from the original text. Null when a part does not end inside the word.
 */
function regexEdits(source: string, start: number, end: number): Edit[] | null {
  const edits: Edit[] = [];
  let run = -1;
  const flush = (i: number) => {
    if (run >= 0 && i > run) edits.push({ start: run, end: i, text: source.slice(run, i).replace(/[^\n]/g, 'x') });
    run = -1;
  };
  for (let i = start; i < end; i++) {
    const c = source[i]!;
    const name = c === '$' ? /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i + 1, end)) : null;
    if (c === "'" || c === '"' || c === '`' || (c === '$' && (source[i + 1] === '(' || source[i + 1] === '{')) || name) {
      flush(i);
      const j = skipPart(source, i, end, edits);
      if (j <= 0 || j > end) return null;
      i = j - 1;
      continue;
    }
    if (run < 0) run = i;
    if (c === '\\') i++;
  }
  flush(end);
  return edits;
}

/**
 * Past the quoted part, expansion or `$name` at `i` (<= 0 where it does not end). A `$name` is
 * written `${name}` into `edits` (two insertions, the name keeps its range): a `?` or a letter
 * right after a plain `$name` would change how the grammar (or bash) reads it.
 */
function skipPart(source: string, i: number, end: number, edits: Edit[]): number {
  if (source[i] === "'") return source.indexOf("'", i + 1) + 1;
  const name = source[i] === '$' ? /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i + 1, end)) : null;
  if (!name) return skipQuoted(source, i);
  const j = i + 1 + name[0].length;
  edits.push(...bracedName(i + 1, j));
  return j;
}
