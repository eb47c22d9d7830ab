/**
 * The parser-neutral syntax tree. Every backend's tree is copied once into these plain objects:
 * bashguard's tree export (native/tree-export.c) hands over the whole tree in one typed array
 * (`copyExported`); tree-sitter's own binding and the WASM fallback are walked with a tree cursor
 * (`copyTree`). Nothing above `src/engine/parse` can tell which backend ran, and two parses can be
 * compared structurally.
 *
 * Nodes carry offsets only: rows and columns come from `pointFinder(source)` where a range is
 * reported (src/engine/syntax/context.ts), which is cheaper than computing them for every punctuation
 * token and exactly what tree-sitter reports (test/unit/engine/interpret/points.test.ts).
 */
export interface Point {
  row: number;
  column: number;
}

export interface SyntaxNode {
  type: string;
  /** Named nodes are grammar rules; anonymous ones are punctuation and keywords. */
  named: boolean;
  /** The grammar field this node fills in its parent (`name`, `argument`, `body`, ...). */
  field: string | null;
  /** Offsets are UTF-16 code units into the source string, as both backends report them. */
  start: number;
  end: number;
  /** A node tree-sitter inserted to recover from an error (e.g. a missing `fi`). */
  missing: boolean;
  children: SyntaxNode[];
  /**
   * On an ERROR the parser layer made where a limit stopped it (./isolate.ts): why the text from
   * here on is not read. Not a syntax error: bash may accept the text.
   */
  limit?: string;
}

/** Why a parse produced no usable tree. Each one is a defined outcome, never a crash. */
export type ParseFailureKind = 'too-large' | 'too-deep' | 'timeout' | 'parser-error';

export interface ParseFailure {
  ok: false;
  kind: ParseFailureKind;
  message: string;
  backend: BackendName;
  /** Offset in the source the failure is about, when it is about one place (a misparse). */
  at?: number;
}

export interface ParseSuccess {
  ok: true;
  root: SyntaxNode;
  source: string;
  backend: BackendName;
  /** True when any ERROR or MISSING node is in the tree. */
  hasErrors: boolean;
  /** Deepest nesting seen, counted in tree nodes. */
  depth: number;
}

export type ParseResult = ParseSuccess | ParseFailure;

export type BackendName = 'native' | 'wasm';

/** What a backend has to provide: the cursor API shared by both tree-sitter bindings. */
export interface TreeCursorLike {
  readonly nodeType: string;
  /** The grammar symbol (the alias's, for an aliased node): its type and named-ness are fixed. */
  readonly nodeTypeId: number;
  readonly nodeIsNamed: boolean;
  readonly nodeIsMissing: boolean;
  readonly currentFieldName: string | null | undefined;
  /** 0 when the node fills no field. */
  readonly currentFieldId: number;
  readonly startIndex: number;
  readonly endIndex: number;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
  /** Frees what the backend holds outside the JS heap (the WASM tree); called once, after the copy. */
  release?(): void;
  /**
   * Whether the tree holds an ERROR or MISSING node anywhere (the root's `hasError`), read once
   * per tree; undefined when the backend did not say (the copy then asks about every node).
   */
  treeHasError?: boolean;
}

/**
 * What is fixed per grammar symbol and field id, learned once per backend: each binding call
 * costs about as much as a small JS function, and type names cost a string each, so the copy
 * reads two numbers per node instead.
 */
export interface SymbolNames {
  types: string[];
  named: boolean[];
  fields: (string | null)[];
  /** Per symbol: 1 when the grammar gives the type no children (LEAF_TYPES), 0 when it may have some. */
  leaf: number[];
  /** Per symbol: 1 when the grammar gives the type no fields (FIELDLESS_TYPES), 0 when it may have some. */
  fieldless: number[];
}

/**
 * Node types the grammar never gives a child (tree-sitter-bash's generated node-types.json: no
 * `children`, `fields` or `subtypes`; test/unit/engine/parse/grammar-facts.test.ts keeps this list equal to
 * it). One string, types separated by spaces (none holds one): looked up only when a symbol is
 * first met, and cheaper to load than an array and a set in every hook process. In a tree without errors such a node can still hold an extra: of the grammar's extras only
 * `comment` is visible, so the copy asks the cursor for children only when a `#` lies in the
 * node's text. (`word` is also the alias of a non-terminal, `repeat1(_special_character)`, whose
 * children are hidden tokens: why the comment and the error cases are needed.)
 */
