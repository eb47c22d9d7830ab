/**
 * The copy of a tree-sitter tree (src/engine/parse/tree.ts, copyTree) skips binding calls where the
 * grammar decides the answer: no gotoFirstChild on a node type the grammar gives no children (a
 * `#` in its text aside: a comment is an extra, allowed anywhere), no currentFieldId under a
 * parent type that fills no field; both only in a tree without errors. Checked here: the two
 * lists are what tree-sitter-bash's node-types.json says, and on both backends the copy with
 * these facts equals the copy that asks the cursor about every node.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { copyTree, FIELDLESS_TYPES, LEAF_TYPES, symbolNames, type TreeCursorLike } from '../../../../src/engine/parse/tree.js';
import { loadNativeBackend } from '../../../../src/engine/parse/native.js';
import { loadWasm, wasmParse } from '../../../../src/engine/parse/wasm.js';
import { bindingOrSkip, sharedDirOrSkip } from '../../../helpers/shared.js';

interface NodeType {
  type: string;
  named: boolean;
  children?: unknown;
  fields?: Record<string, unknown>;
  subtypes?: unknown;
}

const require = createRequire(import.meta.url);
const nodeTypes = JSON.parse(readFileSync(require.resolve('tree-sitter-bash/src/node-types.json'), 'utf8')) as NodeType[];
const hasFields = (t: NodeType): boolean => Object.keys(t.fields ?? {}).length > 0;

describe('grammar facts used by the tree copy', () => {
  it('LEAF_TYPES: exactly the types node-types.json gives no children, fields or subtypes', () => {
    const leaves = new Set(nodeTypes.filter((t) => !t.children && !hasFields(t) && !t.subtypes).map((t) => t.type));
    // A string used by a leaf type and another type would be ambiguous: none is.
    for (const t of nodeTypes) if (leaves.has(t.type)) expect(!t.children && !hasFields(t) && !t.subtypes, t.type).toBe(true);
    expect(LEAF_TYPES.trim().split(' ').sort()).toEqual([...leaves].sort());
    expect(LEAF_TYPES.startsWith(' ') && LEAF_TYPES.endsWith(' ') && !LEAF_TYPES.includes('  ')).toBe(true);
  });

  it('FIELDLESS_TYPES: exactly the named types with children and no fields', () => {
    const fieldless = nodeTypes.filter((t) => t.named && !t.subtypes && t.children && !hasFields(t)).map((t) => t.type);
    for (const t of nodeTypes) if (fieldless.includes(t.type)) expect(hasFields(t), t.type).toBe(false);
    expect(FIELDLESS_TYPES.trim().split(' ').sort()).toEqual(fieldless.sort());
    expect(FIELDLESS_TYPES.startsWith(' ') && FIELDLESS_TYPES.endsWith(' ') && !FIELDLESS_TYPES.includes('  ')).toBe(true);
  });
});

/** Inputs where a leaf type holds a comment, fields sit under errors, and error trees. */
const TRICKY = [
  'echo [ #c\n ]',
  'echo ] # x\n[ a',
  'echo {a,b} # x',
  'a=( # c\n x ) # d',
  '[[ a =~ b ]] # x',
  'echo $((1 + #\n2))',
  'cat <<EOF\n# x\nEOF\n# y',
  'echo "a # b" a#b #c',
  'case x in a) ;; # c\nesac',
  'if true; then # c\n:; fi',
  'echo \\\n x # y',
  'echo (',
  'fi',
  'echo $( # x',
  'x=1 # c\ny=${x#a} z=${x##*/}',
  'for i in 1 2; do # c\n echo $i >&2; done',
  'f() { # c\n :; } # d',
  '! ls | grep x # c',
  'echo `echo # c\n`',
  'test -f x && [ ! -d y ] # c',
  '(( i++ )) # c',
  'declare -a x=(1 2) # c',
];

function commands(): string[] {
  // Without ../shared the tricky inputs above still run (the skip is printed).
  const dir = sharedDirOrSkip().dir;
  if (!dir) return [];
  const lines = (f: string, n: number): string[] => {
    try {
      return readFileSync(join(dir, 'corpora', 'commands', f), 'utf8').split('\n').filter((l) => l.trim() !== '').slice(0, n);
    } catch {
      return [];
    }
  };
  return [...lines('nl2bash.cm', 2000), ...lines('tldr.txt', 1000)];
}

interface Spec {
  type: string;
  symbol: number;
  start: number;
  end: number;
  field?: number;
  kids?: Spec[];
}

