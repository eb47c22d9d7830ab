/**
 * Commands: simple commands with their prefix assignments, words and redirects; declarations
 * (`export A=1`); bare assignments; `&&`/`||` lists and pipelines. Grammar quirks read here:
 * - `$"text"` (locale string) parses as a lone `$` argument followed by a string.
 * - `rm /ho\<newline>me/x`: the grammar splits a word at a line continuation; bash does not.
 * - `! a | b` negates the whole pipeline; the grammar attaches `!` to `a` only.
 */
import type { SyntaxNode } from '../parse/index.js';
import type { BuildContext } from './context.js';
import type { Assignment, Command, Quoting, Redirect, Word, WordPart } from './ir.js';
import { redirect, withSpilled } from './redirects.js';
import { assignmentTildes, mergeText } from './word-text.js';
import { concatParts, literalWord, subscriptWord, word } from './words.js';

const DECLARATION_BUILTINS = new Set(['export', 'local', 'declare', 'readonly', 'typeset']);

export function simpleCommand(cx: BuildContext, n: SyntaxNode): Command {
  const assigns: Assignment[] = [];
  const words: Word[] = [];
  const redirects: Redirect[] = [];
  const kids = n.children;
  for (let i = 0; i < kids.length; i++) {
    const c = kids[i]!;
    if (c.type === 'variable_assignment') {
      // `X=$a/$b/.git git`: the grammar ends the value at `/$` and takes `b/.git` for the command
      // name. Bash needs a blank after an assignment: something right after it is a misread word.
      let a = words.length === 0 && validAssignment(cx, c) ? assignment(cx, c) : null;
      let w = a ? null : assignmentAsWord(cx, c);
      let end = c.end;
      for (let after = kids[i + 1]; after && after.start === end && (after.field === 'name' || after.field === 'argument'); after = kids[i + 1]) {
        const next = after.field === 'name' ? word(cx, after.children.find((x) => x.named) ?? after) : after.named ? word(cx, after) : null;
        const into = a ? a.value : w;
        const joined = next && into ? joinWords(cx, into, next) : null;
        if (!joined) return cx.unknown(n, 'the parser split an assignment from the word it belongs to');
        if (a) a = { ...a, value: joined, range: cx.rangeOf(a.range, joined.range) };
        else w = joined;
        end = after.end;
        i++;
      }
      // After the command name, or with a name bash does not accept, `x=y` is a plain word.
      if (a) assigns.push(a);
      else words.push(w!);
    } else if (c.field === 'name') words.push(word(cx, c.children.find((x) => x.named) ?? c));
    else if (c.field === 'redirect' || c.type.endsWith('_redirect')) redirects.push(...redirect(cx, c));
    else if (c.field === 'argument') {
      // `$"text"`: the grammar splits the locale string into `$` and a string.
      const next = kids[i + 1];
      if (!c.named && c.type === '$' && next && next.type === 'string' && next.start === c.end) {
        const w = word(cx, next);
        w.parts = w.parts.map((p) => (p.kind === 'text' ? { ...p, quoting: 'locale' as Quoting } : p));
        words.push({ ...w, text: cx.source.slice(c.start, next.end), range: cx.rangeOf(cx.range(c), w.range) });
        i++;
      } else if (c.named) {
        // `dd of=~/x`: bash expands a tilde after `=` in an argument shaped like an assignment.
        const w = word(cx, c);
        const parts = assignmentTildes(w.parts, true);
        words.push(parts === w.parts ? w : { ...w, parts });
      } else words.push({ parts: [{ kind: 'text', value: cx.text(c), quoting: 'none' }], text: cx.text(c), range: cx.range(c) });
    } else if (c.type === 'ERROR') {
      return cx.unknown(n, 'syntax error in command');
    } else if (c.type === 'comment') {
      continue;
    } else if (c.named) {
      return cx.unknown(n, `unsupported syntax in command (${c.type})`);
    }
  }
  const joined = joinSplitExpansions(cx, joinContinuations(cx, withSpilled(words, redirects)));
  if (!joined) return cx.unknown(n, 'the parser split a word bash reads whole');
  return { kind: 'simple', assigns, words: joined, declarations: [], redirects, range: cx.range(n) };
}

/**
 * Words the grammar ends where bash does not: `$a/$b/x` (tree-sitter ends the first at `/$` and
 * starts another at `b/x`), `env X=\`cmd\`/.git git` (it ends one at `=`). Bash splits words only
 * at blanks and operators, so two words with nothing between them are one, and a trailing `$`
 * takes the name that follows as an expansion. Where that join cannot be made, the command is not
 * read from the pieces.
 */
