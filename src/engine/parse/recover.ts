/**
 * Targeted re-parse: where tree-sitter-bash reads an input differently from bash (a parse error
 * on something bash accepts, or a clean-looking tree bash would not build), parse a corrected
 * copy of the text whose every change bash reads the same way, and map that tree back onto the
 * original offsets (./rewrite.ts). Each repair is a mechanism of bash's grammar, not a pattern of
 * one input:
 *
 * - heredocs (./heredocs.ts): each delimiter is replaced by a fresh one the body cannot contain,
 *   the delimiter line bash ends the body at by that one, an unterminated body gets its
 *   terminator appended, and a quoted (literal) body is hidden from the grammar's scanner (its
 *   text is read from the original anyway). Accepted only if the new tree has exactly the heredocs
 *   bash reads, each ending where bash ends it.
 * - a newline the grammar carried a command over (./sanity.ts) becomes `;`: bash ends a simple
 *   command at an unescaped newline (`A=1 B=2` then a command on the next line).
 * - `` `` `` (empty command substitution, one token to the grammar, which glues the words around
 *   it into one) is written `$(:)`, the `:` dropped from the tree.
 * - assignments with redirects and no command (`n=$((x+0)) 2>/dev/null`): a `:` is inserted for
 *   the grammar and dropped from the tree again.
 * - a single-quoted blank in a `case` pattern (`less' '45*)`): the quoted text, literal to bash,
 *   is shown to the grammar as letters.
 * - `[ ...` without its `]` (bash -n accepts it: `[` is a command that fails at run time), and
 *   `[ \( ... \) ]` (POSIX grouping, which the grammar's test_command lacks): the `[` is shown to
 *   the grammar as a command name.
 * - `for NAME do` (bash's `for NAME; do`, looping over "$@"): the blank before `do` becomes `;`.
 * - `((` whose inner parenthesis does not close right before another `)` (`((a; b) | c)`): two
 *   subshells to bash, arithmetic to the grammar; a blank is inserted between the two `(`.
 * - `${...}` the grammar lost the closing brace of: inside the expansion (outside quotes and
 *   nested expansions) `;&|<>` and blanks are literal to bash, so they get a backslash,
 *   `$name` is written `${name}` (the grammar rejects `${x:$i:1}` but reads `${x:${i}:1}`), and
 *   the content of a single-quoted part (`${v//'/'/_}`), literal to bash, is shown to the
 *   grammar as letters. The IR reads every word from the original text, so none of this changes
 *   a value; it only lets the grammar find the expansion's real extent.
 * - operators the grammar lacks in some places: `<>` (read-write), a here-string after a
 *   compound statement, `! ((` (./read-write.ts: shown without them, put back in the tree); `;;&`
 *   or `;&` ending a case's last item (`;;`, the same there); `X=|y` (a blank after the `=`).
 * - a C-style `for` header with subscripts (letters: the IR reads only its substitutions), a
 *   compound assignment as an argument of `eval`/`let` (its parentheses as letters), and a line
 *   continuation right after `=~` (blanks).
 *
 * The repaired tree is used only when it has no error left (or, for heredocs, when the original
 * tree was known wrong). Everything else keeps the grammar's tree: an ERROR stays "cannot
 * analyze", never "safe".
 */
import { scanSource, type BashHeredoc } from './heredocs.js';
import { applyEdits, bracedName, mapTree, type Edit } from './rewrite.js';
import { hereStringEdits, negatedArithmeticEdit, readWriteEdits, restoreHereStrings, restoreNegations, restoreReadWrite } from './read-write.js';
import { arithmeticBaseEdits, casePatternEdits, extglobGroupAt, testOpeners, subscriptEdits, testPatternEdits, wordGlobEdits } from './patterns.js';
import { findAllJoinedLines, findJoinedLines, type JoinedLine } from './sanity.js';
import { errorRootAsProgram, pushChildrenContaining, type SyntaxNode } from './tree.js';
import { skipBackquote, skipDouble, skipNested, skipQuoted } from './skip.js';

export interface Tree {
  root: SyntaxNode;
  hasErrors: boolean;
  depth: number;
}

/** Parses an edited text; `failed` (why) when it could not (time budget, depth): the repair is dropped. */
export type Reparse = (text: string) => Tree | { failed: string };

type Joined = JoinedLine | null;

export type Recovered =
  /** Keep the grammar's tree; `joined` is ./sanity.ts's verdict on it. */
  | { kind: 'original'; joined: Joined }
  | { kind: 'recovered'; tree: Tree; joined: Joined }
  /** The grammar's tree is known wrong (a heredoc bash reads differently) and no repair held. */
  | { kind: 'wrong'; message: string; at: number };

const MAX_ROUNDS = 4;

/** Characters of an unquoted heredoc body that bash reads literally and the grammar may not. */
const HEREDOC_LITERAL = `'"()[]{}<>|;&*?#~!`;

/**
 * No repair is tried on a tree with more ERROR/MISSING nodes than this. The repairs are for a few
 * grammar gaps in a shell script; a text with thousands of errors is not one (an HTML page or a Tcl
 * script behind a `sh` shebang: 2,126 errors on a 150 KB page), its repaired tree keeps its errors,
 * and each round is one more full parse and copy. On that page the four rounds ran into the parse
 * time budget (limits.ts) at a point that depended on the machine's load, so the line reported
 * changed from run to run; without the rounds the outcome is the grammar's tree, every time, in a
 * fifth of the time. The most in any other of the machine's 320 scripts or the six repositories
 * docs/lint.md lists is 169.
 */
