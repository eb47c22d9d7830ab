/**
 * Compound commands: `{ }`, `if`, `while`/`until`, `for`/`select`, `for ((;;))`, `case`, function
 * definitions, and the tests `[[ ]]`, `[ ]` and `(( ))`, which have no writes of their own but
 * whose expansions still run. Grammar quirks read here:
 * - `if`/`while` conditions carry their `;` terminators in the `condition` field.
 * - `(( expr ))` is a compound_statement, like `{ ...; }`.
 */
import type { SyntaxNode } from '../parse/index.js';
import type { BuildContext } from './context.js';
import type { Command, Sequence, Word } from './ir.js';
import { redirect } from './redirects.js';
import { expansionsIn, literalWord, word } from './words.js';

/** `[[ ... ]]` and `[ ... ]`: the substitutions to run, and the operands to decide it by. */
export function testCommand(cx: BuildContext, n: SyntaxNode): Command {
  const args = testArgs(cx, n);
  const single = n.children[0]?.type === '[';
  return { kind: 'test', words: expansionsIn(cx, n), ...(args ? { args, ...(single ? { single } : {}) } : {}), redirects: [], range: cx.range(n) };
}

/** `[[ ... ]]` as a flat list of operands and operators; null when it holds something else (a regex, an error). */
function testArgs(cx: BuildContext, n: SyntaxNode): Word[] | null {
  const out: Word[] = [];
  const walk = (x: SyntaxNode): boolean => {
    for (const c of x.children) {
      if (c.type === '[[' || c.type === ']]' || c.type === '[' || c.type === ']' || c.type === 'comment') continue;
      if (c.type === 'unary_expression' || c.type === 'binary_expression' || c.type === 'parenthesized_expression') {
        if (!walk(c)) return false;
      } else if (c.type === 'ERROR' || c.type === 'regex' || c.type === 'extglob_pattern' || c.type === '=~' || c.missing) return false;
      else if (!c.named || c.type === 'test_operator') out.push(literalWord(cx, c));
      else out.push(word(cx, c));
    }
    return true;
  };
  return walk(n) ? out : null;
}

export function compound(cx: BuildContext, n: SyntaxNode): Command {
  if (n.children[0]?.type === '((') {
    return { kind: 'test', words: expansionsIn(cx, n), arith: cx.text(n), redirects: [], range: cx.range(n) };
  }
  return { kind: 'group', body: cx.sequence(n, n.children), redirects: [], range: cx.range(n) };
}

/** Statements of a clause: the named children that are not fields or nested clauses. */
function clauseBody(cx: BuildContext, owner: SyntaxNode, nodes: SyntaxNode[]): Sequence {
  return cx.sequence(owner, nodes.filter((c) => c.field === null && c.type !== 'elif_clause' && c.type !== 'else_clause'));
}

export function ifStatement(cx: BuildContext, n: SyntaxNode): Command {
  const branches: { condition: Command; body: Command }[] = [];
  const cond = n.children.filter((c) => c.field === 'condition');
  branches.push({ condition: cx.sequence(n, cond), body: clauseBody(cx, n, n.children) });
  let elseBody: Command | null = null;
  for (const c of n.children) {
    if (c.type === 'elif_clause') {
      const ec = c.children.filter((x) => x.field === 'condition');
      // Older grammars put the elif condition in unnamed children; the first statement is it.
      if (ec.length > 0) branches.push({ condition: cx.sequence(c, ec), body: clauseBody(cx, c, c.children) });
      else {
        const stmts = c.children.filter((x) => x.named && x.type !== 'comment');
        const [first, ...rest] = stmts;
        branches.push({
          condition: first ? cx.statement(first) : cx.unknown(c, 'elif without condition'),
          body: cx.sequence(c, rest),
        });
      }
    } else if (c.type === 'else_clause') {
      elseBody = cx.sequence(c, c.children);
    }
  }
  return { kind: 'if', branches, elseBody, redirects: [], range: cx.range(n) };
}

export function whileStatement(cx: BuildContext, n: SyntaxNode): Command {
  const isUntil = n.children[0]?.type === 'until';
  const cond = n.children.filter((c) => c.field === 'condition');
  const bodyNode = n.children.find((c) => c.field === 'body');
  return {
    kind: 'loop',
    loop: isUntil ? 'until' : 'while',
    variable: null,
    values: null,
    condition: cx.sequence(n, cond),
    body: bodyNode ? doGroup(cx, bodyNode) : cx.unknown(n, 'loop without body'),
    redirects: [],
    range: cx.range(n),
  };
}

function doGroup(cx: BuildContext, n: SyntaxNode): Command {
  if (n.type === 'do_group') return cx.sequence(n, n.children);
  return cx.statement(n);
}

export function forStatement(cx: BuildContext, n: SyntaxNode): Command {
  const isSelect = n.children[0]?.type === 'select';
  const variable = n.children.find((c) => c.field === 'variable');
  const values = n.children.filter((c) => c.field === 'value');
  const hasIn = n.children.some((c) => !c.named && c.type === 'in');
  const bodyNode = n.children.find((c) => c.field === 'body');
  return {
    kind: 'loop',
    loop: isSelect ? 'select' : 'for',
    variable: variable ? cx.text(variable) : null,
    values: hasIn ? values.map((v) => word(cx, v)) : null,
    condition: null,
    body: bodyNode ? doGroup(cx, bodyNode) : cx.unknown(n, 'loop without body'),
    redirects: [],
    range: cx.range(n),
  };
}

export function cForStatement(cx: BuildContext, n: SyntaxNode): Command {
  const bodyNode = n.children.find((c) => c.field === 'body');
  const header = n.children.filter((c) => c.field === 'initializer' || c.field === 'condition' || c.field === 'update');
  const words = header.flatMap((h) => expansionsIn(cx, h));
  return {
    kind: 'loop',
    loop: 'c-for',
    variable: null,
    values: null,
    condition: { kind: 'test', words, arith: header.map((h) => cx.text(h)).join(';'), redirects: [], range: cx.range(n) },
    body: bodyNode ? doGroup(cx, bodyNode) : cx.unknown(n, 'loop without body'),
    redirects: [],
    range: cx.range(n),
  };
}

export function caseStatement(cx: BuildContext, n: SyntaxNode): Command {
  const subjectNode = n.children.find((c) => c.field === 'value');
  const items: { patterns: Word[]; body: Command }[] = [];
  for (const item of n.children.filter((c) => c.type === 'case_item')) {
    const patterns = item.children.filter((c) => c.field === 'value').map((c) => word(cx, c));
    const body = item.children.filter((c) => c.named && c.field === null && c.type !== 'comment');
    items.push({ patterns, body: cx.sequence(item, body) });
  }
  return {
    kind: 'case',
    subject: subjectNode ? word(cx, subjectNode) : { parts: [], text: '', range: cx.range(n) },
    items,
    redirects: [],
    range: cx.range(n),
  };
}

export function functionDefinition(cx: BuildContext, n: SyntaxNode): Command {
  const nameNode = n.children.find((c) => c.field === 'name');
  const bodyNode = n.children.find((c) => c.field === 'body');
  const redirects = n.children.filter((c) => c.field === 'redirect').flatMap((r) => redirect(cx, r));
  return {
    kind: 'function',
    name: nameNode ? cx.text(nameNode) : '',
    body: bodyNode ? cx.statement(bodyNode) : cx.unknown(n, 'function without body'),
    redirects,
    range: cx.range(n),
  };
}
