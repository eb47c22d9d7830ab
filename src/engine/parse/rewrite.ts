/**
 * Text edits whose parse maps back onto the original text. A recovery (./recover.ts) parses a
 * corrected copy of the input and maps every node of that tree back to offsets of the original,
 * so ranges, rows, columns and every word the IR reads (always sliced from the original source)
 * stay those of what the user wrote.
 */
import type { SyntaxNode } from './tree.js';

/** Replace original [start, end) with `text` (an insertion when start === end). */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

interface Segment {
  /** Range in the edited text. */
  pStart: number;
  pEnd: number;
  /** Range in the original text (same length as the edited one when `copy`). */
  oStart: number;
  oEnd: number;
  copy: boolean;
}

export interface Rewritten {
  text: string;
  /** Offset in the original for a node that starts at `p` in the edited text. */
  mapStart(p: number): number;
  /** Offset in the original for a node that ends at `p` in the edited text. */
  mapEnd(p: number): number;
  /** Whether the edited range [p, q) lies wholly inside inserted text (no original behind it). */
  inserted(p: number, q: number): boolean;
}

/** Applies non-overlapping edits (any order) to `source`. Returns null if two edits overlap. */
export function applyEdits(source: string, edits: readonly Edit[]): Rewritten | null {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const segments: Segment[] = [];
  let text = '';
  let o = 0;
  for (const e of sorted) {
    if (e.start < o || e.end < e.start || e.end > source.length) return null;
    if (e.start > o) {
      segments.push({ pStart: text.length, pEnd: text.length + (e.start - o), oStart: o, oEnd: e.start, copy: true });
      text += source.slice(o, e.start);
    }
    segments.push({ pStart: text.length, pEnd: text.length + e.text.length, oStart: e.start, oEnd: e.end, copy: false });
    text += e.text;
    o = e.end;
  }
  if (o < source.length) {
    segments.push({ pStart: text.length, pEnd: text.length + (source.length - o), oStart: o, oEnd: source.length, copy: true });
    text += source.slice(o);
  }
  const find = (p: number, preferEnd: boolean): Segment | null => {
    // The segment containing p; for an end offset, the one that p closes.
    let lo = 0;
    let hi = segments.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = segments[mid]!;
      if (preferEnd ? p <= s.pStart : p < s.pStart) hi = mid - 1;
      else if (preferEnd ? p > s.pEnd : p >= s.pEnd) lo = mid + 1;
      else return s;
    }
    return null;
  };
  return {
    text,
    mapStart(p) {
      const s = find(p, false);
      if (!s) return p <= 0 ? 0 : source.length;
      return s.copy ? s.oStart + (p - s.pStart) : s.oStart;
    },
    mapEnd(p) {
      const s = find(p, true);
      if (!s) return p <= 0 ? 0 : source.length;
      return s.copy ? s.oStart + (p - s.pStart) : s.oEnd;
    },
    inserted(p, q) {
      if (q <= p) return false;
      const s = find(p, false);
      return !!s && !s.copy && s.oStart === s.oEnd && q <= s.pEnd;
    },
  };
}

/**
 * The tree of the edited text with offsets of the original. Nodes made only of inserted text
 * (a synthetic heredoc terminator) are dropped. Iterative: trees can be 400 levels deep.
 */
export function mapTree(root: SyntaxNode, rw: Rewritten): { root: SyntaxNode; hasErrors: boolean } {
  let hasErrors = false;
  const copy = (n: SyntaxNode): SyntaxNode => {
    if (n.type === 'ERROR' || n.missing) hasErrors = true;
    const start = rw.mapStart(n.start);
    const end = n.missing || n.start === n.end ? start : Math.max(start, rw.mapEnd(n.end));
    return { type: n.type, named: n.named, field: n.field, start, end, missing: n.missing, children: [] };
  };
  const out = copy(root);
  const stack: [SyntaxNode, SyntaxNode][] = [[root, out]];
  while (stack.length) {
    const [from, to] = stack.pop()!;
    for (const c of from.children) {
      if (!c.missing && rw.inserted(c.start, c.end)) continue;
      const m = copy(c);
      to.children.push(m);
      if (c.children.length) stack.push([c, m]);
    }
  }
  return { root: out, hasErrors };
}

/**
 * `$name` shown as `${name}` (the same expansion to bash, and to the grammar a closed one): two
 * insertions around [nameStart, nameEnd), so the name keeps its own range.
 */
export function bracedName(nameStart: number, nameEnd: number): Edit[] {
  return [{ start: nameStart, end: nameStart, text: '{' }, { start: nameEnd, end: nameEnd, text: '}' }];
}