export const MAX_REPAIR_ERRORS = 1000;

export function recover(source: string, first: Tree, reparse: Reparse): Recovered {
  const scan = scanSource(source);
  const heredocs = scan?.heredocs ?? null;
  // The grammar never reads an unterminated body the way bash does (ERROR or a missing end).
  const heredocWrong = heredocs !== null && heredocs.length > 0 && (heredocs.some((h) => !h.terminated) || !heredocsAgree(first.root, source, heredocs));
  // `` `` `` (an empty command substitution) is one token to the grammar, which then glues the
  // words around it into one (`touch `` /x` became a command named "touch `` /x").
  const emptyBackquotes = scan?.emptyBackquotes ?? [];
  const firstJoined = findJoinedLines(first.root, source);
  const original: Recovered = { kind: 'original', joined: firstJoined };
  // Arithmetic in a substring's offset or length (`${a[@]:i-1}`): a clean tree the IR has no
  // reading for. Shown to the grammar as a plain word (the IR reads the original text, and a
  // substring is not modelled: its value stays unknown).
  const gaps = first.hasErrors || !SUBSTRING_ARITH.test(source) ? [] : substringEdits(first.root, []);
  const braces = escapedBraceEdits(source);
  if (!first.hasErrors && !heredocWrong && !firstJoined && emptyBackquotes.length === 0 && gaps.length === 0 && braces.length === 0) return original;
  // Counted once (at most MAX_REPAIR_ERRORS + 1, so exactly whenever the repairs go on).
  const firstErrors = first.hasErrors ? errorCount(first.root, MAX_REPAIR_ERRORS + 1) : 0;
  if (firstErrors > MAX_REPAIR_ERRORS) return original;

  const edits: Edit[] = heredocWrong ? heredocEdits(source, heredocs!) : [];
  // Quotes in the body of an unquoted heredoc are literal to bash (only `\`, `$` and backquotes
  // are special there); inside `$( )` the grammar can take one for an opening quote
  // (`F('${x}')` in a PowerShell heredoc). With errors in the tree, they are shown as letters.
  if (first.hasErrors && heredocs) {
    for (const h of heredocs) {
      if (h.quoted) continue;
      for (let i = h.bodyStart; i < h.bodyEnd; i++) {
        const c = source[i]!;
        if (c === '\\') i++;
        else if (c === '$' && (source[i + 1] === '{' || source[i + 1] === '(')) {
          // An expansion keeps its text: the grammar reads it as in any word.
          const j = skipNested(source, i);
          if (j < 0 || j > h.bodyEnd) break;
          i = j - 1;
        } else if (c === '`') {
          const j = skipBackquote(source, i + 1);
          if (j < 0 || j > h.bodyEnd) break;
          i = j - 1;
        } else if (HEREDOC_LITERAL.includes(c) && !overlaps(edits, i, i + 1)) edits.push({ start: i, end: i + 1, text: 'x' });
      }
    }
  }
  for (const g of [...gaps, ...braces, ...(first.hasErrors ? zshFlagEdits(source) : [])]) if (!overlaps(edits, g.start, g.end)) edits.push(g);
  // `<<\DOC_END` alone on its line (a comment block nothing reads): a redirect with no command,
  // which the grammar rejects; a `:` is inserted, its node dropped again.
  if (first.hasErrors) for (const h of heredocs ?? []) if (/(?:^|\n)[ \t]*$/.test(source.slice(0, h.op)) && /^[ \t]*(?:\n|$)/.test(source.slice(h.wordEnd)) && !overlaps(edits, h.op, h.op)) edits.push({ start: h.op, end: h.op, text: ': ' });
  for (const at of emptyBackquotes) {
    // `$(:)`: the grammar rejects an empty `$()`; the inserted `:` maps to no original text, so
    // its node is dropped and the substitution stays empty.
    if (!overlaps(edits, at, at + 2)) {
      edits.push({ start: at, end: at + 1, text: '$(' }, { start: at + 1, end: at + 1, text: ':' }, { start: at + 1, end: at + 2, text: ')' });
    }
  }
  const knownWrong = heredocWrong || emptyBackquotes.length > 0;
  let tree = first;
  let joined = firstJoined;
  let tried = false;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const more = treeEdits(source, tree, joined, edits);
    if (more.length === 0 && tried) break;
    edits.push(...more);
    if (edits.length === 0) break;
    const rw = applyEdits(source, edits);
    if (!rw) break;
    const parsed = reparse(rw.text);
    if ('failed' in parsed) break;
    tried = true;
    const mapped = mapTree(parsed.root, rw);
    restoreReadWrite(mapped.root, source);
    restoreHereStrings(mapped.root, source);
    restoreNegations(mapped.root, source, edits.filter((e) => e.end === e.start + 1 && source[e.start] === '!' && e.text === ' ').map((e) => e.start));
    tree = { root: mapped.root, hasErrors: mapped.hasErrors, depth: parsed.depth };
    joined = findJoinedLines(tree.root, source);
    if (!tree.hasErrors && !joined) break;
  }
  // A grammar tree with errors is reported as such (on its lines); one without is known wrong.
  const fallback = first.hasErrors || !knownWrong ? original : wrong(heredocWrong ? heredocs![0]!.op : emptyBackquotes[0]!, heredocWrong ? heredocs![0]!.delimiter : null);
  if (!tried) return fallback;
  if (heredocWrong && !heredocsAgree(tree.root, source, heredocs!)) return fallback;
  if (emptyBackquotes.length > 0 && (tokensOf(tree.root, '``').length > 0 || !emptyBackquotes.every((at) => hasSubstitutionAt(tree.root, at)))) return fallback;
  if (!tree.hasErrors && !joined) return { kind: 'recovered', tree, joined };
  // Still broken (a real error elsewhere): the repaired tree is closer to bash when the grammar's
  // own tree was known wrong, or when the repairs removed errors (fewer spurious reports).
  if (knownWrong || braces.length > 0 || errorCount(tree.root, firstErrors) < firstErrors) return { kind: 'recovered', tree, joined };
  return original;
}

