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
import type { Edit } from './rewrite.js';
import type { SyntaxNode } from './tree.js';

const EXTGLOB = '@!?*+';

/** The extglob groups inside [start, end) of `source`, each as letters; none is nested in another. */
export function maskGroups(source: string, start: number, end: number): Edit[] {
  const out: Edit[] = [];
  for (let i = start; i < end; i++) {
    const c = source[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if (!EXTGLOB.includes(c) || source[i + 1] !== '(') continue;
    const close = groupEnd(source, i + 1, end);
    if (close < 0) return out;
    out.push({ start: i, end: close + 1, text: '?'.repeat(close + 1 - i) });
    i = close;
  }
  return out;
}

/** At `(`: the offset of its matching `)` before `end`, or -1 (an expansion, quote or newline inside). */
function groupEnd(source: string, open: number, end: number): number {
  let depth = 0;
  for (let i = open; i < end; i++) {
    const c = source[i]!;
    if (c === '\\') i++;
    else if (c === '\n' || c === "'" || c === '"' || c === '$' || c === '`') return -1;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/**
 * The words of the `[[ ]]` whose text begins at `from` (just after `[[`), read as bash splits
 * them, up to the closing `]]`; the groups in each word after `==`, `!=` or `=`, as letters.
 * Empty when the `]]` is not found the way bash finds it.
 */
export function testPatternEdits(source: string, from: number): Edit[] {
  const out: Edit[] = [];
  let prev = '';
  let i = from;
  while (i < source.length) {
    while (i < source.length && (source[i] === ' ' || source[i] === '\t' || source[i] === '\n' || source.startsWith('\\\n', i))) i += source[i] === '\\' ? 2 : 1;
    if (source.startsWith(']]', i) && /^[\s;&|)]?$/.test(source[i + 2] ?? '')) return out;
    const start = i;
    const compared = prev === '==' || prev === '!=' || prev === '=' || prev === '=~';
    const op = compared ? null : /^(?:&&|\|\||!=|[()!<>])/.exec(source.slice(i, i + 2));
    if (op && op[0] !== '!=') {
      prev = op[0];
      i += op[0].length;
      continue;
    }
    const end = wordEnd(source, i, prev === '=~');
    if (end <= start) return [];
    const word = source.slice(start, end);
    if (compared && prev !== '=~') out.push(...maskGroups(source, start, end));
    prev = word;
    i = end;
  }
  return [];
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

/** After a `"`, `$...` or backquote at `i`: where it ends (-1 unterminated). */
function skipQuoted(s: string, i: number): number {
  const c = s[i]!;
  if (c === '$') {
    const open = s[i + 1];
    if (open !== '(' && open !== '{') return i + 1;
    const close = open === '(' ? ')' : '}';
    let depth = 0;
    for (let j = i + 1; j < s.length; j++) {
      const d = s[j]!;
      if (d === '\\') j++;
      else if (d === '"' || d === '`' || (d === '$' && (s[j + 1] === '(' || s[j + 1] === '{'))) {
        const k = skipQuoted(s, j);
        if (k < 0) return -1;
        j = k - 1;
      } else if (d === "'" && open === '(') {
        const k = s.indexOf("'", j + 1);
        if (k < 0) return -1;
        j = k;
      } else if (d === open) depth++;
      else if (d === close && --depth === 0) return j + 1;
    }
    return -1;
  }
  for (let j = i + 1; j < s.length; j++) {
    const d = s[j]!;
    if (d === '\\') j++;
    else if (d === c) return j + 1;
    else if (c === '"' && (d === '`' || (d === '$' && (s[j + 1] === '(' || s[j + 1] === '{')))) {
      const k = skipQuoted(s, j);
      if (k < 0) return -1;
      j = k - 1;
    }
  }
  return -1;
}

/**
 * A line that is a case item's pattern list (`  --help | -!(-*)@([sD]|[hV]*))`): words joined by
 * `|`, ending at the `)` that closes the list. Null when the line is not one.
 */
const PATTERN_WORD = String.raw`(?:[^\s|()'"$\x60;&<>\\]|\\.|'[^'\n]*'|"[^"$\x60\\\n]*"|[@!?*+]\((?:[^()\n'"$\x60]|\([^()\n'"$\x60]*\))*\))+`;
// Ends at the list's `)`, or at a `|` and a line continuation (the list goes on on the next line).
const PATTERN_LINE = new RegExp(String.raw`^[ \t]*\(?[ \t]*${PATTERN_WORD}(?:[ \t]*\|[ \t]*${PATTERN_WORD})*[ \t]*(?:\)|\|[ \t]*\\$)`);

/** The groups in the case pattern lists on the lines an ERROR node spans. */
export function casePatternEdits(source: string, n: SyntaxNode): Edit[] {
  const out: Edit[] = [];
  let at = source.lastIndexOf('\n', n.start - 1) + 1;
  while (at < n.end && at < source.length) {
    const nl = source.indexOf('\n', at);
    const lineEnd = nl < 0 ? source.length : nl;
    const m = PATTERN_LINE.exec(source.slice(at, lineEnd));
    if (m) out.push(...maskGroups(source, at, at + m[0].length));
    at = lineEnd + 1;
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
    out.push({ start: name, end: name, text: '{' }, { start: name + m[1]!.length, end: name + m[1]!.length, text: '}' });
  }
  return out;
}
