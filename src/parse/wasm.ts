import { readFileSync } from 'node:fs';
import type { TreeCursorLike } from './tree.js';
import { packagePath } from '../util/package-root.js';

interface WasmParser {
  parse(input: string, old?: null, options?: { progressCallback?: (state: unknown) => boolean }): {
    walk(): TreeCursorLike;
    delete(): void;
  } | null;
}

let cached: Promise<WasmParser> | null = null;

/** Path of the pinned grammar; its checksum is recorded in grammars/README.md. */
export function grammarPath(): string {
  return packagePath('grammars', 'tree-sitter-bash.wasm');
}

/** Loads web-tree-sitter and the pinned bash grammar once per process. */
export function loadWasm(): Promise<WasmParser> {
  if (!cached) {
    cached = (async () => {
      const mod = (await import('web-tree-sitter')) as unknown as {
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
  return tree ? tree.walk() : null;
}
