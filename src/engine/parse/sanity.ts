/**
 * Checks on a copied tree for known tree-sitter-bash misparses that produce a *valid-looking*
 * tree (no ERROR node) which does not match what bash runs. A tree that fails is reported as a
 * parser error (the command is unanalyzable: ask), never analyzed as if it were right.
 *
 * Known case: after a pipeline of three or more commands, the grammar's scanner can carry the
 * last command over an unescaped newline when the next line has a redirect:
 *
 *   ls | ls | cp lib/app.sh /home/dev/repo/README.md
 *   echo ok > out.txt
 *
 * parses as one `cp` with arguments `lib/app.sh /home/dev/repo/README.md echo ok` and the
 * redirect `> out.txt` on the whole pipeline, so the real destination of `cp` is lost. Bash ends a
 * simple command at an unescaped newline, so no `command` node may have one between its children.
 */
import { pointFinder, pushChildrenContaining, type SyntaxNode } from './tree.js';

export interface JoinedLine {
  /** The newline the command runs over. */
  offset: number;
  /** Its row (0-based), as tree-sitter counts. */
  row: number;
  /** End of the command's child before it. */
  from: number;
  /**
   * Where that child starts when it is a comment (`a | b | c # x` then a newline: the grammar
   * keeps the comment inside `c` and carries `c` over to the next line). A `;` put at the newline
   * would extend the comment over the next line, hiding it; the repair blanks the comment first.
   */
  comment?: number;
}

/** Where a command node runs over an unescaped newline between its children, or null. */
export function findJoinedLines(root: SyntaxNode, source: string): JoinedLine | null {
  return joinedLines(root, source, true)[0] ?? null;
}

/** Every such place (the first one of each command), in no particular order. */
export function findAllJoinedLines(root: SyntaxNode, source: string): JoinedLine[] {
  return joinedLines(root, source, false);
}

function joinedLines(root: SyntaxNode, source: string, firstOnly: boolean): JoinedLine[] {
  const out: JoinedLine[] = [];
  // Only a newline can be one (most commands are one line: no walk of the tree).
  if (!source.includes('\n')) return out;
  let points: ((i: number) => { row: number }) | null = null;
  const stack: SyntaxNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'command' || n.type === 'redirected_statement') {
      const kids = n.children;
      for (let i = 1; i < kids.length; i++) {
        const prev = kids[i - 1]!;
        const next = kids[i]!;
        // A heredoc body legitimately follows a newline; it lives inside heredoc_redirect, but
        // stay clear of anything heredoc-shaped in case a grammar version hoists it.
        if (next.type.startsWith('heredoc') || prev.type.startsWith('heredoc')) continue;
        // In a redirected_statement only the gap before a redirect matters (the body is a whole
        // statement); in a command every gap does.
        if (n.type === 'redirected_statement' && !next.type.endsWith('_redirect')) continue;
        const at = unescapedNewline(source, prev.end, next.start);
        if (at >= 0) {
          points ??= pointFinder(source);
          out.push({ offset: at, row: points(prev.end).row, from: prev.end, ...(prev.type === 'comment' ? { comment: prev.start } : {}) });
          if (firstOnly) return out;
          break;
        }
      }
    }
    // Only a node whose text holds a newline can hold a command that runs over one.
    pushChildrenContaining(stack, n, source, '\n');
  }
  return out;
}

function unescapedNewline(source: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    if (source.charCodeAt(i) !== 10) continue;
    // A backslash right before the newline (in the gap) is a line continuation.
    if (i > from && source.charCodeAt(i - 1) === 92) continue;
    return i;
  }
  return -1;
}
