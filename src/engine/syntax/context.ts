/**
 * What every part of the tree-to-IR builder shares: the source and its positions, the problems
 * found so far, and the three ways back into the recursion (a statement, a list of statements, a
 * redirect), which src/engine/syntax/build.ts provides so that the word, redirect and command
 * builders can nest into one another without importing one another in a circle.
 */
import type { SyntaxNode, Point } from '../parse/index.js';
import { pointFinder } from '../parse/tree.js';
import type { Command, Range, Redirect, Script, Sequence, WordPart } from './ir.js';

/** The recursive entry points, given to the context by build.ts. */
export interface Recursion {
  statement(cx: BuildContext, n: SyntaxNode): Command;
  sequence(cx: BuildContext, owner: SyntaxNode, nodes: SyntaxNode[]): Sequence;
  redirect(cx: BuildContext, n: SyntaxNode): Redirect[];
}

export class BuildContext {
  readonly problems: Script['problems'] = [];
  /** The node span each problem stands for (a problem's range may start inside it). */
  readonly reported: [number, number][] = [];
  /** ERROR nodes that are a known grammar quirk read correctly here (`3<>f`): not problems. */
  readonly handled = new Set<SyntaxNode>();
  /** `>&3 0<&3`: the grammar gave `0` to the previous redirect; it is the next one's fd. */
  pendingFd: { at: number; fd: number } | null = null;
  /** Whether the source has a line continuation (`\\` then a newline) anywhere. */
  readonly hasContinuation: boolean;
  private readonly pointAt: (offset: number) => Point;

  constructor(
    readonly source: string,
    private readonly recursion: Recursion,
  ) {
    this.pointAt = pointFinder(source);
    this.hasContinuation = source.includes('\\\n');
  }

  statement(n: SyntaxNode): Command {
    return this.recursion.statement(this, n);
  }

  /** Statements separated by `;`, `&`, newlines. */
  sequence(owner: SyntaxNode, nodes: SyntaxNode[]): Sequence {
    return this.recursion.sequence(this, owner, nodes);
  }

  redirect(n: SyntaxNode): Redirect[] {
    return this.recursion.redirect(this, n);
  }

  range(n: SyntaxNode): Range {
    return this.offsetRange(n.start, n.end);
  }

  /** A range from offsets (also for text the grammar did not give a node). */
  offsetRange(start: number, end: number): Range {
    const a = this.pointAt(start);
    const b = this.pointAt(end);
    return { start, end, line: a.row + 1, column: a.column + 1, endLine: b.row + 1, endColumn: b.column + 1 };
  }

  rangeOf(first: Range, last: Range): Range {
    return { ...first, end: last.end, endLine: last.endLine, endColumn: last.endColumn };
  }

  text(n: SyntaxNode): string {
    return this.source.slice(n.start, n.end);
  }

  /** A command that cannot be analyzed, recorded as a problem. */
  unknown(n: SyntaxNode, reason: string): Command {
    const range = this.range(n);
    const text = this.text(n);
    this.problems.push({ reason, range: this.problemRange(n), text, ...(n.limit ? { limit: true } : {}) });
    this.reported.push([n.start, n.end]);
    return { kind: 'unknown', reason, text, range };
  }

  /** A word part that cannot be analyzed, recorded as a problem. */
  unknownPart(n: SyntaxNode, reason: string): WordPart {
    const text = this.text(n);
    this.problems.push({ reason, range: this.range(n), text });
    this.reported.push([n.start, n.end]);
    return { kind: 'unknown', text, reason };
  }

  /**
   * Where a problem is reported: for an ERROR node, from its first child the grammar could not
   * place (a stray token, a nested ERROR, a missing node). Tree-sitter often starts an ERROR at
   * the top of the file and keeps the valid statements before the real error inside it.
   */
  problemRange(n: SyntaxNode): Range {
    if (n.type !== 'ERROR') return this.range(n);
    const bad = n.children.find((c) => !c.named || c.type === 'ERROR' || c.missing);
    return bad ? this.offsetRange(bad.start, n.end) : this.range(n);
  }
}
