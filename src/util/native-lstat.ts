/**
 * lstat(2) through bashguard's native addon (native/tree-export.c, `lstatKind`), when the parser
 * layer loaded it (src/engine/parse/native.ts registers it here after its self-check). The policy asks
 * about every component of every path a command names (src/policy/physical.ts); this answers in
 * one N-API call with a small integer instead of Node's Stats object. Without the addon (tree-sitter's
 * own binding, the WASM fallback, Windows) nothing is registered and Node's lstatSync answers.
 */

/** 2 a symlink, 1 a directory, 0 anything else, -1 nothing there (or any error). */
export type LstatKind = (path: string) => number;

let registered: LstatKind | null = null;

/** Called by the parser layer once its addon passed its self-check; null unregisters. */
export function registerNativeLstat(fn: LstatKind | null): void {
  registered = fn;
}

/** The native lstat, when the addon is loaded in this thread. */
export function nativeLstat(): LstatKind | null {
  return registered;
}
