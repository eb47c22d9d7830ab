import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { registerNativeLstat } from '../../util/native-lstat.js';
import { treeAddon } from '../../util/tree-addon.js';
import { moduleRequire } from '../../util/module-require.js';
import { packageRoot } from '../../util/package-root.js';
import { baseOf, parentOf, under } from '../../util/under.js';
import type { ExportedTree, TreeCursorLike } from './tree.js';

/** How the native parser was loaded: bashguard's tree export, or tree-sitter's binding directly or through its package. */
export type NativeLoadMethod = 'export' | 'direct' | 'require';

/** What the parser layer needs from the native binding, whichever way it was loaded. */
interface NativeBackend {
  setTimeoutMicros(us: number): void;
  reset(): void;
  /**
   * A fresh tree: exported whole (bashguard's addon) or a cursor at its root (tree-sitter's
   * binding); null when the parse was stopped by the timeout. Either is valid until the next parse.
   */
  walk(source: string, bufferSize: number): TreeCursorLike | ExportedTree | null;
  readonly loadedBy: NativeLoadMethod;
}

/**
 * bashguard's tree export (native/tree-export.c, built at install by scripts/build-native.mjs),
 * with tree-sitter-bash compiled in: it starts with that grammar.
 */
interface ExportAddon {
  formatVersion: number;
  /** Whether the build made the grammar's parse table dense (native/dense-table.c), for useDenseTable. */
  hasDenseTable: boolean;
  /** Whether tree-sitter's runtime in this build skips an error recovery whose result the parse discards (scripts/tree-sitter-runtime.mjs): the same trees. */
  skipsDiscardedRecovery: boolean;
  /** Parse with the dense table (true) or the grammar's own (false; none: no change): the same trees. Returns whether the dense one is in use. */
  useDenseTable(on?: boolean): boolean;
  /** Another grammar: the napi External tree-sitter-bash's own addon exports (tests). */
  setLanguage(language: unknown): void;
  setTimeoutMicros(us: number): void;
  reset(): void;
  /** Node count; -1: stopped by the timeout; below -1: minus the words `out` must hold (then exportInto). */
  parse(source: string, out: Uint32Array): number;
  exportInto(out: Uint32Array): number;
  symbol(id: number): [string, boolean];
  fieldName(id: number): string | null;
  /** lstat(2) of a path: 2 symlink, 1 directory, 0 other, -1 nothing (not on Windows). */
  lstatKind?(path: string): number;
}

/** The subset of tree-sitter's JavaScript wrapper we use (the `require('tree-sitter')` path). */
interface WrappedParser {
  setLanguage(lang: unknown): void;
  setTimeoutMicros(us: number): void;
  reset(): void;
  parse(input: string, old?: null, options?: { bufferSize?: number }): { walk(): TreeCursorLike; rootNode: { hasError: boolean } } | null;
}

/** The raw N-API binding of tree-sitter 0.25 (what its index.js wraps). */
interface RawBinding {
  Parser: new () => {
    setLanguage(lang: unknown): void;
    setTimeoutMicros(us: number): void;
    reset(): void;
    parse(input: (offset: number) => string, old: null, bufferSize: number, ranges: undefined): RawTree | null;
  };
  NodeMethods: { walk(tree: RawTree): TreeCursorLike; hasError(tree: RawTree): boolean };
  TreeCursor?: { prototype: { reset?: unknown } };
}
interface RawTree {
  rootNode(): unknown;
}

let cached: NativeBackend | null = null;
/** Why bashguard's tree export is not the native parser in this process (null: it is, or not loaded yet). */
let exportSkipped: string | null = null;

/**
 * Loads the native parser: bashguard's own tree export when it was built at install (one call
 * parses and hands over the whole tree), else tree-sitter's N-API binding, walked with a cursor.
 * Both give the same trees (test/system/engine/parse-export.test.ts). Throws when no native addon can load
 * (caller falls back to WASM). BASHGUARD_NATIVE_LOAD=direct or =require skips the tree export
 * (and, with `require`, the direct load below).
 *
 * Start-up (this runs in every hook process; numbers in docs/history/performance.md): both addons are loaded
 * with `process.dlopen` from their known places in the packages, and the parser is driven through
 * the raw binding, skipping tree-sitter's index.js (node-gyp-build's directory probing, `util`,
 * ~900 lines of wrapper) and the grammar's index.js (node-gyp-build again, and a 51 KB
 * node-types.json for typed node classes we never use: we only walk trees with a cursor). The
 * direct path is checked on a small parse; on any surprise (another layout, a musl prebuild, an
 * override like TREE_SITTER_PREBUILD, a changed binding) it falls back to the packages' own
 * `require` path, which is what node-gyp-build would have picked.
 */