function hasSubstitutionAt(root: SyntaxNode, at: number): boolean {
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'command_substitution' && n.start === at && n.end === at + 2) return true;
    for (const c of n.children) if (c.start <= at && at < c.end) stack.push(c);
  }
  return false;
}

function tokensOf(root: SyntaxNode, type: string): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (!n.named && n.type === type) out.push(n);
    for (const c of n.children) stack.push(c);
  }
  return out;
}

/**
 * ERROR and MISSING nodes in the tree, counted up to `upTo`; the `>` of `N<>file` is not one (the
 * grammar has no `<>`, the IR reads it: src/engine/syntax/redirects.ts).
 */
export function errorCount(root: SyntaxNode, upTo = Infinity): number {
  let n = 0;
  const stack = [root];
  while (stack.length && n < upTo) {
    const c = stack.pop()!;
    const readWrite = c.type === 'ERROR' && c.children.length === 1 && c.children[0]!.type === '>' && c.end === c.start + 1;
    if ((c.type === 'ERROR' && !readWrite) || c.missing) n++;
    for (const k of c.children) stack.push(k);
  }
  return n;
}

function wrong(at: number, delimiter: string | null): Recovered {
  const what = delimiter !== null ? `this here-document (delimiter ${JSON.stringify(delimiter)})` : 'an empty command substitution ``';
  return { kind: 'wrong', at, message: `the parser reads ${what} differently from bash; the command cannot be read reliably` };
}

// ---------------------------------------------------------------- heredocs

export interface TreeHeredoc {
  start: SyntaxNode;
  end: SyntaxNode | null;
}

/** The heredocs in the tree (each heredoc_start with its heredoc_end), in source order. Exported for tests. */
export function treeHeredocs(root: SyntaxNode, source: string): TreeHeredoc[] {
  const out: TreeHeredoc[] = [];
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    for (let i = 0; i < n.children.length; i++) {
      const c = n.children[i]!;
      if (c.type === 'heredoc_start') {
        // Its end is the next heredoc_end among the siblings (one redirect node per heredoc).
        let end: SyntaxNode | null = null;
        for (let j = i + 1; j < n.children.length; j++) {
          const d = n.children[j]!;
          if (d.type === 'heredoc_start') break;
          if (d.type === 'heredoc_end') {
            end = d;
            break;
          }
        }
        out.push({ start: c, end });
      }
    }
    // A heredoc_start is the child of a redirect that begins with the `<<` token: only nodes
    // whose text holds one can hold it.
    pushChildrenContaining(stack, n, source, '<<');
  }
  return out.sort((a, b) => a.start.start - b.start.start);
}

/** Whether the tree has exactly bash's heredocs, each ending on the line bash ends it. */
function heredocsAgree(root: SyntaxNode, source: string, heredocs: BashHeredoc[]): boolean {
  const found = treeHeredocs(root, source);
  if (found.length !== heredocs.length) return false;
  for (let i = 0; i < heredocs.length; i++) {
    const h = heredocs[i]!;
    const t = found[i]!;
    // The grammar's heredoc_start runs to the next blank (`EOF;` in `<<EOF; ...`).
    if (t.start.start !== h.wordStart || t.start.end !== h.wordEnd) return false;
    if (!h.terminated) {
      if (t.end && !t.end.missing) return false;
      continue;
    }
    if (!t.end || t.end.missing) return false;
    if (t.end.end !== h.lineEnd || t.end.start < h.bodyEnd) return false;
  }
  return true;
}

function freshName(source: string, taken: Set<string>): string {
  for (let k = 0; ; k++) {
    const name = `BGEOF${k}Q`;
    if (!taken.has(name) && !source.includes(name)) {
      taken.add(name);
      return name;
    }
  }
}