export const LEAF_TYPES =
  ' ' +
  'word ! != " # ## $ $( $(( $[ $` ${ % %% %= & && &= &> &>> ( (( ) )) * ** **= *= + ++ += , ,, - -- ' +
  '-= -a -o .. / /# /% // /= : :+ :- := :? ; ;& ;; ;;& < <& <&- <( << <<- <<< <<= <= = == =~ > >& >&- ' +
  '>( >= >> >>= >| ? @ A E K L P Q U [ [[ ] ]] ^ ^= ^^ ` `` a ansi_c_string case comment declare do ' +
  'done elif else esac export extglob_pattern fi file_descriptor for function heredoc_content ' +
  'heredoc_end heredoc_start if in k local raw_string readonly regex select special_variable_name ' +
  'string_content test_operator then typeset u unset unsetenv until variable_name while { | |& |= || } ' +
  '~ ';

/**
 * Node types that may have children and fill none of their children's fields (node-types.json:
 * no `fields`); in a tree without errors (an ERROR node can hold anything) their children's
 * field is null without asking. Test: test/unit/engine/parse/grammar-facts.test.ts.
 */
export const FIELDLESS_TYPES =
  ' ' +
  'arithmetic_expansion array brace_expression command_name compound_statement concatenation ' +
  'declaration_command do_group elif_clause else_clause heredoc_body list negated_command number ' +
  'parenthesized_expression pipeline process_substitution program simple_expansion string subshell ' +
  'test_command translated_string unset_command variable_assignments ';

/** Whether `type` is one of a list above (space-separated, with a space at each end). */
const listed = (list: string, type: string): boolean => list.includes(` ${type} `);

/** Symbols below this are remembered in SymbolNames' arrays (the grammar has a few hundred). */
const DENSE_SYMBOLS = 4096;

export function symbolNames(): SymbolNames {
  return { types: [], named: [], fields: [null], leaf: [], fieldless: [] };
}

/**
 * Copies a tree-sitter tree into plain nodes with an explicit stack (no recursion, so a
 * 10,000-level nesting cannot overflow the JS stack). Stops with `too-deep` past `maxDepth`.
 */