export function loadNative(): NativeBackend {
  if (cached) return cached;
  const mode = process.env.BASHGUARD_NATIVE_LOAD;
  let backend: NativeBackend | null = null;
  if (mode === 'direct' || mode === 'require') exportSkipped = `BASHGUARD_NATIVE_LOAD=${mode}`;
  else {
    try {
      backend = loadNativeBackend('export');
    } catch (err) {
      exportSkipped = (err as Error).message.split('\n')[0]!;
    }
  }
  if (!backend && mode !== 'require') {
    try {
      backend = loadNativeBackend('direct');
    } catch {
      backend = null;
    }
  }
  if (!backend) {
    try {
      backend = loadNativeBackend('require');
    } catch (err) {
      // Both reasons (doctor prints the first line): the tree export's, then tree-sitter's binding's.
      const why = (err as Error).message.split('\n')[0]!;
      throw new Error(exportSkipped ? `${exportSkipped}; tree-sitter's binding: ${why}` : why);
    }
  }
  cached = backend;
  return cached;
}

const backends = new Map<NativeLoadMethod, NativeBackend>();

let denseWanted = false;
let denseSwitch: ((on: boolean) => boolean) | null = null;

/**
 * From now on the tree export parses with the grammar's dense parse table (native/dense-table.c):
 * the same trees, the native parse ~30% faster, for ~4 MB more of the addon's file mapped by the
 * first parse. For runs that parse a lot (lint); the hook, which parses one command and whose
 * peak RSS is a target, keeps the grammar's own table. No effect on tree-sitter's binding or
 * WASM. Returns whether the dense table is in use (false too when no parser is loaded yet: it
 * applies when one is).
 */
export function useDenseParseTable(): boolean {
  denseWanted = true;
  return denseSwitch?.(true) ?? false;
}

/** One particular native backend (each with its own parser), loaded once; throws when it cannot load. Tests compare them. */
export function loadNativeBackend(method: NativeLoadMethod): NativeBackend {
  let backend = backends.get(method);
  if (backend) return backend;
  // Created only when needed: createRequire of a URL costs a fresh process ~0.5 ms.
  let req: NodeRequire | null = null;
  const require = (): NodeRequire => (req ??= moduleRequire(import.meta.url));
  backend = method === 'export' ? loadExport() : method === 'direct' ? loadDirect(require) : loadWrapped(require());
  backends.set(method, backend);
  return backend;
}

/** How the native parser was loaded in this process (null: not loaded). */
export function nativeLoadMethod(): NativeLoadMethod | null {
  return cached?.loadedBy ?? null;
}

/** Why the tree export is not in use (for `doctor`); null when it is or nothing was loaded. */
export function treeExportSkipped(): string | null {
  return cached && cached.loadedBy !== 'export' ? exportSkipped : null;
}

/**
 * Where package `name` can be, in Node's own resolution order from this package: its
 * node_modules, then the node_modules it is installed in (hoisted dependencies). Node's resolver
 * (0.3-0.8 ms in a fresh process) is asked only when neither holds the addon.
 */
let nearbyBases: string[] | null = null;
function nearbyDirs(name: string): string[] {
  try {
    if (!nearbyBases) {
      const root = packageRoot();
      const bases = [under(root, 'node_modules')];
      // node_modules/bashguard or node_modules/@scope/bashguard
      for (const up of [parentOf(root), parentOf(parentOf(root))]) {
        if (baseOf(up) === 'node_modules') {
          bases.push(up);
          break;
        }
      }
      nearbyBases = bases;
    }
    return nearbyBases.map((b) => under(b, name));
  } catch {
    return [];
  }
}

/** The exports of the first of `files(dir)` that dlopen loads, for the package's places; throws the last error. */
function loadAddon(require: () => NodeRequire, name: string, files: (dir: string) => string[]): Record<string, unknown> {
  let last: unknown = new Error(`${name}: no native build found`);
  const fromDir = (dir: string): Record<string, unknown> | null => {
    for (const file of files(dir)) {
      // A failed dlopen builds an error with a stack: ask the file system first (cheaper).
      if (!existsSync(file)) continue;
      const mod = { exports: {} as Record<string, unknown> };
      try {
        process.dlopen(mod, file);
        return mod.exports;
      } catch (err) {
        last = err;
      }
    }
    return null;
  };
  for (const dir of nearbyDirs(name)) {
    const found = fromDir(dir);
    if (found) return found;
  }
  const found = fromDir(dirname(require().resolve(`${name}/package.json`)));
  if (found) return found;
  throw last;
}

// node-gyp-build honours <NAME>_PREBUILD; leave such setups to it.
function prebuildOverride(): boolean {
  return !!(process.env.TREE_SITTER_PREBUILD || process.env.TREE_SITTER_BASH_PREBUILD || process.env.PREBUILDS_ONLY);
}

