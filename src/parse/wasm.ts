import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { TreeCursorLike } from './tree.js';
import { packagePath } from '../util/package-root.js';

interface WasmParser {
  reset(): void;
  parse(input: string, old?: null, options?: { progressCallback?: (state: unknown) => boolean }): {
    walk(): TreeCursorLike;
    delete(): void;
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
 * V8's setFlagsFromString, as cheaply as this Node offers it. node:v8 costs a fresh process ~8 ms
 * (~32 M instructions: it loads Node's heap utilities and streams); Node 20 and 22 still expose the
 * same function on their internal v8 binding (`process.binding`, deprecated as DEP0111, whose
 * warning is kept quiet here) for ~0.7 M. Node 24 has no such binding: node:v8 then.
 */
function v8FlagSetter(): (flags: string) => void {
  const proc = process as unknown as { binding?: (name: string) => unknown; noDeprecation?: boolean };
  const quiet = proc.noDeprecation;
  try {
    proc.noDeprecation = true;
    const binding = proc.binding?.('v8') as { setFlagsFromString?: (flags: string) => void } | undefined;
    const set = binding?.setFlagsFromString;
    if (typeof set === 'function') return (flags) => set.call(binding, flags);
  } catch {
    // no such binding on this Node
  } finally {
    proc.noDeprecation = quiet;
  }
  return (createRequire(import.meta.url)('node:v8') as typeof import('node:v8')).setFlagsFromString;
}

/** Path of the pinned grammar; its checksum is recorded in grammars/README.md. */
export function grammarPath(): string {
  return packagePath('grammars', 'tree-sitter-bash.wasm');
}

/** Loads web-tree-sitter and the pinned bash grammar once per process. */
export function loadWasm(): Promise<WasmParser> {
  if (!cached) {
    cached = (async () => {
      if (fastStartup) {
        const setFlagsFromString = v8FlagSetter();
        // The code cache keeps what was compiled so far (src/startup/code-cache.ts): after the
        // flags change, new bytecode would be refused by a default-flag process.
        const beforeFlags = (globalThis as Record<symbol, unknown>)[Symbol.for('bashguard.beforeV8Flags')];
        if (typeof beforeFlags === 'function') beforeFlags();
        setFlagsFromString('--liftoff-only');
        setFlagsFromString('--wasm-lazy-compilation');
      }
      // The CommonJS build of web-tree-sitter: the ESM one costs a fresh process (the hook) the
      // ESM loader's start-up and a module compile, several ms (bench/README.md).
      const mod = createRequire(import.meta.url)('web-tree-sitter') as {
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
    release() {
      cursor.delete?.();
      tree.delete();
    },
  });
}