function heredocEdits(source: string, heredocs: BashHeredoc[]): Edit[] {
  const edits: Edit[] = [];
  const taken = new Set<string>();
  const unterminated: string[] = [];
  for (const h of heredocs) {
    const name = freshName(source, taken);
    const after = source[h.wordEnd];
    const sep = after === undefined || after === ' ' || after === '\t' || after === '\n' ? '' : ' ';
    edits.push({ start: h.wordStart, end: h.wordEnd, text: (h.quoted ? `'${name}'` : name) + sep });
    if (h.quoted && h.bodyEnd > h.bodyStart) {
      // A literal body: the grammar only needs its extent (backslashes and `$` confuse its scanner).
      edits.push({ start: h.bodyStart, end: h.bodyEnd, text: source.slice(h.bodyStart, h.bodyEnd).replace(/[^\n]/g, 'x') });
    }
    if (h.terminated) {
      edits.push({ start: h.bodyEnd, end: h.lineEnd, text: name });
    } else {
      // Bodies bash read to the end of the input: their terminators are appended, in order.
      unterminated.push(name);
    }
  }
  if (unterminated.length > 0) {
    const nl = source.endsWith('\n') ? '' : '\n';
    edits.push({ start: source.length, end: source.length, text: nl + unterminated.join('\n') + '\n' });
  }
  return edits;
}

// ---------------------------------------------------------------- repairs from the tree

function overlaps(edits: readonly Edit[], start: number, end: number): boolean {
  return edits.some((e) => (e.start < end && start < e.end) || (e.start === e.end && start <= e.start && e.start <= end) || (start === end && e.start <= start && start <= e.end));
}

