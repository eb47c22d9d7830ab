/**
 * src/engine/parse/isolate.ts on a root ERROR the grammar made: the statements it begins with are
 * kept, the `;` that ends one of them with it, and the text after is read again from the next
 * statement. The root here is built by hand in the shape tree-sitter gives a long script with an
 * error far below (socat's test.sh: `MICROS=${MICROS##0000}; MICROS=${MICROS##00}` on line 48).
 */
import { describe, expect, it } from 'vitest';
import { getParser } from '../../../../src/engine/parse/index.js';
import { isolate } from '../../../../src/engine/parse/isolate.js';
import type { Reparse } from '../../../../src/engine/parse/recover.js';
import type { SyntaxNode } from '../../../../src/engine/parse/tree.js';

const parser = await getParser('native');
const reparse: Reparse = (text) => {
  const r = parser.parse(text);
  return r.ok ? { root: r.root, hasErrors: r.hasErrors, depth: r.depth } : { failed: r.message };
};
const node = (type: string, start: number, end: number, named = true, children: SyntaxNode[] = []): SyntaxNode => ({ type, named, field: null, start, end, missing: false, children });

describe('isolate: a root ERROR', () => {
  const source = 'a=1; b=2; c=3\n';
  // The grammar kept `a=1` as a statement; `;` is a token of the ERROR, and what follows it
  // (here made an ERROR by hand) is where its recovery went wrong.
  const root = node('ERROR', 0, source.length, true, [node('variable_assignment', 0, 3), node(';', 3, 4, false), node('ERROR', 5, 13)]);

  it('keeps the `;` with the statement before it, and reads the rest of the line again', () => {
    const out = isolate(source, { root, hasErrors: true, depth: 2 }, reparse)!;
    expect(out).not.toBeNull();
    expect(out.hasErrors).toBe(false);
    const texts = out.root.children.filter((c) => c.named).map((c) => source.slice(c.start, c.end));
    expect(texts).toEqual(['a=1', 'b=2', 'c=3']);
  });

  it('where the re-parse fails (a limit), the rest is an ERROR marked as the limit, not as a syntax error', () => {
    const failing: Reparse = () => ({ failed: 'parse took longer than 1500 ms' });
    const out = isolate(source, { root, hasErrors: true, depth: 2 }, failing)!;
    const last = out.root.children[out.root.children.length - 1]!;
    expect(last.type).toBe('ERROR');
    expect(last.limit).toMatch(/not read: parse took longer/);
    expect(source.slice(last.start)).toBe('b=2; c=3\n');
  });
});
