/**
 * Isolation per top-level command: where errors are left after the repairs (./recover.ts), each
 * costs only the top-level commands it is in.
 */
import { scanSource } from './heredocs.js';
import { errorCount, hasError, isError, MAX_REPAIR_ERRORS, type Reparse, type Tree } from './recover.js';
import { errorRootAsProgram, type SyntaxNode } from './tree.js';

/** Re-parses at most this many times per input: past it, the rest stays the grammar's tree. */
const MAX_ISOLATION_PARSES = 48;
const MAX_ISOLATION_DEPTH = 150;

/**
 * A tree whose errors cost only the top-level commands they are in, as bash, which reads and
 * runs a script one top-level command at a time, would reject only those: the statements before
 * an error are kept, and the text after it is parsed again on its own (everything before it
 * blanked, so every offset stays the original's), until it parses or nothing is left. A stretch
 * no fresh start reads is one ERROR node of its own lines (and the bodies of heredocs they start),
 * still "cannot analyze" there, never safe. Null when the tree has no top-level error.
 */
export function isolate(source: string, tree: Tree, reparse: Reparse): Tree | null {
  tree = { ...tree, root: errorRootAsProgram(tree.root) };
  if (!tree.root.children.some((c) => isError(c) || (hasError(c) && hasMissing(c)))) return null;
  // Not a shell script's few grammar gaps but another language (MAX_REPAIR_ERRORS): as read.
  if (errorCount(tree.root, MAX_REPAIR_ERRORS + 1) > MAX_REPAIR_ERRORS) return null;
  // Nor on a tree nested this deep (`{ { { ...` by the thousand): every re-parse of it is slow,
  // and no script's few grammar gaps look like that.
  if (tree.depth > MAX_ISOLATION_DEPTH) return null;
  const heredocs = scanSource(source)?.heredocs ?? null;
  const kept: SyntaxNode[] = [];
  let depth = tree.depth;
  let pos = 0;
  let current = tree;
  let parses = 0;
  let givenUp = false;
  const errorNode = (start: number, end: number): SyntaxNode => ({ type: 'ERROR', named: true, field: null, start, end: Math.max(start, end - (source[end - 1] === '\n' ? 1 : 0)), missing: false, children: [] });
  const blankBefore = (at: number) => source.slice(0, at).replace(/[^\n]/g, ' ') + source.slice(at);
  /** The end of the line holding `at` (and of the heredoc bodies it starts), past its newline. */
  const lineAfter = (at: number): number => {
    let nl = source.indexOf('\n', at);
    let end = nl < 0 ? source.length : nl + 1;
    for (const h of heredocs ?? []) if (h.op >= at && h.op < end) end = Math.max(end, Math.min(source.length, h.lineEnd + 1));
    nl = end;
    return nl;
  };
  for (;;) {
    let next = -1;
    for (const c of current.root.children) {
      if (c.end <= pos && !(c.start === c.end && c.start === pos)) continue;
      if (c.start < pos) {
        // A node begun in the blanked text (cannot happen with whole statements; kept safe).
        next = pos;
        break;
      }
      if (c.type !== 'ERROR' && !(hasError(c) && hasMissing(c))) {
        // The grammar reads a lone `}` or `done` as a command name; after a statement given up,
        // it is that statement's end.
        if (givenUp && c.type === 'command' && CLOSER.test(source.slice(c.start, lineAfter(c.start)))) {
          const last = kept[kept.length - 1]!;
          kept[kept.length - 1] = errorNode(last.start, lineAfter(c.start));
          continue;
        }
        kept.push(c);
        if (c.type !== 'comment') givenUp = false;
        continue;
      }
      if (c.type !== 'ERROR') {
        // A statement the grammar closed only with a MISSING token, often at the end of the
        // input (`f() {` whose body has an error swallows the rest of the file): bash rejects it
        // at its first error. Given up to that line; the text after is read again on its own.
        const end = lineAfter(firstError(c)!.start);
        if (end < c.end) {
          kept.push(errorNode(c.start, end));
          next = end;
          givenUp = true;
          break;
        }
        kept.push(c);
        continue;
      }
      // A top-level ERROR: the whole statements it begins with are read as they are.
      const bad = keepLeading(c, kept);
      next = bad < 0 ? c.end : bad;
      break;
    }
    if (next < 0) break;
    if (next >= source.length) break;
    // A fresh start at the statement that failed; if it fails there too, its line is given up.
    let from = next;
    // A lone closing word after a statement given up (`}`, `fi`, `done`): part of that statement.
    if (from === pos && givenUp && CLOSER.test(source.slice(pos, lineAfter(pos)))) {
      const last = kept[kept.length - 1]!;
      const end = lineAfter(pos);
      kept[kept.length - 1] = errorNode(last.start, end);
      from = end;
      givenUp = true;
    } else if (from === pos) {
      givenUp = true;
      // The statement fails here even on a fresh start: read alone, a few lines at a time (the
      // text after it can mislead the grammar's error recovery into it).
      const budget = { parses };
      const { alone, end: aloneEnd } = readAlone(source, pos, lineAfter, (to) => reparse(blankBefore(pos).slice(0, to) + source.slice(to).replace(/[^\n]/g, ' ')), budget);
      parses = budget.parses;
      let end = aloneEnd;
      if (alone) {
        for (const c of alone.root.children) if (c.start >= pos && c.end <= end && c.end > c.start) kept.push(c);
        depth = Math.max(depth, alone.depth);
        from = end;
        givenUp = false;
      } else {
        end = lineAfter(pos);
        kept.push({ type: 'ERROR', named: true, field: null, start: pos, end: Math.max(pos, end - (source[end - 1] === '\n' ? 1 : 0)), missing: false, children: [] });
        from = end;
      }
    }
    if (from >= source.length || !/\S/.test(source.slice(from))) break;
    if (++parses > MAX_ISOLATION_PARSES) {
      kept.push({ type: 'ERROR', named: true, field: null, start: from, end: source.length, missing: false, children: [], limit: `not read: more than ${MAX_ISOLATION_PARSES} fresh starts after parse errors before this line` });
      break;
    }
    const t = reparse(blankBefore(from));
    if ('failed' in t) {
      kept.push({ type: 'ERROR', named: true, field: null, start: from, end: source.length, missing: false, children: [], limit: `not read: ${t.failed}` });
      break;
    }
    depth = Math.max(depth, t.depth);
    current = { ...t, root: errorRootAsProgram(t.root) };
    pos = from;
  }
  const root: SyntaxNode = { ...tree.root, children: kept };
  return { root, hasErrors: kept.some((k) => hasError(k)), depth };
}