/** Edits for the grammar gaps visible in `tree` that no edit already covers. */
function treeEdits(source: string, tree: Tree, joined: Joined, existing: readonly Edit[]): Edit[] {
  /** Adds the edits of one repair to `into`, unless one overlaps an edit made or already there. */
  const addTo = (into: Edit[]) => (list: Edit[]) => {
    if (list.some((e) => overlaps(existing, e.start, e.end) || overlaps(into, e.start, e.end))) return;
    into.push(...list);
  };
  const out: Edit[] = [];
  const add = addTo(out);
  // Repairs that change how the grammar groups everything after them (`[` as a command, `((` as
  // two subshells): the rest of a tree read before them is unreliable, so a round with one of
  // them makes only those, and the others are found again in the tree they give.
  const regrouping: Edit[] = [];
  const regroup = addTo(regrouping);
  const joinedEdits = () => {
    if (!joined) return;
    for (const j of findAllJoinedLines(tree.root, source)) {
      if (!canEndCommandAt(source, j.from, j.offset, j.comment)) continue;
      // A comment before the newline is blanked (it means nothing to bash), else the `;` would join it.
      const blank = j.comment === undefined ? [] : [{ start: j.comment, end: j.from, text: ' '.repeat(j.from - j.comment) }];
      add([...blank, { start: j.offset, end: j.offset + 1, text: ';' }]);
    }
  };
  if (!tree.hasErrors) {
    joinedEdits();
    return out;
  }
  for (const e of substringEdits(tree.root, [])) add([e]);
  // Extglob groups in `[[ ]]` patterns and case patterns (./patterns.ts).
  for (const t of testOpeners(tree.root)) for (const g of testPatternEdits(source, t.end)) add(g);
  const bad: [number, number][] = [];
  const stack = [tree.root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'ERROR' && !n.children.some((c) => !c.named && c.type === '${')) {
      // An ERROR the grammar made of a whole word (`"${out:+${out};}1"`): the expansions in its text.
      for (let at = source.indexOf('${', n.start); at >= 0 && at < n.end; ) {
        const es = expansionEdits(source, at);
        if (es && es.length > 0) add(es);
        const end = skipNested(source, at);
        at = end > at ? source.indexOf('${', end) : -1;
      }
    }
    if (n.type === 'ERROR') errorEdits(source, n, add, regroup);
    if (n.type === 'command') for (const e of compoundAssignArgEdits(source, n)) add([e]);
    // `[[ $x =~ \` then the regex on the next line: the grammar takes the line continuation for
    // the regex. Bash drops it before reading words: shown as blanks.
    if (n.type === 'ERROR' || (n.type === 'test_command' && hasError(n))) {
      const re = /=~[ \t]*(\\\n)/g;
      re.lastIndex = n.start;
      for (let m = re.exec(source); m && m.index < n.end; m = re.exec(source)) add([{ start: m.index + m[0].length - 2, end: m.index + m[0].length, text: '  ' }]);
    }
    // `! (( ... ))`, which the grammar reads as `!` and two subshells, or cannot read (./read-write.ts).
    if (n.type === 'ERROR' || (n.type === 'negated_command' && hasError(n))) {
      for (const c of n.children) {
        const e = negatedArithmeticEdit(source, c);
        const open = e ? source.indexOf('((', c.end) : -1;
        if (e && source[skipNested(source, open)] === ')') add([e]);
      }
    }
    if (n.type === 'ERROR' || n.children.some((c) => c.missing)) bad.push([n.start, n.end]);
    if (n.type === 'arithmetic_expansion' && n.children.some((c) => c.type === 'ERROR')) add(arithmeticBaseEdits(source, n));
    if (n.type === 'subscript' && n.children.some((c) => c.type === 'ERROR')) add(subscriptEdits(source, n));
    // `n=1 2>/dev/null`: assignments with redirects and no command (bash: the assignments stay,
    // the redirects are made). The grammar wants a command name: a `:` is inserted before the
    // first redirect, and being inserted text its node is dropped again.
    const err = n.type === 'command' ? n.children.findIndex((c) => c.type === 'ERROR') : -1;
    const cutAtOperator = err > 0 && /^[;&|]+$/.test(source.slice(n.children[err]!.start, n.children[err]!.end));
    if (n.type === 'command' && (cutAtOperator || n.children.some((c) => c.type === 'command_name' && (c.missing || c.children.some((w) => w.missing))))) {
      // The command's own part: up to the operator the grammar could not place (`n=1 >x; next`).
      const parts = (cutAtOperator ? n.children.slice(0, err) : n.children).filter((c) => c.type !== 'command_name');
      const firstRedirect = parts.find((c) => c.field === 'redirect' || c.type.endsWith('_redirect'));
      if (firstRedirect && parts.every((c) => c.type === 'variable_assignment' || c.field === 'redirect' || c.type.endsWith('_redirect'))) {
        add([{ start: firstRedirect.start, end: firstRedirect.start, text: ': ' }]);
      }
    }
    // `less' '45*)` in a case pattern: the grammar's extglob pattern swallows the opening quote and
    // stops at the blank inside. Single-quoted text is literal to bash: shown as letters.
    if (n.type === 'extglob_pattern' && source[n.end - 1] === "'" && (source.slice(n.start, n.end).split("'").length - 1) % 2 === 1) {
      const close = source.indexOf("'", n.end);
      const inner = source.slice(n.end, close);
      if (close > n.end && !inner.includes('\n') && /[^A-Za-z0-9_]/.test(inner)) add([{ start: n.end, end: close, text: inner.replace(/./g, 'x') }]);
    }
    // `[[ $cur = -* && $x != exec ]]`: the grammar reads the glob pattern on the right of `=` as
    // a regex running into `&&` and loses the `]]`. The pattern's glob characters are shown as
    // letters (the IR reads the word from the original text, a pattern still).
    if (n.type === 'test_command' && n.children.some((c) => c.missing && c.type === ']]')) {
      for (const r of descendants(n, 'regex')) {
        const t = source.slice(r.start, r.end);
        if (/[*?]/.test(t) && !/[\s'"$]/.test(t)) add([{ start: r.start, end: r.end, text: t.replace(/[*?]/g, 'x') }]);
      }
    }
    // `[ -x f; then`: for bash `[` is an ordinary command (which fails at run time without its
    // `]`); the grammar's test_command wants the `]`. Shown as a plain command name.
    // Likewise a `[` whose operands the grammar could not read (`\(` after a line continuation),
    // also when it read them as a command and the ERROR sits inside that (`[ $a -o \` then
    // `\( ... \) ]; then`: the `; then` of the `if` became an ERROR in that command).
    if (n.type === 'test_command' && n.children[0]?.type === '[' && !n.children[0].named && n.children.some((c) => (c.missing && c.type === ']') || hasError(c))) {
      add([bracketAsCommand(n.children[0])]);
    }
    // A `${` whose expansion the grammar broke off: a MISSING `}` or an ERROR around or inside it.
    const broken = n.type === 'ERROR' || (n.type === 'expansion' && n.children.some((c) => c.type === 'ERROR' || (c.missing && c.type === '}')));
    for (const c of n.children) {
      if (broken && !c.named && c.type === '${') {
        const es = expansionEdits(source, c.start);
        if (es && es.length > 0) add(es);
      }
      stack.push(c);
    }
  }
  for (const g of wordGlobEdits(source, bad, (scanSource(source)?.heredocs ?? []).map((h) => [h.bodyStart, h.lineEnd]))) add(g);
  // Lines the grammar joined, as read from a tree with errors, are often the errors' own doing
  // (`[ \( ... \) ]; then` seen joined with the next line, where `;` would make `then;`): they are
  // repaired from the tree the error repairs give, in the next round. Likewise the other repairs
  // after a regrouping one.
  if (regrouping.length > 0) return regrouping;
  if (out.length === 0) joinedEdits();
  return out;
}

/** The repairs an ERROR node itself shows (each a grammar gap bash reads otherwise). */
function errorEdits(source: string, n: SyntaxNode, add: (list: Edit[]) => void, regroup: (list: Edit[]) => void): void {
  // `*.@(jar|zip))` in a case pattern: the grammar stops at an extglob group after other
  // pattern text. The group (bash's extglob, one pattern word) is shown as letters.
  const g = extglobGroupAt(source, n.end - 1);
  if (g) add([g]);
  for (const g of casePatternEdits(source, n)) add(g);
  const e = forDo(source, n);
  if (e) add([e]);
  // `$(grep x$)`: `$` before `)` is a literal to bash, rejected by the grammar: shown as a letter.
  for (let at = source.indexOf('$)', n.start); at >= 0 && at < n.end; at = source.indexOf('$)', at + 2)) add([{ start: at, end: at + 1, text: 'x' }]);
  // `0<> file`: the grammar takes a `0` before `<>` for an argument (any other digit it reads as
  // the descriptor, and the IR reads the original `0`).
  if (source.slice(n.start - 1, n.start + 2) === '0<>' && /^\s$/.test(source[n.start - 2] ?? '')) add([{ start: n.start - 1, end: n.start, text: '9' }]);
  // `for ((a[0]; a[0] < n; a[0]++))`: the grammar's C-style `for` header has no subscripts.
  for (let i = 0; i + 1 < n.children.length; i++) {
    const [f, open] = [n.children[i]!, n.children[i + 1]!];
    if (!f.named && f.type === 'for' && !open.named && open.type === '((') add(cForHeaderEdits(source, open.end));
  }
  // `X=|y`, `X=<f y`: an empty assignment ends at an operator to bash; the grammar's scanner reads on.
  if (source[n.start - 1] === '=' && /^[|<]/.test(source.slice(n.start, n.end)) && /[A-Za-z0-9_\]]=$/.test(source.slice(n.start - 2, n.start))) add([{ start: n.start, end: n.start, text: ' ' }]);
  // `;;&` or `;&` ending a case's last item (nothing left to fall through to; the grammar wants
  // `;;` there): shown as `;;`.
  const last = /;;?&(?=(?:[ \t\n]|#[^\n]*)*esac(?![A-Za-z0-9_]))/g;
  last.lastIndex = n.start;
  for (let m = last.exec(source); m && m.index < n.end; m = last.exec(source)) add([m[0] === ';&' ? { start: m.index + 1, end: m.index + 2, text: ';' } : { start: m.index + 2, end: m.index + 3, text: ' ' }]);
  // `N<>file` and `<>file` (./read-write.ts).
  for (const e of readWriteEdits(source, n.start, n.end)) add([e]);
  // `{ ...; } <<<word` and `! (( ... ))` (./read-write.ts).
  if (n.children.some((c) => !c.named && c.type === '<<')) for (const e of hereStringEdits(source, n.start, n.end)) add([e]);
  // `[ \( -h "$f" \) -o -d "$f" ]`: `\(` and `\)` are operands of bash's `[` builtin (POSIX
  // grouping); the grammar's test_command has no such operand and leaves the `[` in an
  // ERROR. `[` is an ordinary command to bash: shown to the grammar as a command name.
  // A `[` inside a word and not closed in it (`execute[ls /]`: the words `execute[ls` and `/]` to
  // bash; not a subscript `a[0]`) is a letter.
  for (const c of n.children) {
    if (c.named || c.type !== '[') continue;
    if (commandPosition(source, c.start)) regroup([bracketAsCommand(c)]);
    else if (/[A-Za-z0-9_\-./]/.test(source[c.start - 1] ?? '') && !/^[^\s;&|()<>]*\]/.test(source.slice(c.start + 1, c.start + 256))) add([{ start: c.start, end: c.start + 1, text: 'x' }]);
  }
  // `execute[which python]`, `e[a] b`: in command position bash reads a name and a `[` on to the
  // `]` that matches it (blanks included); without `=` or `+=` after that `]` it is no assignment
  // but one word (a glob), the command's name. The grammar reads a subscript and wants its `=`:
  // the `[` and the blanks inside are shown as letters.
  for (const c of n.children) {
    if (c.type !== 'subscript' || !startsCommand(source, c.start) || inArithmetic(source, c.start)) continue;
    const name = c.children[0];
    if (!name || source[name.end] !== '[') continue;
    const word = subscriptWord(source, name.end);
    if (word) add(word);
  }
  // `((cd d && make) | tee log)`: bash reads `((` as arithmetic only when the parenthesis
  // matching the second `(` is followed by `)`; otherwise it is two subshells (bash's
  // parse_dparen). The grammar always reads `((` as arithmetic: it is shown `( (`.
  for (const c of n.children) {
    if (c.named || c.type !== '((' || c.end !== c.start + 2) continue;
    const close = skipNested(source, c.start);
    if (close > 0 && source[close] !== ')') regroup([{ start: c.start + 1, end: c.start + 1, text: ' ' }]);
  }
}

/**
 * The header of `for ((...))` from `from` (after the `((`) shown as letters, its `;` kept: bash
 * reads it as arithmetic, of which the IR reads only command and process substitutions, so a
 * header without one loses nothing. Empty (no repair) when the header holds one, a quote or an
 * expansion with braces, or its `))` is not found.
 */
function cForHeaderEdits(source: string, from: number): Edit[] {
  let depth = 0;
  for (let i = from; i < source.length; i++) {
    const c = source[i]!;
    if ('`\'"{'.includes(c) || (c === '(' && '$<>'.includes(source[i - 1] ?? ''))) return [];
    if (c === '(') depth++;
    else if (c === ')' && depth > 0) depth--;
    else if (c === ')') {
      if (source[i + 1] !== ')') return [];
      const text = source.slice(from, i).replace(/[^;]/g, 'x');
      return text === source.slice(from, i) ? [] : [{ start: from, end: i, text }];
    }
  }
  return [];
}

/**
 * `eval local args=($OPTS)`: after `eval` or `let` bash accepts a compound assignment `name=(...)`
 * as an argument word (the grammar only after `declare` and its kin). The parentheses are shown
 * as letters: each argument keeps its text and expansions (`args=(`, `$OPTS`, `)`), and `eval`
 * joins its arguments with blanks into the text it runs, so it still reads `args=(...)`.
 */
function compoundAssignArgEdits(source: string, n: SyntaxNode): Edit[] {
  const name = n.children.find((c) => c.field === 'name');
  if (!name || !/^(?:eval|let)$/.test(source.slice(name.start, name.end))) return [];
  const nl = source.indexOf('\n', name.end);
  const line = source.slice(name.end, nl < 0 ? source.length : nl);
  const out: Edit[] = [];
  const re = /[ \t][A-Za-z_][A-Za-z0-9_]*(?:\[[^\]\s]*\])?\+?=\(/g;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    const open = name.end + m.index + m[0].length - 1;
    const close = skipNested(source, open - 1);
    if (close < 0 || source[close - 1] !== ')') break;
    out.push({ start: open, end: open + 1, text: 'x' }, { start: close - 1, end: close, text: 'x' });
    re.lastIndex = close - name.end;
  }
  return out;
}

