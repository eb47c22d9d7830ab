/**
 * Words and expansions: a word node becomes its parts (literal text with its quoting, a tilde, a
 * parameter, a command, process or arithmetic substitution), each read the way bash expands it.
 * What a part cannot be read as becomes an `unknown` part: "cannot analyze", never "safe".
 */
import type { SyntaxNode } from '../parse/index.js';
import type { BuildContext } from './context.js';
import type { Command, Quoting, Word, WordPart } from './ir.js';
import { decodeAnsiC, mergeText, patternParts, unescapeDouble, unquotedParts } from './word-text.js';

export function literalWord(cx: BuildContext, n: SyntaxNode): Word {
  const text = cx.text(n);
  return { parts: [{ kind: 'text', value: text, quoting: 'none' }], text, range: cx.range(n) };
}

export function word(cx: BuildContext, n: SyntaxNode): Word {
  return { parts: wordParts(cx, n, true), text: cx.text(n), range: cx.range(n) };
}

export function concat(cx: BuildContext, nodes: SyntaxNode[]): Word {
  const first = nodes[0]!;
  const last = nodes[nodes.length - 1]!;
  const parts: WordPart[] = [];
  nodes.forEach((c, i) => parts.push(...wordParts(cx, c, i === 0)));
  return { parts: mergeText(parts), text: cx.source.slice(first.start, last.end), range: cx.rangeOf(cx.range(first), cx.range(last)) };
}

