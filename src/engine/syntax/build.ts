/**
 * Tree to IR. The syntax folder is the only place that knows tree-sitter-bash node kinds; anything
 * it does not recognise becomes an `unknown` command or word part: "cannot analyze", never "safe".
 *
 * This file dispatches statements and checks that no error node was dropped; the pieces of the IR
 * are built beside it, all sharing one BuildContext (src/engine/syntax/context.ts): commands and
 * lists (commands.ts), compound commands and tests (compound.ts), redirects (redirects.ts),
 * heredocs (heredocs.ts), words and expansions (words.ts) and their text (word-text.ts).
 *
 * Grammar quirks, each read in the file named and each with a test in test/system/engine/syntax.test.ts:
 * - `a && b > f` and `a | b > f` parse as a redirected_statement whose body is the whole list
 *   or pipeline; in bash the redirect belongs to the last command only (redirects.ts).
 * - `cmd <<EOF | next`, `cmd <<EOF && next` and `cmd <<EOF > f`: the rest of the pipeline, list
 *   or redirects is nested *inside* the heredoc_redirect node (heredocs.ts).
 * - `3<>file` is not in the grammar: it parses as `<` followed by an ERROR holding `>` (redirects.ts).
 * - `$"text"` (locale string) parses as a lone `$` argument followed by a string (commands.ts).
 * - `if`/`while` conditions carry their `;` terminators in the `condition` field (compound.ts).
 * - `(( expr ))` is a compound_statement, like `{ ...; }` (compound.ts).
 * - comments are named nodes anywhere a statement can be.
 */
import type { SyntaxNode, ParseSuccess } from '../parse/index.js';
import { BuildContext } from './context.js';
import type { Command, Script, Sequence } from './ir.js';
import { bareAssignments, declarationCommand, list, pipeline, simpleCommand } from './commands.js';
import { caseStatement, cForStatement, compound, forStatement, functionDefinition, ifStatement, testCommand, whileStatement } from './compound.js';
import { redirect, redirectedStatement } from './redirects.js';

export { decodeAnsiC } from './word-text.js';

/** Statements separated by `;`, `&`, newlines. `&` marks the statement before it as background. */
function sequence(cx: BuildContext, owner: SyntaxNode, nodes: SyntaxNode[]): Sequence {
  const items: Sequence['items'] = [];
  for (const n of nodes) {
    if (!n.named) {
      if (n.type === '&' && items.length > 0) items[items.length - 1]!.background = true;
      continue;
    }
    if (n.type === 'comment') continue;
    if (n.type === 'heredoc_body') continue; // consumed by its heredoc_redirect
    items.push({ command: cx.statement(n), background: false });
  }
  return { kind: 'sequence', items, range: cx.range(owner) };
}

function statement(cx: BuildContext, n: SyntaxNode): Command {
  if (n.missing) return cx.unknown(n, `missing ${n.type}`);
  switch (n.type) {
    case 'command':
      return simpleCommand(cx, n);
    case 'declaration_command':
    case 'unset_command':
      return declarationCommand(cx, n);
    case 'variable_assignment':
      return bareAssignments(cx, n, [n]);
    case 'variable_assignments':
      return bareAssignments(cx, n, n.children.filter((c) => c.type === 'variable_assignment'));
    case 'redirected_statement':
      return redirectedStatement(cx, n);
    case 'list':
      return list(cx, n);
    case 'pipeline':
      return pipeline(cx, n);
    case 'negated_command': {
      const inner = n.children.find((c) => c.named && c.type !== 'comment');
      const body = inner ? cx.statement(inner) : cx.unknown(n, 'empty negation');
      return { kind: 'pipeline', commands: [body], negated: true, range: cx.range(n) };
    }
    case 'subshell':
      return { kind: 'subshell', body: cx.sequence(n, n.children), redirects: [], range: cx.range(n) };
    case 'compound_statement':
      return compound(cx, n);
    case 'if_statement':
      return ifStatement(cx, n);
    case 'while_statement':
      return whileStatement(cx, n);
    case 'for_statement':
      return forStatement(cx, n);
    case 'c_style_for_statement':
      return cForStatement(cx, n);
    case 'case_statement':
      return caseStatement(cx, n);
    case 'function_definition':
      return functionDefinition(cx, n);
    case 'test_command':
      return testCommand(cx, n);
    case 'ERROR':
      return cx.unknown(n, n.limit ?? 'syntax error');
    default:
      return cx.unknown(n, `unsupported syntax (${n.type})`);
  }
}

/** Builds the IR for a successful parse. ERROR/MISSING nodes become `unknown` entries and problems. */
export function buildScript(parsed: ParseSuccess): Script {
  const b = new BuildContext(parsed.source, { statement, sequence, redirect });
  const body = sequence(b, parsed.root, parsed.root.children);
  if (parsed.hasErrors) {
    // Safety net: an ERROR or MISSING node the builder skipped (e.g. inside a heredoc_redirect,
    // `cat <<A <<B`) must still make the script unanalyzable, never silently dropped.
    const covered = (n: SyntaxNode) => b.reported.some(([start, end]) => start <= n.start && n.end <= end);
    const stack: SyntaxNode[] = [parsed.root];
    let added = false;
    while (stack.length) {
      const n = stack.pop()!;
      if (n.type === 'ERROR' || n.missing) {
        if (!covered(n) && !b.handled.has(n)) {
          b.problems.push({ reason: n.missing ? `missing ${n.type}` : n.limit ?? 'syntax error', range: b.problemRange(n), text: b.text(n), ...(n.limit ? { limit: true } : {}) });
          added = true;
        }
        continue;
      }
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
    }
    if (added) b.problems.sort((x, y) => x.range.start - y.range.start || x.range.end - y.range.end);
  }
  return { body, source: parsed.source, problems: b.problems };
}
