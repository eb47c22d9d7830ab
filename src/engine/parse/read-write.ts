/**
 * `<>` (open read-write; on fd 0 unless a descriptor is given). tree-sitter-bash has no rule for
 * it: it reads `<`, an ERROR holding `>`, then the target, which the IR reads as `<>`
 * (src/engine/syntax/build.ts). That ERROR is harmless in a small input, but in a long one the
 * grammar's error recovery may instead turn everything around it into one ERROR (xdg-open's
 * `! ( : <>/dev/tty )`, 800 lines in, left its first function unread). So the `>` is shown to the
 * grammar as a blank (a plain `<` redirect), and the repaired tree gets back the shape the IR
 * reads: `<`, ERROR(`>`), target.
 */
import type { Edit } from './rewrite.js';
import type { SyntaxNode } from './tree.js';

/** The `>` of each `<>` in [from, to) shown as a blank. */
export function readWriteEdits(source: string, from: number, to: number): Edit[] {
  const out: Edit[] = [];
  for (let at = source.indexOf('<>', from); at >= 0 && at < to; at = source.indexOf('<>', at + 2)) {
    // `<<>` and `\<>` are not this operator; `<>>` is no operator bash has.
    if (source[at - 1] === '<' || source[at - 1] === '\\' || source[at + 2] === '>') continue;
    out.push({ start: at + 1, end: at + 2, text: ' ' });
  }
  return out;
}

/** Puts back the ERROR(`>`) after the `<` of each file redirect the source writes `<>`. */
export function restoreReadWrite(root: SyntaxNode, source: string): void {
  if (!source.includes('<>')) return;
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'file_redirect') {
      const i = n.children.findIndex((c) => !c.named && c.type === '<');
      const op = n.children[i];
      const next = n.children[i + 1];
      if (op && source[op.end] === '>' && (!next || next.start > op.end) && !n.children.some((c) => c.type === 'ERROR')) {
        const gt: SyntaxNode = { type: '>', named: false, field: null, start: op.end, end: op.end + 1, missing: false, children: [] };
        n.children.splice(i + 1, 0, { type: 'ERROR', named: true, field: null, start: op.end, end: op.end + 1, missing: false, children: [gt] });
      }
    }
    for (const c of n.children) if (c.start <= c.end) stack.push(c);
  }
}