export function wordParts(cx: BuildContext, n: SyntaxNode, atStart: boolean): WordPart[] {
  if (n.missing) return [cx.unknownPart(n, `missing ${n.type}`)];
  switch (n.type) {
    case 'regex':
      // `${v/'p'/r}`, `${v#$p}`: the grammar leaves the pattern one token, quotes and expansions
      // unread (a pattern's quotes are quote removal, its `$p` a parameter, not text).
      if (!n.children.some((c) => c.named) && /['"\\$`]/.test(cx.text(n))) {
        const parts = patternParts(cx.text(n));
        if (parts) return parts;
        if (/\$[({[]|`/.test(cx.text(n))) return [cx.unknownPart(n, 'an expansion in a pattern the parser left unread')];
      }
      if (n.children.some((c) => c.named)) return concatParts(cx, n, atStart);
      return unquotedParts(cx.text(n), atStart);
    case 'word':
    case 'number':
    case 'variable_name':
    case 'extglob_pattern':
    case 'special_variable_name':
    case 'test_operator':
    case 'file_descriptor':
      if (n.children.some((c) => c.named)) return concatParts(cx, n, atStart);
      return unquotedParts(cx.text(n), atStart);
    case 'brace_expression':
      return [{ kind: 'text', value: cx.text(n), quoting: 'none' }];
    case 'raw_string':
      return [{ kind: 'text', value: cx.text(n).slice(1, -1), quoting: 'single' }];
    case 'ansi_c_string':
      return [{ kind: 'text', value: decodeAnsiC(cx.text(n).slice(2, -1)), quoting: 'ansi-c' }];
    case 'string':
      return doubleQuoted(cx, n);
    case 'translated_string': {
      const inner = n.children.find((c) => c.type === 'string');
      const parts = inner ? doubleQuoted(cx, inner) : [];
      return parts.map((p) => (p.kind === 'text' ? { ...p, quoting: 'locale' as Quoting } : p));
    }
    case 'concatenation':
      return concatParts(cx, n, atStart);
    case 'simple_expansion':
    case 'expansion':
    case 'command_substitution':
    case 'process_substitution':
    case 'arithmetic_expansion':
      return expansionPart(cx, n, false);
    case 'ERROR':
      return [cx.unknownPart(n, 'syntax error in word')];
    default:
      return [cx.unknownPart(n, `unsupported word syntax (${n.type})`)];
  }
}

export function concatParts(cx: BuildContext, n: SyntaxNode, atStart: boolean): WordPart[] {
  const parts: WordPart[] = [];
  let pos = n.start;
  for (const c of n.children) {
    // Text the grammar left between children (rare) is literal, unquoted.
    if (c.start > pos) parts.push(...unquotedParts(cx.source.slice(pos, c.start), atStart && pos === n.start));
    const t = cx.text(c);
    if (!c.named && /^\$[$!#?*@0-9-]$/.test(t)) {
      // `x.$$`: inside a concatenation the grammar leaves special parameters anonymous.
      parts.push({ kind: 'param', name: t.slice(1), op: null, arg: null, quoted: false, text: t });
    } else parts.push(...(c.named ? wordParts(cx, c, atStart && c.start === n.start) : unquotedParts(t, atStart && c.start === n.start)));
    pos = c.end;
  }
  if (n.end > pos) parts.push(...unquotedParts(cx.source.slice(pos, n.end), false));
  return mergeText(parts);
}

function doubleQuoted(cx: BuildContext, n: SyntaxNode): WordPart[] {
  const parts: WordPart[] = [];
  // Everything between the quotes that is not an expansion is literal text.
  const open = n.start + (cx.source[n.start] === '$' ? 2 : 1);
  const close = cx.source[n.end - 1] === '"' ? n.end - 1 : n.end;
  let pos = open;
  for (const c of n.children) {
    if (!c.named || c.type === 'string_content') continue;
    if (c.start > pos) parts.push({ kind: 'text', value: unescapeDouble(cx.source.slice(pos, c.start)), quoting: 'double' });
    parts.push(...expansionPart(cx, c, true));
    pos = c.end;
  }
  if (close > pos) parts.push({ kind: 'text', value: unescapeDouble(cx.source.slice(pos, close)), quoting: 'double' });
  if (parts.length === 0) parts.push({ kind: 'text', value: '', quoting: 'double' });
  return parts;
}

export function expansionPart(cx: BuildContext, n: SyntaxNode, quoted: boolean): WordPart[] {
  const text = cx.text(n);
  switch (n.type) {
    case 'simple_expansion': {
      const name = n.children.find((c) => c.named);
      return [{ kind: 'param', name: name ? cx.text(name) : text.slice(1), op: null, arg: null, quoted, text }];
    }
    case 'expansion':
      return [parameterExpansion(cx, n, quoted)];
    case 'command_substitution': {
      const inner = n.children.filter((c) => c.named && c.field !== 'redirect');
      const redirects = n.children.filter((c) => c.field === 'redirect');
      let body: Command = cx.sequence(n, inner);
      if (redirects.length > 0) {
        // `$(< file)` reads a file: no write, but keep it analyzable.
        body = { kind: 'simple', assigns: [], words: [], declarations: [], redirects: redirects.flatMap((r) => cx.redirect(r)), range: cx.range(n) };
      }
      return [{ kind: 'command-sub', body, quoted, text }];
    }
    case 'process_substitution':
      return [{ kind: 'process-sub', body: cx.sequence(n, n.children), direction: text.startsWith('>') ? '>' : '<', text }];
    case 'arithmetic_expansion': {
      const subs = expansionsIn(cx, n).flatMap((w) => w.parts.flatMap((p) => (p.kind === 'command-sub' || p.kind === 'process-sub' ? [p.body] : [])));
      return [{ kind: 'arith', text, quoted, subs }];
    }
    default:
      return wordParts(cx, n, false);
  }
}

/** `${...}`: the name, the operator and its argument word (for defaults like `${X:-/path}`). */
function parameterExpansion(cx: BuildContext, n: SyntaxNode, quoted: boolean): WordPart {
  const text = cx.text(n);
  const kids = n.children.filter((c) => c.type !== '${' && c.type !== '}');
  let name = '';
  let op: string | null = null;
  const argNodes: SyntaxNode[] = [];
  let prefixOp: string | null = null;
  let subscript: Word | null = null;
  for (const c of kids) {
    if (!name && (c.type === 'variable_name' || c.type === 'special_variable_name')) name = cx.text(c);
    else if (!name && c.type === 'subscript') {
      name = cx.text(c);
      subscript = subscriptWord(cx, c);
      prefixOp = prefixOp ?? '[]';
    } else if (!name && !c.named) prefixOp = (prefixOp ?? '') + c.type;
    else if (op === null && !c.named && c.field === 'operator') op = c.type;
    else if (op === null && !c.named) op = c.type;
    else argNodes.push(c);
  }
  if (prefixOp) op = prefixOp + (op ?? '');
  let arg: Word | null = null;
  if (argNodes.length > 0) {
    const first = argNodes[0]!;
    const last = argNodes[argNodes.length - 1]!;
    const parts: WordPart[] = [];
    let pos = first.start;
    for (const c of argNodes) {
      if (c.start > pos) parts.push({ kind: 'text', value: cx.source.slice(pos, c.start), quoting: quoted ? 'double' : 'none' });
      if (c.named) parts.push(...wordParts(cx, c, c === first));
      else parts.push({ kind: 'text', value: cx.text(c), quoting: quoted ? 'double' : 'none' });
      pos = c.end;
    }
    arg = { parts: mergeText(parts), text: cx.source.slice(first.start, last.end), range: cx.rangeOf(cx.range(first), cx.range(last)) };
  } else if (op && /^(:?[-=+?])$/.test(op)) {
    arg = { parts: [{ kind: 'text', value: '', quoting: 'none' }], text: '', range: cx.range(n) };
  }
  return { kind: 'param', name, op, arg, quoted, text, ...(subscript ? { subscript } : {}) };
}

/** Expansions whose parts a subscript keeps; a process substitution is not among them. */
const SUBSCRIPT_EXPANSIONS = new Set(['simple_expansion', 'expansion', 'command_substitution', 'arithmetic_expansion', 'string', 'translated_string', 'raw_string', 'ansi_c_string']);

/**
 * `a[k]` (a `subscript` node, in `${a[k]}` or `a[k]=v`): the word `k` between the brackets, which
 * bash expands like a double-quoted word before it uses it (as arithmetic for an indexed array).
 * The grammar reads the index as arithmetic or as commands (`a[ (1) ]` is a subshell node): only
 * its expansions are parts of their own, the rest is text. bash leaves `<(...)` in a subscript as
 * text (`${a[<(cmd)]}` is an arithmetic syntax error, cmd never runs), so it stays text here too.
 * Null when the node has no brackets.
 */
export function subscriptWord(cx: BuildContext, n: SyntaxNode): Word | null {
  const open = n.children.find((c) => !c.named && c.type === '[');
  const close = [...n.children].reverse().find((c) => !c.named && c.type === ']');
  if (!open || !close || close.start < open.end) return null;
  const parts: WordPart[] = [];
  const text = (from: number, to: number) => {
    if (to > from) parts.push({ kind: 'text', value: cx.source.slice(from, to), quoting: 'double' });
  };
  const walk = (c: SyntaxNode) => {
    if (SUBSCRIPT_EXPANSIONS.has(c.type)) parts.push(...wordParts(cx, c, false));
    else if (c.type === 'ERROR' || c.missing) parts.push(cx.unknownPart(c, c.missing ? `missing ${c.type}` : 'syntax error in an array subscript'));
    else if (c.type === 'process_substitution' || c.children.length === 0) text(c.start, c.end);
    else {
      let pos = c.start;
      for (const k of c.children) {
        text(pos, k.start);
        walk(k);
        pos = k.end;
      }
      text(pos, c.end);
    }
  };
  let pos = open.end;
  for (const c of n.children) {
    if (c.start < open.end || c.end > close.start) continue;
    text(pos, c.start);
    walk(c);
    pos = c.end;
  }
  text(pos, close.start);
  return { parts: mergeText(parts), text: cx.source.slice(open.end, close.start), range: cx.offsetRange(open.end, close.start) };
}

/**
 * Expansions inside `[[ ]]`, `(( ))` and arithmetic headers: only command and process
 * substitutions can have effects there, so those are collected as words to evaluate.
 */
export function expansionsIn(cx: BuildContext, n: SyntaxNode): Word[] {
  const out: Word[] = [];
  const stack = [n];
  while (stack.length) {
    const c = stack.pop()!;
    if (c.type === 'command_substitution' || c.type === 'process_substitution') {
      out.push({ parts: expansionPart(cx, c, false), text: cx.text(c), range: cx.range(c) });
    } else if (c.type === 'ERROR') {
      out.push({ parts: [cx.unknownPart(c, 'syntax error in test')], text: cx.text(c), range: cx.range(c) });
    } else {
      for (let i = c.children.length - 1; i >= 0; i--) stack.push(c.children[i]!);
    }
  }
  return out;
}