/** The grammar's addon (its exports hold the language as a napi External), node-gyp-build's order: a local build first, then the prebuild. */
function bashGrammar(require: () => NodeRequire): Record<string, unknown> {
  const tuple = `${process.platform}-${process.arch}`;
  return loadAddon(require, 'tree-sitter-bash', (dir) => [
    under(dir, 'build', 'Release', 'tree_sitter_bash_binding.node'),
    under(dir, 'prebuilds', tuple, 'tree-sitter-bash.node'),
  ]);
}

/** Words of the export array kept between parses (a larger one, for a huge script, is dropped after use). */
const KEPT_EXPORT_WORDS = 1 << 20;

function loadExport(): NativeBackend {
  if (prebuildOverride()) throw new Error('prebuild override');
  const x = treeAddon() as unknown as ExportAddon;
  if (x.formatVersion !== 2 || typeof x.parse !== 'function' || typeof x.exportInto !== 'function') {
    throw new Error('the tree export is from another version of bashguard (rebuild it: npm rebuild bashguard)');
  }
  denseSwitch = (on) => x.useDenseTable(on);
  if (denseWanted) x.useDenseTable(true);
  let words = new Uint32Array(4096);
  const symbol = (id: number): [string, boolean] => x.symbol(id);
  const fieldName = (id: number): string | null => x.fieldName(id);
  const walk = (source: string): ExportedTree | null => {
    let count = x.parse(source, words);
    if (count === -1) return null;
    let out = words;
    if (count < 0) {
      out = new Uint32Array(-count);
      count = x.exportInto(out);
      if (out.length <= KEPT_EXPORT_WORDS) words = out;
    }
    return { words: out, count, symbol, fieldName };
  };
  // Check the path end to end before trusting it.
  selfCheck('the tree export', (text) => {
    const t = walk(text);
    if (!t || t.count < 2 || t.words[3] !== 1) return null;
    return [symbol(t.words[0]! & 0xffff)[0], t.words[1]!, t.words[2]!, symbol(t.words[4]! & 0xffff)[0]];
  });
  // The addon's lstat, for the policy (src/util/native-lstat.ts), once it says what '/' is.
  if (typeof x.lstatKind === 'function' && x.lstatKind('/') === 1) registerNativeLstat(x.lstatKind);
  return {
    loadedBy: 'export',
    setTimeoutMicros: (us) => x.setTimeoutMicros(us),
    reset: () => x.reset(),
    walk,
  };
}

/**
 * Parses two small inputs and throws unless each gives a program over the whole text whose first
 * child is the expected node. `describe` gives the root's type, start and end and the first
 * child's type, or null.
 */
function selfCheck(what: string, describe: (text: string) => readonly [string, number, number, string] | null): void {
  for (const [text, type] of [['a=1 b', 'command'], ['x=1', 'variable_assignment']] as const) {
    const d = describe(text);
    if (!d || d[0] !== 'program' || d[1] !== 0 || d[2] !== text.length || d[3] !== type) throw new Error(`${what} failed its self-check`);
  }
}

