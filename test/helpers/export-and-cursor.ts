/**
 * The two native trees of one input: bashguard's tree export (native/tree-export.c, with the
 * tree-sitter runtime compiled into it) and the cursor copy of tree-sitter's own binding (its own,
 * unchanged runtime), each made parser-neutral. Tests compare them: they must be equal for every input.
 */
import { loadNativeBackend } from '../../src/engine/parse/native.js';
import { copyExported, copyTree, symbolNames, type ExportedTree, type TreeCursorLike } from '../../src/engine/parse/tree.js';

export type Copied = ReturnType<typeof copyTree>;

/** A function giving [the export's tree, the cursor copy's tree] of a source. */
export function exportAndCursor(): (source: string) => [Copied, Copied] {
  const exp = loadNativeBackend('export');
  const cur = loadNativeBackend('direct');
  const namesA = symbolNames();
  const namesB = symbolNames();
  return (s) => [
    copyExported(exp.walk(s, s.length + 1) as ExportedTree, 10_000, Infinity, namesA),
    copyTree(cur.walk(s, s.length + 1) as TreeCursorLike, 10_000, Infinity, namesB, s),
  ];
}