/**
 * The statement at `pos` read alone, a few lines at a time (1, 2, 4, ... 32): the first stretch
 * that parses with no error, or null. `parsePrefix(end)` parses the text up to `end` with the rest
 * blanked; each parse counts against `budget`.
 */
function readAlone(source: string, pos: number, lineAfter: (at: number) => number, parsePrefix: (end: number) => ReturnType<Reparse>, budget: { parses: number }): { alone: Tree | null; end: number } {
  let end = pos;
  for (let lines = 1, prev = pos; lines <= 32 && budget.parses < MAX_ISOLATION_PARSES; lines *= 2) {
    end = pos;
    for (let k = 0; k < lines && end < source.length; k++) end = lineAfter(end);
    if (end === prev) break;
    prev = end;
    budget.parses++;
    const t = parsePrefix(end);
    if (!('failed' in t) && !t.hasErrors) return { alone: t, end };
  }
  return { alone: null, end };
}

const CLOSER = /^[ \t]*(?:\}|fi|done|esac|\)|;;)[ \t]*(?:#.*)?\n?$/;

function hasMissing(n: SyntaxNode): boolean {
  const stack = [n];
  while (stack.length) {
    const c = stack.pop()!;
    if (c.missing) return true;
    for (const k of c.children) stack.push(k);
  }
  return false;
}

/** The first ERROR or MISSING node in source order. */
function firstError(n: SyntaxNode): SyntaxNode | null {
  if (isError(n)) return n;
  for (const c of n.children) {
    const e = firstError(c);
    if (e) return e;
  }
  return null;
}

const STATEMENT = new Set([
  'command', 'pipeline', 'list', 'redirected_statement', 'variable_assignment', 'variable_assignments', 'declaration_command',
  'unset_command', 'test_command', 'negated_command', 'subshell', 'compound_statement', 'if_statement', 'case_statement',
  'for_statement', 'c_style_for_statement', 'while_statement', 'function_definition', 'comment',
]);

const TERMINATOR = new Set([';', '&', '\n']);

/**
 * Keeps the whole statements a top-level ERROR begins with, each with the terminator after it
 * (`a=1; b=$((` keeps `a=1;`: a fresh start at the `;` itself would fail on it and give up the
 * rest of its line). Returns where the first one it cannot keep starts, or -1.
 */
function keepLeading(error: SyntaxNode, kept: SyntaxNode[]): number {
  for (const k of error.children) {
    const last = kept[kept.length - 1];
    if (k.named && k.type !== 'ERROR' && !k.missing && !hasError(k) && STATEMENT.has(k.type)) kept.push(k);
    else if (!k.named && TERMINATOR.has(k.type) && last && STATEMENT.has(last.type) && last.end <= k.start) kept.push(k);
    else return k.start;
  }
  return -1;
}
