import { readFileSync } from 'node:fs';
import { moduleRequire } from '../../util/module-require.js';
import type { TreeCursorLike } from './tree.js';
import { packagePath } from '../../util/package-root.js';

interface WasmParser {
  reset(): void;
  parse(input: string, old?: null, options?: { progressCallback?: (state: unknown) => boolean }): {
    walk(): TreeCursorLike;
    delete(): void;
    rootNode: { hasError: boolean };
  } | null;
}

let cached: Promise<WasmParser> | null = null;

/**
 * How this process loads web-tree-sitter and readies V8 for the grammar. Without one, the module
 * is required and V8 keeps its defaults, which suit a long-lived process parsing many inputs (the
 * library API, lint). A process that lives for one parse (the hook) installs a start-up tuned one
 * (src/runtime/startup/wasm-start.ts) through useWasmLoader; the parser knows nothing more of it.
 */
export interface WasmLoader {
  /** Called once, before the grammar is compiled (V8's flags are process-wide). */
  beforeCompile(): void;
  /** Loads web-tree-sitter's CommonJS build, which `req` resolves. */
  load(req: NodeRequire): unknown;
}

let loader: WasmLoader | null = null;

/** Installs how the WASM backend is loaded; call before the first parse. */
export function useWasmLoader(l: WasmLoader): void {
  loader = l;
}

/** Path of the pinned grammar; its checksum is recorded in grammars/README.md. */
export function grammarPath(): string {
  return packagePath('grammars', 'tree-sitter-bash.wasm');
}

/** Loads web-tree-sitter and the pinned bash grammar once per process. */
export function loadWasm(): Promise<WasmParser> {
  if (!cached) {
    cached = (async () => {
      loader?.beforeCompile();
      // The CommonJS build of web-tree-sitter: the ESM one costs a fresh process (the hook) the
      // ESM loader's start-up and a module compile, several ms.
      const req = moduleRequire(import.meta.url);
      const mod = (loader ? loader.load(req) : req('web-tree-sitter')) as {
        Parser: { init(): Promise<void>; new (): WasmParser & { setLanguage(l: unknown): void } };
        Language: { load(bytes: Uint8Array): Promise<unknown> };
      };
      await mod.Parser.init();
      const lang = await mod.Language.load(readFileSync(grammarPath()));
      const parser = new mod.Parser();
      parser.setLanguage(lang);
      return parser;
    })();
    cached.catch(() => {
      cached = null;
    });
  }
  return cached;
}

export function wasmParse(parser: WasmParser, source: string, timeoutMs: number): TreeCursorLike | null {
  const deadline = performance.now() + timeoutMs;
  const tree = parser.parse(source, null, {
    // Returning true cancels the parse: the WASM binding's replacement for a timeout.
    progressCallback: () => performance.now() > deadline,
  });
  if (!tree) {
    // As in native.ts: a cancelled parse would otherwise be resumed by the next call.
    parser.reset();
    return null;
  }
  // WASM trees and cursors live in the module's own heap, outside V8's GC: free them after the
  // copy, or a long-lived process (the library API, lint, a fuzzer) grows by the size of every
  // tree it ever parsed.
  const cursor = tree.walk() as TreeCursorLike & { delete?(): void };
  return Object.assign(cursor, {
    treeHasError: tree.rootNode.hasError,
    release() {
      cursor.delete?.();
      tree.delete();
    },
  });
}