function loadDirect(require: () => NodeRequire): NativeBackend {
  if (prebuildOverride()) throw new Error('prebuild override');
  const tuple = `${process.platform}-${process.arch}`;
  // node-gyp-build's order: a local build first, then the prebuild for this platform.
  const binding = loadAddon(require, 'tree-sitter', (dir) => [
    under(dir, 'build', 'Release', 'tree_sitter_runtime_binding.node'),
    under(dir, 'prebuilds', tuple, 'tree-sitter.node'),
  ]) as unknown as RawBinding;
  const language = bashGrammar(require);
  if (typeof binding.Parser !== 'function' || typeof binding.NodeMethods?.walk !== 'function' || typeof binding.NodeMethods.hasError !== 'function' || typeof binding.TreeCursor?.prototype.reset !== 'function' || !('language' in language)) {
    throw new Error('unexpected binding shape');
  }
  const parser = new binding.Parser();
  parser.setLanguage(language);
  // One cursor for every parse, reset to each new tree's root: creating a cursor object (a
  // wrapped native object with a finalizer) per parse cost about 4% of the parse. Each copy is
  // done before the next parse starts (src/engine/parse/index.ts), so no two trees need it at once.
  let shared: (TreeCursorLike & { tree?: RawTree; reset(): void }) | null = null;
  const walk = (source: string, bufferSize: number): TreeCursorLike | null => {
    const tree = parser.parse((offset) => source.slice(offset), null, bufferSize, undefined);
    if (!tree) return null;
    // As tree-sitter's Tree#walk: the root goes through the binding's transfer buffer, which
    // NodeMethods.walk, NodeMethods.hasError and TreeCursor#reset read. A fresh tree has no cached
    // node objects, so rootNode() returns the root's symbol (a number) after writing the root there.
    if (typeof tree.rootNode() !== 'number') throw new Error('unexpected root node');
    // Read before the cursor (nothing in between writes the buffer): the copy trusts the
    // grammar's facts only in a tree without errors (src/engine/parse/tree.ts).
    const treeHasError = binding.NodeMethods.hasError(tree) === true;
    if (!shared) {
      shared = binding.NodeMethods.walk(tree) as TreeCursorLike & { tree?: RawTree; reset(): void };
      // The cursor points into the tree's memory, which the Tree object frees when collected:
      // keep it reachable from the cursor, as tree-sitter's own walk() does (reset() also reads
      // the tree from there).
      shared.tree = tree;
      shared.treeHasError = treeHasError;
      return shared;
    }
    shared.tree = tree;
    shared.reset();
    shared.treeHasError = treeHasError;
    return shared;
  };
  // Check the path end to end before trusting it (the second probe goes through the cursor's reset).
  selfCheck('native binding', (text) => {
    const probe = walk(text, text.length + 1);
    if (!probe) return null;
    const root = [probe.nodeType, probe.startIndex, probe.endIndex] as const;
    return probe.gotoFirstChild() ? [...root, (probe as TreeCursorLike).nodeType] : null;
  });
  return {
    loadedBy: 'direct',
    setTimeoutMicros: (us) => parser.setTimeoutMicros(us),
    reset: () => parser.reset(),
    walk,
  };
}

function loadWrapped(require: NodeRequire): NativeBackend {
  const Parser = require('tree-sitter') as (new () => WrappedParser) & { SyntaxNode?: unknown };
  const parser = new Parser();
  parser.setLanguage(bashLanguage(require, Parser.SyntaxNode));
  return {
    loadedBy: 'require',
    setTimeoutMicros: (us) => parser.setTimeoutMicros(us),
    reset: () => parser.reset(),
    walk: (source, bufferSize) => {
      const tree = parser.parse(source, null, { bufferSize });
      if (!tree) return null;
      const cursor = tree.walk();
      cursor.treeHasError = tree.rootNode.hasError;
      return cursor;
    },
  };
}

/**
 * The grammar for the wrapped path: loaded through node-gyp-build directly, as its own index.js
 * does, without the node-types.json that index.js also parses; and a view of the language whose
 * `nodeSubclasses` is already set, so tree-sitter's setLanguage skips generating (by eval) ~150
 * typed SyntaxNode classes. The shared language object itself is not modified.
 */
function bashLanguage(require: NodeRequire, SyntaxNode: unknown): unknown {
  let lang: object;
  try {
    const root = join(dirname(require.resolve('tree-sitter-bash')), '..', '..');
    const nodeGypBuild = createRequire(join(root, 'package.json'))('node-gyp-build') as (dir: string) => object;
    lang = nodeGypBuild(root);
  } catch {
    return require('tree-sitter-bash') as unknown;
  }
  if (typeof SyntaxNode !== 'function' || 'nodeSubclasses' in lang) return lang;
  const generic = new Proxy([] as unknown[], {
    get: (target, key) => (typeof key === 'string' && /^\d+$/.test(key) ? SyntaxNode : Reflect.get(target, key)),
  });
  return Object.create(lang, { nodeSubclasses: { value: generic } }) as unknown;
}

/** The parse timeout last given to the binding, in microseconds. */
let timeoutSet = -1;

export function nativeParse(source: string, timeoutMs: number): TreeCursorLike | ExportedTree | null {
  const parser = loadNative();
  // Whole milliseconds, set only when that changes: the first parse of every command asks for
  // what is left of the same limit (1499.99... ms), and the binding call cost ~1% of a check.
  // No limit (lint, where no wall clock may decide a result): 0, tree-sitter's "never stop".
  const us = Number.isFinite(timeoutMs) ? Math.max(1, Math.floor(timeoutMs)) * 1000 : 0;
  if (us !== timeoutSet) {
    parser.setTimeoutMicros(us);
    timeoutSet = us;
  }
  // The binding copies the string through a buffer of this many UTF-16 units (+1 for the
  // terminating NUL it writes), allocated and zeroed per parse: exactly the input's size reads it
  // in one piece (a fixed 64 Ki-unit buffer cost ~4 us a parse for zeroing 128 KB).
  const tree = parser.walk(source, source.length + 1);
  if (!tree) {
    // A parse stopped by the timeout is kept for resuming: without a reset, the next parse (of a
    // different input!) continues the old one and returns a tree of the wrong text.
    parser.reset();
    return null;
  }
  return tree;
}