/**
 * `\${$v+set}`, `\${$v-x}`, `\${$v/a/b}` (an escaped `$`, a `{`, then an expansion followed by
 * `+`, `-` or `/`): the grammar ends the word after that `$` and reads `v+set}` as the next word,
 * with no error (libtool's `eval test -z \"\${$var+set}\"`). The `{` is shown as a letter; the IR
 * reads the original text.
 */
function escapedBraceEdits(source: string): Edit[] {
  const out: Edit[] = [];
  if (!source.includes('${$')) return out;
  for (const m of source.matchAll(/\\+\$\{\$[A-Za-z_]/g)) {
    const slashes = m[0].indexOf('$');
    // An even run of backslashes escapes itself: the `${` after it is a real expansion.
    if (slashes % 2 === 1) out.push({ start: m.index + slashes + 1, end: m.index + slashes + 2, text: 'x' });
  }
  return out;
}

/**
 * zsh's flagged expansions (`${(M)${(k)parameters[@]}:#pat}`, behind a `$ZSH_VERSION` test in
 * completion scripts): `bash -n` accepts them and bash fails with "bad substitution" where one is
 * reached. Where the grammar left an error, the inside is shown as a name; the IR reads the
 * original text, a parameter no script sets (its value unknown).
 */
function zshFlagEdits(source: string): Edit[] {
  const out: Edit[] = [];
  for (let i = source.indexOf('${('); i >= 0; i = source.indexOf('${(', i + 1)) {
    const end = skipNested(source, i);
    if (end < 0) break;
    out.push({ start: i + 2, end: end - 1, text: '_'.repeat(end - 1 - (i + 2)) });
    i = end - 1;
  }
  return out;
}

/** `${x:` followed by something other than a plain word or number (arithmetic) within one line. */
const SUBSTRING_ARITH = /\$\{[^}\n]*:[^\n]*[-+*/%()]/;
const OFFSET_OK = new Set(['word', 'number', 'variable_name', ':', '}', '${', 'simple_expansion', 'special_variable_name', 'subscript', '#', '!', 'expansion', 'string', 'raw_string', 'concatenation', 'command_substitution', 'arithmetic_expansion']);

/**
 * `${a[@]:i-1}`, `${x::${#y}-1}`: the offset and length of a substring are arithmetic to bash; the
 * grammar builds an expression node the IR does not read. Each such node after the first `:` is
 * shown as letters (newlines kept).
 */
function substringEdits(root: SyntaxNode, out: Edit[]): Edit[] {
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'expansion') {
      const colon = n.children.findIndex((c) => !c.named && c.type === ':');
      if (colon >= 0) {
        for (const c of n.children.slice(colon + 1)) {
          if (c.named && !OFFSET_OK.has(c.type) && c.end > c.start) out.push({ start: c.start, end: c.end, text: 'x'.repeat(c.end - c.start) });
        }
      }
    }
    for (const c of n.children) stack.push(c);
  }
  return out.filter((e, i) => !out.some((o, j) => j !== i && o.start <= e.start && e.end <= o.end && (o.start < e.start || o.end > e.end || j < i)));
}

