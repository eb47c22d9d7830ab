import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TreeCursorLike } from './tree.js';

/** The subset of the native binding we use; typed here so the binding's types stay local. */
interface NativeParser {
  setLanguage(lang: unknown): void;
  setTimeoutMicros(us: number): void;
  reset(): void;
  parse(input: string, old?: null, options?: { bufferSize?: number }): { walk(): TreeCursorLike } | null;
}

let cached: NativeParser | null = null;

/**
 * Loads the native tree-sitter binding. Throws when the addon cannot load (caller falls back).
 *
 * Start-up (this runs in every hook process; numbers in bench/README.md):
 * - the grammar's addon is loaded through node-gyp-build directly, as its own index.js does,
 *   without the 51 KB node-types.json that index.js also parses (only typed node classes use it);
 * - the parser is given a view of the language whose `nodeSubclasses` is already set, so
 *   tree-sitter's setLanguage skips generating (by eval) ~150 typed SyntaxNode classes. We only
 *   walk trees with a cursor, which never needs them. The shared language object itself is not
 *   modified, so other users of tree-sitter-bash in the same process still get typed nodes.
 * Both fall back to the plain `require('tree-sitter-bash')` path if anything is unexpected.
 */
export function loadNative(): NativeParser {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const Parser = require('tree-sitter') as (new () => NativeParser) & { SyntaxNode?: unknown };
  const parser = new Parser();
  parser.setLanguage(bashLanguage(require, Parser.SyntaxNode));
  cached = parser;
  return parser;
}

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

export function nativeParse(source: string, timeoutMs: number): TreeCursorLike | null {
  const parser = loadNative();
  parser.setTimeoutMicros(timeoutMs * 1000);
  // The binding copies the string through a fixed buffer; size it so long inputs parse whole.
  const tree = parser.parse(source, null, { bufferSize: Math.max(64 * 1024, source.length * 2 + 16) });
  if (!tree) {
    // A parse stopped by the timeout is kept for resuming: without a reset, the next parse (of a
    // different input!) continues the old one and returns a tree of the wrong text.
    parser.reset();
    return null;
  }
  return tree.walk();
}