export function copyTree(
  cursor: TreeCursorLike,
  maxDepth: number,
  /** performance.now() past which the copy gives up (a huge tree costs seconds and memory). */
  deadline = Infinity,
  names: SymbolNames = symbolNames(),
  /** The parsed text: with it (and `treeHasError` false) leaves and fields are known from the grammar. */
  source?: string,
): { root: SyntaxNode; hasErrors: boolean; depth: number } | { tooDeep: true; depth: number } | { timedOut: true } {
  const { types, named, fields, leaf, fieldless } = names;
  // What the grammar says (LEAF_TYPES, FIELDLESS_TYPES) holds in a tree without ERROR nodes: each
  // fact spares a binding call per node (gotoFirstChild on a leaf, currentFieldId under a parent
  // that fills no field), the copy's main cost.
  const grammarFacts = source !== undefined && cursor.treeHasError === false;
  const firstHash = grammarFacts ? source.indexOf('#') : -1;
  /** The symbol of the node made last (its leaf and fieldless facts). */
  let lastSymbol = 0;
  const make = (parentFieldless: boolean): SyntaxNode => {
    const symbol = cursor.nodeTypeId;
    // The arrays stay dense: ERROR's symbol is 65535, and storing at that index once turned them
    // into dictionaries for good (every later lookup slow). Such symbols are asked each time.
    let type = symbol < DENSE_SYMBOLS ? types[symbol] : undefined;
    let isNamed: boolean;
    if (type === undefined) {
      type = cursor.nodeType;
      isNamed = cursor.nodeIsNamed;
      if (symbol < DENSE_SYMBOLS) {
        types[symbol] = type;
        named[symbol] = isNamed;
        leaf[symbol] = listed(LEAF_TYPES, type) ? 1 : 0;
        fieldless[symbol] = isNamed && listed(FIELDLESS_TYPES, type) ? 1 : 0;
      }
    } else isNamed = named[symbol]!;
    lastSymbol = symbol;
    let field: string | null | undefined = null;
    if (!parentFieldless) {
      // The native binding gives undefined for "no field" (0 in the WASM one): no array lookup then.
      const fieldId = cursor.currentFieldId;
      field = fieldId ? fields[fieldId] : null;
      if (field === undefined) field = fields[fieldId] = cursor.currentFieldName ?? null;
    }
    const start = cursor.startIndex;
    const end = cursor.endIndex;
    return {
      type,
      named: isNamed,
      field,
      start,
      end,
      // Only a zero-width node can be one tree-sitter inserted.
      missing: start === end && cursor.nodeIsMissing,
      children: [],
    };
  };
  /** Whether the node just made may have children (else gotoFirstChild is not asked). */
  const mayHaveChildren = (node: SyntaxNode): boolean => {
    if (!grammarFacts || lastSymbol >= DENSE_SYMBOLS || leaf[lastSymbol] !== 1) return true;
    // A comment (the one visible extra) can sit inside any node: only where a `#` is.
    if (firstHash < 0 || firstHash >= node.end) return false;
    const h = source!.indexOf('#', node.start);
    return h >= 0 && h < node.end;
  };
  const kidsFieldless = (): boolean => grammarFacts && lastSymbol < DENSE_SYMBOLS && fieldless[lastSymbol] === 1;
  const root = make(false);
  let hasErrors = root.type === 'ERROR' || root.missing;
  const stack: SyntaxNode[] = [root];
  /** Per stack entry: whether its children's field is known to be null. */
  const noFields: boolean[] = [kidsFieldless()];
  let maxSeen = 1;
  if (!mayHaveChildren(root) || !cursor.gotoFirstChild()) return { root, hasErrors, depth: 1 };
  let count = 0;
  for (;;) {
    if ((++count & 4095) === 0 && performance.now() > deadline) return { timedOut: true };
    const node = make(noFields[stack.length - 1]!);
    if (node.type === 'ERROR' || node.missing) hasErrors = true;
    stack[stack.length - 1]!.children.push(node);
    if (stack.length + 1 > maxSeen) maxSeen = stack.length + 1;
    if (maxSeen > maxDepth) return { tooDeep: true, depth: maxSeen };
    if (mayHaveChildren(node) && cursor.gotoFirstChild()) {
      noFields[stack.length] = kidsFieldless();
      stack.push(node);
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) return { root, hasErrors, depth: maxSeen };
      stack.pop();
      if (stack.length === 0) return { root, hasErrors, depth: maxSeen };
    }
  }
}

/**
 * A whole tree as bashguard's tree export writes it (native/tree-export.c): 4 words per visible
 * node in preorder, `symbol | field << 16`, start, end, `children | MISSING_BIT`. The array is
 * the backend's and reused by its next parse: copy before parsing again.
 */
export interface ExportedTree {
  readonly words: Uint32Array;
  /** Nodes in `words`. */
  readonly count: number;
  /** A symbol's type name and whether it is named (asked once per symbol). */
  symbol(id: number): [string, boolean];
  fieldName(id: number): string | null;
}

const EXPORT_MISSING = 0x80000000;
const EXPORT_CHILDREN = 0x7fffffff;
/** The children of every leaf copyExported makes (never written: frozen). */
const NO_CHILDREN: SyntaxNode[] = Object.freeze([]) as unknown as SyntaxNode[];

/**
 * Builds the plain nodes of an exported tree, with the same results and limits as `copyTree`
 * (test/system/engine/parse-export.test.ts compares the two on every corpus input). Throws on an array whose
 * child counts do not add up (a broken addon): the parser layer reports that as a parser error.
 */