function joinSplitExpansions(cx: BuildContext, words: Word[]): Word[] | null {
  if (words.length < 2) return words;
  const out: Word[] = [];
  for (const w of words) {
    const prev = out[out.length - 1];
    if (!prev || w.range.start !== prev.range.end) {
      out.push(w);
      continue;
    }
    const joined = joinWords(cx, prev, w);
    if (!joined) return null;
    out[out.length - 1] = joined;
  }
  return out;
}

function endsWithDollar(cx: BuildContext, w: Word): boolean {
  const last = w.parts[w.parts.length - 1];
  return last?.kind === 'text' && last.quoting === 'none' && last.value.endsWith('$') && cx.source[w.range.end - 1] === '$' && cx.source[w.range.end - 2] !== '\\';
}

/**
 * Two touching words as the one word bash reads: a trailing unquoted `$` takes the name the next
 * word starts with (an expansion); null when that name is not there (`$` then a quote, a brace).
 */
function joinWords(cx: BuildContext, prev: Word, w: Word): Word | null {
  const parts: WordPart[] = [...prev.parts];
  let rest = w.parts;
  if (endsWithDollar(cx, prev)) {
    const first = w.parts[0];
    const m = first?.kind === 'text' && first.quoting === 'none' ? /^([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])([\s\S]*)$/.exec(first.value) : null;
    if (!m) return null;
    const last = parts.pop() as Extract<WordPart, { kind: 'text' }>;
    if (last.value.length > 1) parts.push({ ...last, value: last.value.slice(0, -1) });
    parts.push({ kind: 'param', name: m[1]!, op: null, arg: null, quoted: false, text: `$${m[1]}` });
    if (m[2]) parts.push({ kind: 'text', value: m[2], quoting: 'none' });
    rest = w.parts.slice(1);
  }
  parts.push(...rest);
  return { parts: mergeText(parts), text: cx.source.slice(prev.range.start, w.range.end), range: cx.rangeOf(prev.range, w.range) };
}

/**
 * `rm /ho\<newline>me/x`: bash removes a line continuation before splitting words, so this is
 * one word `/home/x`; the grammar treats the continuation as a separator and yields two.
 */
function joinContinuations(cx: BuildContext, words: Word[]): Word[] {
  // Only a backslash-newline in the source can join two words.
  if (words.length < 2 || !cx.hasContinuation) return words;
  const out: Word[] = [];
  for (const w of words) {
    const prev = out[out.length - 1];
    if (prev && w.range.start === prev.range.end + 2 && cx.source.slice(prev.range.end, w.range.start) === '\\\n') {
      // A `~` is only special at the start of the whole word.
      const parts = w.parts.map((p): WordPart => (p.kind === 'tilde' ? { kind: 'text', value: `~${p.user}`, quoting: 'none' } : p));
      out[out.length - 1] = { parts: mergeText([...prev.parts, ...parts]), text: cx.source.slice(prev.range.start, w.range.end), range: cx.rangeOf(prev.range, w.range) };
    } else out.push(w);
  }
  return out;
}

export function declarationCommand(cx: BuildContext, n: SyntaxNode): Command {
  const words: Word[] = [];
  const declarations: Assignment[] = [];
  for (const c of n.children) {
    if (!c.named) {
      if (c.type === 'export' || c.type === 'local' || c.type === 'declare' || c.type === 'readonly' ||
        c.type === 'typeset' || c.type === 'unset' || c.type === 'unsetenv') {
        words.push(literalWord(cx, c));
      }
      continue;
    }
    if (c.type === 'variable_assignment') {
      if (validAssignment(cx, c)) declarations.push(assignment(cx, c));
      else words.push(assignmentAsWord(cx, c));
    } else if (c.type === 'variable_name') words.push(literalWord(cx, c));
    else if (c.type === 'comment') continue;
    else if (c.type === 'ERROR') return cx.unknown(n, 'syntax error in declaration');
    else words.push(word(cx, c));
  }
  const first = words[0];
  if (first && !DECLARATION_BUILTINS.has(first.text) && first.text !== 'unset' && first.text !== 'unsetenv') {
    return cx.unknown(n, `unsupported declaration (${first.text})`);
  }
  return { kind: 'simple', assigns: [], words, declarations, redirects: [], range: cx.range(n) };
}

