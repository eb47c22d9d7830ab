import { createRequire } from 'node:module';
import type { TreeCursorLike } from './tree.js';

/** The subset of the native binding we use; typed here so the binding's types stay local. */
interface NativeParser {
  setLanguage(lang: unknown): void;
  setTimeoutMicros(us: number): void;
  parse(input: string, old?: null, options?: { bufferSize?: number }): { walk(): TreeCursorLike } | null;
}

let cached: NativeParser | null = null;

/** Loads the native tree-sitter binding. Throws when the addon cannot load (caller falls back). */
export function loadNative(): NativeParser {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const Parser = require('tree-sitter') as new () => NativeParser;
  const Bash = require('tree-sitter-bash') as unknown;
  const parser = new Parser();
  parser.setLanguage(Bash);
  cached = parser;
  return parser;
}

export function nativeParse(source: string, timeoutMs: number): TreeCursorLike | null {
  const parser = loadNative();
  parser.setTimeoutMicros(timeoutMs * 1000);
  // The binding copies the string through a fixed buffer; size it so long inputs parse whole.
  const tree = parser.parse(source, null, { bufferSize: Math.max(64 * 1024, source.length * 2 + 16) });
  return tree ? tree.walk() : null;
}