/** A cursor over a hand-made tree, for shapes no input gives the real grammar (yet). */
function fakeCursor(root: Spec, treeHasError: boolean): TreeCursorLike {
  const path: Spec[] = [root];
  const idx: number[] = [0];
  const cur = (): Spec => path[path.length - 1]!;
  return {
    get nodeType() { return cur().type; },
    get nodeTypeId() { return cur().symbol; },
    get nodeIsNamed() { return /^[a-z_]+$/.test(cur().type); },
    nodeIsMissing: false,
    get currentFieldName() { return cur().field ? `f${cur().field}` : null; },
    get currentFieldId() { return cur().field ?? 0; },
    get startIndex() { return cur().start; },
    get endIndex() { return cur().end; },
    gotoFirstChild() {
      const k = cur().kids;
      if (!k?.length) return false;
      path.push(k[0]!);
      idx.push(0);
      return true;
    },
    gotoNextSibling() {
      if (path.length < 2) return false;
      const sibs = path[path.length - 2]!.kids!;
      const i = idx[idx.length - 1]! + 1;
      if (i >= sibs.length) return false;
      path[path.length - 1] = sibs[i]!;
      idx[idx.length - 1] = i;
      return true;
    },
    gotoParent() {
      if (path.length < 2) return false;
      path.pop();
      idx.pop();
      return true;
    },
    treeHasError,
  };
}

describe('copy with grammar facts, on hand-made trees', () => {
  // `echo a#b`: a `word` holding a comment, were the grammar ever to build one.
  const tree: Spec = {
    type: 'program', symbol: 1, start: 0, end: 8, kids: [
      { type: 'command', symbol: 2, start: 0, end: 8, kids: [
        { type: 'command_name', symbol: 3, start: 0, end: 4, field: 1, kids: [{ type: 'word', symbol: 4, start: 0, end: 4 }] },
        { type: 'word', symbol: 4, start: 5, end: 8, field: 2, kids: [{ type: 'comment', symbol: 5, start: 6, end: 8 }] },
      ] },
    ],
  };
  const copy = (source: string | undefined, err: boolean) => {
    const r = copyTree(fakeCursor(tree, err), 100, Infinity, symbolNames(), source);
    if (!('root' in r)) throw new Error('no tree');
    return r.root;
  };

  it('a leaf type with a `#` in its text is still asked for children (a comment is an extra)', () => {
    expect(copy('echo a#b', false).children[0]!.children[1]!.children.map((c) => c.type)).toEqual(['comment']);
  });

  it('without a `#`, a leaf type is not asked; with errors, or without the source, every node is', () => {
    expect(copy('echo abc', false).children[0]!.children[1]!.children).toEqual([]);
    expect(copy('echo abc', true).children[0]!.children[1]!.children.map((c) => c.type)).toEqual(['comment']);
    expect(copy(undefined, false).children[0]!.children[1]!.children.map((c) => c.type)).toEqual(['comment']);
  });

  it('children of a type that fills no field are not asked for one (unless the tree has errors)', () => {
    // (the hand-made `word` under command_name claims a field the grammar never gives it)
    const named = (err: boolean) => copy('echo abc', err).children[0]!.children[0]!;
    expect(named(false).field).toBe('f1');
    expect(named(false).children[0]!.field).toBe(null);
    expect(copy('echo abc', false).children[0]!.children[1]!.field).toBe('f2');
    tree.kids![0]!.kids![0]!.kids![0]!.field = 3;
    expect(named(false).children[0]!.field).toBe(null);
    expect(named(true).children[0]!.field).toBe('f3');
  });
});

describe('copy with grammar facts = copy that asks every node', () => {
  const inputs = [...TRICKY, ...commands()];
  const check = (walk: (s: string) => TreeCursorLike | null): void => {
    const withFacts = symbolNames();
    const asking = symbolNames();
    let skippedSome = false;
    for (const s of inputs) {
      const a = walk(s)!;
      const facts = a.treeHasError === false;
      const fast = copyTree(a, 10_000, Infinity, withFacts, s);
      a.release?.();
      const b = walk(s)!;
      const slow = copyTree(b, 10_000, Infinity, asking);
      b.release?.();
      if (!isDeepStrictEqual(fast, slow)) expect(fast, JSON.stringify(s)).toEqual(slow);
      if (facts) skippedSome = true;
    }
    // The facts were in use (trees without errors were among the inputs).
    expect(skippedSome).toBe(true);
  };

  it.skipIf(bindingOrSkip('the grammar facts through the binding') !== null)(`native (tree-sitter's binding, walked with a cursor): ${inputs.length} inputs`, () => {
    const native = loadNativeBackend('direct');
    check((s) => native.walk(s, s.length + 1) as TreeCursorLike | null);
  });

  it(`WASM: ${inputs.length} inputs`, async () => {
    const wasm = await loadWasm();
    check((s) => wasmParse(wasm, s, 10_000));
  });
});