function descendants(n: SyntaxNode, type: string): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const stack = [n];
  while (stack.length) {
    const c = stack.pop()!;
    if (c.type === type) out.push(c);
    for (const k of c.children) stack.push(k);
  }
  return out;
}

/** The `[` token shown to the grammar as a command name (bash's `[` is an ordinary builtin). */
function bracketAsCommand(bracket: SyntaxNode): Edit {
  return { start: bracket.start, end: bracket.start + 1, text: '_' };
}

/**
 * Whether a word at `at` is where bash reads a command name: first on its line or after an
 * operator or a reserved word, and a `[` there ends at a blank (`'[KDE]'` in a quoted pattern
 * the grammar lost track of is no command).
 */
function commandPosition(source: string, at: number): boolean {
  return /^[ \t\n]$/.test(source[at + 1] ?? '') && startsCommand(source, at);
}

/**
 * The edits that make `NAME[...]` at `open` (its `[`) one plain word, where bash reads it as one
 * and not as an assignment: null where the brackets do not close on the line as bash closes them
 * (nested, quotes and substitutions skipped) or a `=`/`+=` follows.
 */
function subscriptWord(source: string, open: number): Edit[] | null {
  const edits: Edit[] = [{ start: open, end: open + 1, text: 'x' }];
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') i++;
    else if (c === '\n') return null;
    else if (c === "'") {
      i = source.indexOf("'", i + 1);
      if (i < 0) return null;
    } else if (c === '"' || c === '`' || (c === '$' && (source[i + 1] === '(' || source[i + 1] === '{'))) {
      const j = skipQuoted(source, i);
      if (j < 0) return null;
      i = j - 1;
    } else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return /^\+?=/.test(source.slice(i + 1, i + 3)) ? null : edits;
    else if ((c === ' ' || c === '\t') && depth > 0) edits.push({ start: i, end: i + 1, text: 'x' });
  }
  return null;
}

