/**
 * The parser layer's whole-tree checks descend only into nodes whose text can hold what they look
 * for (src/engine/parse/tree.ts pushChildrenContaining): the joined-line check (src/engine/parse/sanity.ts) into
 * nodes with a newline, the heredoc list (src/engine/parse/recover.ts) into nodes with a `<<`. Here they
 * are held to a walk of every node, on the corpus, on fixture scripts and on generated scripts
 * that mix multi-line constructs, line continuations, heredocs and nesting.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadNative } from '../../../../src/engine/parse/native.js';
import { findAllJoinedLines, findJoinedLines } from '../../../../src/engine/parse/sanity.js';
import { treeHeredocs } from '../../../../src/engine/parse/recover.js';
import { copyExported, copyTree, pointFinder, pushChildrenContaining, symbolNames, type ExportedTree, type SyntaxNode, type TreeCursorLike } from '../../../../src/engine/parse/tree.js';
import { REPO_ROOT } from '../../../helpers/shared.js';
import { corpusCommands } from '../../../helpers/corpus-commands.js';

const names = symbolNames();
function rawTree(source: string): SyntaxNode {
  const backend = loadNative();
  const t = backend.walk(source, 10_000);
  if (!t) throw new Error('parse timed out');
  const copied = 'words' in t ? copyExported(t as ExportedTree, 10_000, Infinity, names) : copyTree(t as TreeCursorLike, 10_000, Infinity, names, source);
  if (!('root' in copied)) throw new Error('too deep');
  return copied.root;
}

/** Every node, depth first, as the checks walked before (children pushed in order, popped last first). */
function* everyNode(root: SyntaxNode): Generator<SyntaxNode> {
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    yield n;
    for (const c of n.children) stack.push(c);
  }
}

/** The joined-line check over every node (the reference). */
function joinedReference(root: SyntaxNode, source: string, firstOnly: boolean): { offset: number; row: number; from: number }[] {
  const out: { offset: number; row: number; from: number }[] = [];
  if (!source.includes('\n')) return out;
  const points = pointFinder(source);
  for (const n of everyNode(root)) {
    if (n.type !== 'command' && n.type !== 'redirected_statement') continue;
    for (let i = 1; i < n.children.length; i++) {
      const prev = n.children[i - 1]!;
      const next = n.children[i]!;
      if (next.type.startsWith('heredoc') || prev.type.startsWith('heredoc')) continue;
      if (n.type === 'redirected_statement' && !next.type.endsWith('_redirect')) continue;
      let at = -1;
      for (let k = prev.end; k < next.start; k++) {
        if (source.charCodeAt(k) === 10 && !(k > prev.end && source.charCodeAt(k - 1) === 92)) {
          at = k;
          break;
        }
      }
      if (at >= 0) {
        out.push({ offset: at, row: points(prev.end).row, from: prev.end });
        if (firstOnly) return out;
        break;
      }
    }
  }
  return out;
}

/** heredoc_start nodes over every node (the reference). */
function heredocStartsReference(root: SyntaxNode): number[] {
  const out: number[] = [];
  for (const n of everyNode(root)) if (n.type === 'heredoc_start') out.push(n.start);
  return out.sort((a, b) => a - b);
}

function agree(source: string): { joined: number; heredocs: number } {
  const root = rawTree(source);
  const first = findJoinedLines(root, source);
  const all = findAllJoinedLines(root, source);
  const ref = joinedReference(root, source, false);
  expect(first, JSON.stringify(source)).toEqual(joinedReference(root, source, true)[0] ?? null);
  const key = (j: { offset: number; row: number; from: number }) => `${j.offset}/${j.row}/${j.from}`;
  expect(all.map(key).sort(), JSON.stringify(source)).toEqual(ref.map(key).sort());
  const heredocs = treeHeredocs(root, source).map((h) => h.start.start);
  expect(heredocs, JSON.stringify(source)).toEqual(heredocStartsReference(root));
  return { joined: ref.length, heredocs: heredocs.length };
}

const FILES = [
  'bin/bashguard-hook',
  '.ci/run',
  'test/fixtures/lint/project/filewide.sh',
  'test/fixtures/lint/project/escapes.sh',
  'test/fixtures/lint/project/broken.sh',
].map((f) => readFileSync(join(REPO_ROOT, f), 'utf8'));

/** Pieces that make multi-line trees: joined lines (the grammar's misparse), heredocs of every kind, nesting. */
const PIECES = [
  'ls | ls | cp a /b/c\necho ok > out.txt',
  'a | b | c\n\td > e',
  'A=1 B=2\nrun x',
  'cat <<EOF\nbody $x\nEOF',
  'cat <<-"E" | grep x\n\tz\n\tE',
  'f <<A <<B\na\nA\nb\nB',
  'x=$(cat <<Q\nq\nQ\n)',
  'echo a \\\n  b \\\n  c',
  'if true; then\n  echo x > y\nfi',
  'f() {\n  local v=$1\n  echo "$v" >&2\n}',
  'case $x in\n  a) echo 1 ;;\n  *) : ;;\nesac',
  'for i in 1 2; do\n  (cd d && make) | tee log\ndone',
  'echo "multi\nline" <<< "$(printf %s\n x)"',
  'while read -r l; do echo "$l"; done < <(ls\n)',
  'echo x > f # comment <<',
  'echo <<',
  'cmd 2>&1 |\n  grep y',
];

describe('pruned tree walks give what a walk of every node gives', () => {
  it('on the corpus commands and fixture scripts', () => {
    let joined = 0;
    let heredocs = 0;
    for (const s of [...corpusCommands(), ...FILES, ...PIECES]) {
      const r = agree(s);
      joined += r.joined;
      heredocs += r.heredocs;
    }
    // The inputs exercised both checks.
    expect(joined).toBeGreaterThan(0);
    expect(heredocs).toBeGreaterThan(5);
  });

  it('on generated scripts', () => {
    const script = fc.array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom('\n', '; ', ' && ', ' | ', '\n\n', ' \\\n')), { minLength: 1, maxLength: 8 }).map((parts) => parts.map(([p, sep]) => p + sep).join(''));
    fc.assert(fc.property(script, (s) => void agree(s)), { seed: 1126, numRuns: 300 });
  });
});

describe('pushChildrenContaining', () => {
  it('pushes exactly the children whose text holds the needle, overlapping occurrences included', () => {
    const node = (start: number, end: number): SyntaxNode => ({ type: 'x', named: true, field: null, start, end, missing: false, children: [] });
    const source = 'ab<<<cd<< e\nf';
    const kids = [node(0, 2), node(2, 4), node(3, 5), node(4, 5), node(5, 9), node(9, 12), node(12, 13)];
    const parent = { ...node(0, 13), children: kids };
    const stack: SyntaxNode[] = [];
    pushChildrenContaining(stack, parent, source, '<<');
    expect(stack.map((c) => [c.start, c.end])).toEqual([[2, 4], [3, 5], [5, 9]]);
    const lines: SyntaxNode[] = [];
    pushChildrenContaining(lines, parent, source, '\n');
    expect(lines.map((c) => [c.start, c.end])).toEqual([[9, 12]]);
  });
});