export function copyExported(
  tree: ExportedTree,
  maxDepth: number,
  deadline = Infinity,
  names: SymbolNames = symbolNames(),
): { root: SyntaxNode; hasErrors: boolean; depth: number } | { tooDeep: true; depth: number } | { timedOut: true } {
  const { words, count } = tree;
  const { types, named, fields } = names;
  if (count < 1 || count * 4 > words.length) throw new Error(`tree export: ${count} nodes in ${words.length} words`);
  const make = (i: number): SyntaxNode => {
    const at = i * 4;
    const w0 = words[at]!;
    const symbol = w0 & 0xffff;
    const fieldId = w0 >>> 16;
    let type = symbol < DENSE_SYMBOLS ? types[symbol] : undefined;
    let isNamed: boolean;
    if (type === undefined) {
      [type, isNamed] = tree.symbol(symbol);
      if (symbol < DENSE_SYMBOLS) {
        types[symbol] = type;
        named[symbol] = isNamed;
      }
    } else isNamed = named[symbol]!;
    let field: string | null | undefined = null;
    if (fieldId) {
      field = fields[fieldId];
      if (field === undefined) field = fields[fieldId] = tree.fieldName(fieldId);
    }
    // Each parent's children array is made at its size and filled in place (a pushed-to array
    // grows to 17 slots at its first push: most nodes have one to three children). Leaves, about
    // half the nodes, share one frozen empty array.
    const kids = words[at + 3]! & EXPORT_CHILDREN;
    return { type, named: isNamed, field, start: words[at + 1]!, end: words[at + 2]!, missing: (words[at + 3]! & EXPORT_MISSING) !== 0, children: kids === 0 ? NO_CHILDREN : new Array<SyntaxNode>(kids) };
  };
  const root = make(0);
  let hasErrors = root.type === 'ERROR' || root.missing;
  const stack: SyntaxNode[] = [root];
  /** Per stack entry: children still to come. */
  const left: number[] = [root.children.length];
  let maxSeen = 1;
  for (let i = 1; i < count; i++) {
    if ((i & 4095) === 0 && performance.now() > deadline) return { timedOut: true };
    while (left[left.length - 1] === 0) {
      stack.pop();
      left.pop();
      if (stack.length === 0) throw new Error('tree export: more nodes than the root holds');
    }
    const node = make(i);
    if (node.type === 'ERROR' || node.missing) hasErrors = true;
    const parent = stack[stack.length - 1]!.children;
    parent[parent.length - left[left.length - 1]!--] = node;
    if (stack.length + 1 > maxSeen) maxSeen = stack.length + 1;
    if (maxSeen > maxDepth) return { tooDeep: true, depth: maxSeen };
    // make() sized the array from the node's child count.
    if (node.children.length > 0) {
      stack.push(node);
      left.push(node.children.length);
    }
  }
  if (left.some((n) => n !== 0)) throw new Error('tree export: fewer nodes than their parents hold');
  return { root, hasErrors, depth: maxSeen };
}

/**
 * Row and column of a UTF-16 offset, as tree-sitter reports them for string input (rows split on
 * `\n`, columns in code units). Binary search over line starts.
 */
export function pointFinder(source: string): (index: number) => Point {
  const starts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return (index) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return { row: lo, column: index - starts[lo]! };
  };
}

/**
 * Pushes onto `stack` the children of `node` whose text contains `needle`, in order. Walks that
 * look for something only such a node can hold (a newline inside a command, a `<<` heredoc
 * operator) descend only into these: a child's text lies within its parent's, so a subtree
 * without the needle holds no match. One forward `indexOf` serves all the children (they are
 * in source order): the first occurrence at or after a child's start is kept until a child
 * starts past it.
 */
export function pushChildrenContaining(stack: SyntaxNode[], node: SyntaxNode, source: string, needle: string): void {
  let at = -2; // not searched yet
  for (const c of node.children) {
    if (at !== -1 && at < c.start) at = source.indexOf(needle, c.start);
    if (at === -1) return; // none at or after this child's start, so none in the rest
    if (at + needle.length <= c.end) stack.push(c);
  }
}

/**
 * The grammar makes the root itself an ERROR when no statement could start the input; its
 * children are then tokens, not statements. Read as a program of one top-level ERROR (./recover.ts
 * keeps its leading whole statements and reads the rest again on its own).
 */
export function errorRootAsProgram(root: SyntaxNode): SyntaxNode {
  return root.type === 'ERROR' ? { ...root, type: 'program', children: [root] } : root;
}
