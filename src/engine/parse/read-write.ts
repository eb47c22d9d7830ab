/**
 * `<>` (open read-write; on fd 0 unless a descriptor is given). tree-sitter-bash has no rule for
 * it: it reads `<`, an ERROR holding `>`, then the target, which the IR reads as `<>`
 * (src/engine/syntax/redirects.ts). That ERROR is harmless in a small input, but in a long one the
 * grammar's error recovery may instead turn everything around it into one ERROR (xdg-open's
 * `! ( : <>/dev/tty )`, 800 lines in, left its first function unread). So the `>` is shown to the
 * grammar as a blank (a plain `<` redirect), and the repaired tree gets back the shape the IR
 * reads: `<`, ERROR(`>`), target.
 *
 * Two more operators the grammar lacks in some places get the same treatment: a here-string after
 * a compound statement (`{ ...; } <<<"$x"`: the grammar allows it only after simple commands and
 * loops) is shown as `<` and given back as a herestring_redirect, and `! (( ... ))` (negated
 * arithmetic, which the grammar's negated_command lacks) is shown without its `!` and given back
 * as a negated_command around the arithmetic.
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

/** The `<<` of each `<<<` in [from, to) shown as blanks. */
export function hereStringEdits(source: string, from: number, to: number): Edit[] {
  const out: Edit[] = [];
  for (let at = source.indexOf('<<<', from); at >= 0 && at < to; at = source.indexOf('<<<', at + 3)) {
    if (source[at - 1] === '<' || source[at - 1] === '\\') continue;
    out.push({ start: at, end: at + 2, text: '  ' });
  }
  return out;
}

/** A file redirect whose `<` ends a `<<<` in the source becomes the here-string it is. */
export function restoreHereStrings(root: SyntaxNode, source: string): void {
  if (!source.includes('<<<')) return;
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'file_redirect') {
      const op = n.children.find((c) => !c.named && c.type === '<');
      if (op && op.start >= 2 && source.slice(op.start - 2, op.end) === '<<<' && !n.children.some((c) => c.type === 'ERROR')) {
        n.type = 'herestring_redirect';
        n.start = Math.min(n.start, op.start - 2);
        op.type = '<<<';
        op.start -= 2;
      }
    }
    for (const c of n.children) stack.push(c);
  }
}

/** `! ((`: the `!` shown as a blank, where bash reads `((` as arithmetic (the grammar then does too). */
export function negatedArithmeticEdit(source: string, bang: SyntaxNode): Edit | null {
  if (bang.named || bang.type !== '!') return null;
  const m = /^[ \t]+\(\(/.exec(source.slice(bang.end, bang.end + 64));
  return m ? { start: bang.start, end: bang.end, text: ' ' } : null;
}

/** Wraps the `((` statement after each blanked `!` (at `bangs`) in a negated_command again. */
export function restoreNegations(root: SyntaxNode, source: string, bangs: readonly number[]): void {
  if (bangs.length === 0) return;
  const wanted = new Map<number, number>();
  for (const b of bangs) wanted.set(source.indexOf('((', b), b);
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    n.children.forEach((c, i) => {
      const bang = c.type === 'compound_statement' && c.children[0]?.type === '((' ? wanted.get(c.start) : undefined;
      if (bang === undefined) return;
      wanted.delete(c.start);
      const token: SyntaxNode = { type: '!', named: false, field: null, start: bang, end: bang + 1, missing: false, children: [] };
      n.children[i] = { type: 'negated_command', named: true, field: c.field, start: bang, end: c.end, missing: false, children: [token, { ...c, field: null }] };
    });
    for (const c of n.children) stack.push(c);
  }
}