/** Whether `at` lies after a `((` its line has not closed (a C-style `for` header, `(( ))`). */
function inArithmetic(source: string, at: number): boolean {
  const line = source.slice(source.lastIndexOf('\n', at - 1) + 1, at);
  return (line.match(/\(\(/g)?.length ?? 0) > (line.match(/\)\)/g)?.length ?? 0);
}

/** Whether a command begins at `at`: only blanks, an operator or a reserved word before it. */
function startsCommand(source: string, at: number): boolean {
  const before = source.slice(Math.max(0, at - 64), at).replace(/(?:[ \t]|\\\n)+$/, '');
  return before === '' || /[\n;&|({!]$/.test(before) || /(?:^|[\s;&|(){}])(?:then|do|else|elif|if|while|until)$/.test(before);
}

/** Only blanks and line continuations between the command's last word and the newline. */
function canEndCommandAt(source: string, from: number, nl: number, comment = nl): boolean {
  const gap = source.slice(from, nl);
  if (!/^(?:[ \t]|\\\n)*$/.test(gap)) return false;
  // A heredoc started on this line (before its comment) has its body read at this newline: `;` would move it.
  const lineStart = source.lastIndexOf('\n', from - 1) + 1;
  return !source.slice(lineStart, comment).includes('<<');
}

/** `for NAME do` / `select NAME do` in an ERROR: the blank before `do` becomes `;`. */
function forDo(source: string, n: SyntaxNode): Edit | null {
  const [k, v] = n.children;
  if (!k || !v) return null;
  if (k.named || (k.type !== 'for' && k.type !== 'select')) return null;
  if (v.type !== 'variable_name') return null;
  // The grammar may or may not have kept the `do` in the ERROR: read the text.
  if (!/^[ \t]+do(?=[\s;&|()<>]|$)/.test(source.slice(v.end, v.end + 64))) return null;
  return { start: v.end, end: v.end + 1, text: ';' };
}

/**
 * Edits inside the `${...}` at `start` that make its literal characters explicit. Null when the
 * expansion's end cannot be found the way bash finds it.
 */
function expansionEdits(source: string, start: number): Edit[] | null {
  if (!source.startsWith('${', start)) return null;
  const edits: Edit[] = [];
  let i = start + 2;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '}') return edits;
    if (c === '\\') i += 2;
    else if (c === "'") {
      const j = source.indexOf("'", i + 1);
      if (j < 0) return null;
      // Literal text: the grammar splits a quoted `/` or `}` as if bare, so it sees letters.
      const inner = source.slice(i + 1, j);
      if (/[^A-Za-z0-9_]/.test(inner)) edits.push({ start: i + 1, end: j, text: inner.replace(/[^\n]/g, 'x') });
      i = j + 1;
    } else if (c === '"') {
      const j = skipDouble(source, i + 1);
      if (j < 0) return null;
      i = j;
    } else if (c === '$') {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i + 1, i + 200));
      if (m) {
        // Two insertions, so the name keeps its own range.
        edits.push(...bracedName(i + 1, i + 1 + m[0].length));
        i += 1 + m[0].length;
      } else {
        // `${...}`, `$(...)` and friends nested here: their own text, skipped whole.
        const j = skipNested(source, i);
        if (j < 0) return null;
        i = j;
      }
    } else if (c === '`') {
      const j = skipBackquote(source, i + 1);
      if (j < 0) return null;
      i = j;
    } else if (c === '\n') {
      return null;
    } else {
      // (`;&|<>` as a letter: inside double quotes the grammar rejects `\;` there too.)
      if (' \t'.includes(c)) edits.push({ start: i, end: i, text: '\\' });
      else if (';&|<>'.includes(c)) edits.push({ start: i, end: i + 1, text: 'x' });
      // `]` with no `[` open before it (`${x%%]*}`) is a literal to bash, a subscript's end to the
      // grammar (which rejects `\]` too): shown as a letter, the IR reading the original.
      // `{` is literal too (bash does not pair braces inside `${...}`: `${x#*{}` ends at the first `}`).
      // So are `(` and `)` (`${x:-Password ($k on $d)}`: the grammar starts an array there).
      else if (c === '{' || c === '(' || c === ')') edits.push({ start: i, end: i + 1, text: 'x' });
      else if (c === ']' && !bracketOpen(source, start + 2, i)) edits.push({ start: i, end: i + 1, text: 'x' });
      i++;
    }
  }
  return null;
}

/** Whether a `[` before `at` (from `from`) is still open: a bracket expression or a subscript. */
function bracketOpen(source: string, from: number, at: number): boolean {
  let open = 0;
  for (let i = from; i < at; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '[') open++;
    else if (source[i] === ']' && open > 0) open--;
  }
  return open > 0;
}

/** An ERROR node or a token the grammar inserted. */
export function isError(n: SyntaxNode): boolean {
  return n.type === 'ERROR' || n.missing;
}

export function hasError(n: SyntaxNode): boolean {
  const stack = [n];
  while (stack.length) {
    const c = stack.pop()!;
    if (isError(c)) return true;
    for (const k of c.children) stack.push(k);
  }
  return false;
}
