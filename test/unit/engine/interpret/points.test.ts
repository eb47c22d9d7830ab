/**
 * The parser layer computes line/column from offsets instead of asking the binding for every
 * node (src/engine/parse/tree.ts pointFinder). This checks it against tree-sitter's own positions on
 * every node of the shared parser test inputs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pointFinder } from '../../../../src/engine/parse/tree.js';
import { sharedDirOrSkip, bindingOrSkip } from '../../../helpers/shared.js';

interface TsNode {
  startIndex: number;
  endIndex: number;
  startPosition: { row: number; column: number };
  endPosition: { row: number; column: number };
  children: TsNode[];
}

describe('pointFinder matches tree-sitter positions', () => {
  const shared = sharedDirOrSkip();
  it('on every node of the shared parser test inputs (CRLF and non-ASCII included)', (ctx) => {
    if (shared.skip !== null) return ctx.skip(shared.skip);
    const noBinding = bindingOrSkip("pointFinder against tree-sitter's own positions");
    if (noBinding !== null) return ctx.skip(noBinding);
    const require = createRequire(import.meta.url);
    const Parser = require('tree-sitter') as new () => { setLanguage(l: unknown): void; parse(s: string, o?: null, opts?: { bufferSize: number }): { rootNode: TsNode } };
    const parser = new Parser();
    parser.setLanguage(require('tree-sitter-bash'));
    const inputs: string[] = ['a\r\nb > "é😀"\nc', '\n\n  x=1\n'];
    for (const f of ['tree-sitter-bash.jsonl', 'mvdan-sh.jsonl']) {
      for (const line of readFileSync(join(shared.dir, 'corpora', 'parser_tests', f), 'utf8').split('\n')) {
        const input = line.trim() ? (JSON.parse(line) as { input?: unknown }).input : undefined;
        if (typeof input === 'string') inputs.push(input);
      }
    }
    let nodes = 0;
    let mismatches = 0;
    for (const src of inputs) {
      const at = pointFinder(src);
      const stack = [parser.parse(src, null, { bufferSize: src.length * 2 + 1024 }).rootNode];
      while (stack.length) {
        const n = stack.pop()!;
        nodes++;
        const s = at(n.startIndex);
        const e = at(n.endIndex);
        if (s.row !== n.startPosition.row || s.column !== n.startPosition.column || e.row !== n.endPosition.row || e.column !== n.endPosition.column) mismatches++;
        stack.push(...n.children);
      }
    }
    expect(inputs.length).toBeGreaterThan(1000);
    expect(nodes).toBeGreaterThan(10000);
    expect(mismatches).toBe(0);
  });
});

describe('pointFinder, any order of questions', () => {
  it('answers as a count of the newlines before the offset, whatever was asked before', () => {
    const text = fc.array(fc.constantFrom('a', 'é', '\n', '\r', ' ', '😀'), { maxLength: 60 }).map((a) => a.join(''));
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 40 }), (src, asks) => {
        const at = pointFinder(src);
        for (const raw of asks) {
          const i = raw % (src.length + 1);
          const before = src.slice(0, i);
          const row = before.split('\n').length - 1;
          expect(at(i)).toEqual({ row, column: i - (before.lastIndexOf('\n') + 1) });
        }
      }),
      { seed: 1126, numRuns: 500 },
    );
  });
});