export function bareAssignments(cx: BuildContext, owner: SyntaxNode, nodes: SyntaxNode[]): Command {
  const assigns: Assignment[] = [];
  const words: Word[] = [];
  for (const a of nodes) {
    if (words.length === 0 && validAssignment(cx, a)) assigns.push(assignment(cx, a));
    else words.push(assignmentAsWord(cx, a));
  }
  return { kind: 'simple', assigns, words, declarations: [], redirects: [], range: cx.range(owner) };
}

/**
 * Whether bash reads `name=value` as an assignment: the name must be an ASCII identifier
 * (optionally subscripted); bash runs `à=b` as a command. Both pinned grammar builds already
 * lex ASCII-only names (grammars/README.md), but the native scanner asks the C library, so in a
 * host process that switched LC_CTYPE to a UTF-8 locale it would accept `à`: this keeps the IR
 * bash's either way.
 */
function validAssignment(cx: BuildContext, n: SyntaxNode): boolean {
  const nameNode = n.children.find((c) => c.field === 'name');
  if (!nameNode) return true;
  return /^[A-Za-z_][A-Za-z0-9_]*(\[[\s\S]*\])?$/.test(cx.text(nameNode));
}

/** An assignment-shaped node read as an ordinary word (`à=b`). */
function assignmentAsWord(cx: BuildContext, n: SyntaxNode): Word {
  return { parts: assignmentTildes(concatParts(cx, n, true), true), text: cx.text(n), range: cx.range(n) };
}

function assignment(cx: BuildContext, n: SyntaxNode): Assignment {
  const nameNode = n.children.find((c) => c.field === 'name');
  const valueNode = n.children.find((c) => c.field === 'value');
  const op = n.children.find((c) => !c.named && (c.type === '=' || c.type === '+='));
  const name = nameNode ? cx.text(nameNode) : '';
  const index = nameNode?.type === 'subscript' ? subscriptWord(cx, nameNode) : null;
  const subscript = index ? { subscript: index } : {};
  if (!valueNode) return { name, append: op?.type === '+=', value: null, unknownValue: false, ...subscript, range: cx.range(n) };
  if (valueNode.type === 'array') {
    const kids = valueNode.children.filter((c) => c.named && c.type !== 'comment');
    // `([k]=$HOME/repo)`: the grammar reads `$HOME` as plain word text and `/repo` as an element of
    // its own. Elements that touch, or a plain word holding an unescaped `$` or backquote inside
    // an element, are misread: the array's value is not known.
    const misread = kids.some((c, i) => (i > 0 && c.start === kids[i - 1]!.end) || (c.type === 'concatenation' && c.children.some((w) => w.type === 'word' && /(^|[^\\])[$`]/.test(cx.text(w)))));
    const elements = misread || kids.some((c) => c.type === 'ERROR') ? undefined : kids.map((c) => word(cx, c));
    return { name, append: op?.type === '+=', value: null, unknownValue: true, ...(elements ? { elements } : {}), ...subscript, range: cx.range(n) };
  }
  const value = word(cx, valueNode);
  return { name, append: op?.type === '+=', value: { ...value, parts: assignmentTildes(value.parts, false) }, unknownValue: false, ...subscript, range: cx.range(n) };
}

export function list(cx: BuildContext, n: SyntaxNode): Command {
  let acc: Command | null = null;
  let op: '&&' | '||' | null = null;
  for (const c of n.children) {
    if (!c.named) {
      if (c.type === '&&' || c.type === '||') op = c.type;
      continue;
    }
    if (c.type === 'comment') continue;
    const cmd = cx.statement(c);
    if (!acc) acc = cmd;
    else acc = { kind: 'and-or', op: op ?? '&&', left: acc, right: cmd, range: cx.rangeOf(acc.range, cmd.range) };
  }
  return acc ?? cx.unknown(n, 'empty list');
}

export function pipeline(cx: BuildContext, n: SyntaxNode): Command {
  const kids = n.children.filter((c) => c.named && c.type !== 'comment');
  // `! a | b` negates the whole pipeline in bash; the grammar attaches `!` to `a` only.
  const negFirst = kids[0]?.type === 'negated_command' ? kids[0] : null;
  const commands = kids.map((c) => {
    if (c !== negFirst) return cx.statement(c);
    const inner = c.children.find((x) => x.named && x.type !== 'comment');
    return inner ? cx.statement(inner) : cx.unknown(c, 'empty negation');
  });
  return { kind: 'pipeline', commands, negated: negFirst !== null, range: cx.range(n) };
}
