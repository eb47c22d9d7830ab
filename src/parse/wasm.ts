import { readFileSync, statSync } from 'node:fs';
import { cacheDir, cacheFileName, loadWithCodeCache } from '../startup/code-cache.js';
import { setWasmStartupFlags } from '../startup/v8-flags.js';
import { moduleRequire } from '../util/module-require.js';
import type { TreeCursorLike } from './tree.js';
import { packagePath } from '../util/package-root.js';

interface WasmParser {
  reset(): void;
  parse(input: string, old?: null, options?: { progressCallback?: (state: unknown) => boolean }): {
    walk(): TreeCursorLike;
    delete(): void;
    rootNode: { hasError: boolean };
  } | null;
}

let cached: Promise<WasmParser> | null = null;
let fastStartup = false;

/**
 * For short-lived processes (the hook): compile the WASM grammar with V8's baseline compiler
 * only, lazily. By default V8 also compiles the 1.3 MB grammar with TurboFan in the background,
 * which on a small machine costs the hook 0.3-0.6 s of CPU before its one parse finishes; with
 * Liftoff only it answers in a fraction of that (numbers in bench/README.md). The flags are
 * process-wide, so only the CLI entry point opts in; the library API keeps V8's defaults,
 * which are faster for a long-lived process parsing many inputs.
 */
export function preferFastWasmStartup(): void {
  fastStartup = true;
}

/**
 * web-tree-sitter's CommonJS build. In the hook (a fresh process per call), through a V8 code
 * cache of its own like the hook bundle (src/startup/code-cache.ts): compiling its 160 KB from
 * source was ~14 M instructions (~3.5 ms) of every WASM hook. Its cache is made under the WASM
 * flags, which every process that loads it has set by then.
 */
function loadWebTreeSitter(): unknown {
  const req = moduleRequire(import.meta.url);
  if (!fastStartup) return req('web-tree-sitter');
  const file = req.resolve('web-tree-sitter');
  const dir = cacheDir(process.env);
  let cache: string | null = null;
  try {
    // Size and time name the file; the cache's own source check is what makes it safe.
    const st = statSync(file);
    if (dir) cache = dir + '/' + cacheFileName(`wts${st.size}-${Math.trunc(st.mtimeMs)}`);
  } catch {
    // no cache then
  }
  return loadWithCodeCache(file, cache, req, true).exports;
}

/** Path of the pinned grammar; its checksum is recorded in grammars/README.md. */
export function grammarPath(): string {
  return packagePath('grammars', 'tree-sitter-bash.wasm');
}

/** Loads web-tree-sitter and the pinned bash grammar once per process. */
export function loadWasm(): Promise<WasmParser> {
  if (!cached) {
    cached = (async () => {
      // (A no-op when the process knew it would use WASM and set them first: hook-start.ts.)
      if (fastStartup) setWasmStartupFlags();
      // The CommonJS build of web-tree-sitter: the ESM one costs a fresh process (the hook) the
      // ESM loader's start-up and a module compile, several ms (bench/README.md).
      const mod = loadWebTreeSitter() as {
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
