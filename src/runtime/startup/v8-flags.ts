/**
 * V8 flags a bashguard process sets for itself at run time. The hook's WASM fallback needs
 * Liftoff only, compiled lazily (src/engine/parse/wasm.ts: with V8's defaults the 1.3 MB grammar costs a
 * fresh process ~1.5 s of CPU). A process that knows from the start that it will parse with WASM
 * (BASHGUARD_PARSER=wasm) sets them before it loads the hook bundle (src/runtime/startup/hook-start.ts), so
 * that its code cache, made under these flags, holds the whole run.
 */
import { createRequire } from 'node:module';
import { loadedTreeAddon } from '../../util/tree-addon.js';

/**
 * V8 flags for a process that lives ~25 ms, the ones bin/bashguard-hook passes on its command line:
 * no Sparkplug batch compiles and no Maglev jobs, work that could only pay off in a longer run.
 * A hook started without them (`bashguard hook`, `node dist/hook-start.cjs hook`: what other
 * installs and the bench's bare hook run) sets them in its start entry (src/runtime/startup/hook-start.ts)
 * through bashguard's addon (V8's own SetFlagsFromString), after the entry's Node modules are
 * loaded (so they still come from Node's embedded code cache) and before the bundle is compiled,
 * with a code cache file of its own (V8 refuses data made under other flags). On V8 13 (Node 24)
 * too: there Sparkplug's and Maglev's compiles run on other threads, so they cost no wall time but
 * ~8-13 M instructions of CPU per allowed call (callgrind, all threads: 134 against 142-147 M; the
 * main thread +1-2 M) and 0.6 MiB of peak RSS (docs/history/performance.md). Not past the V8s
 * measured. BASHGUARD_LEAN=0 leaves V8's flags alone.
 */
export const LEAN_FLAGS = '--no-sparkplug --no-maglev';

/** Whether this V8 is one LEAN_FLAGS were measured to pay off on (Node 20, 22 and 24). */
export function leanFlagsPay(v8Version: string = process.versions.v8): boolean {
  return Number(v8Version.split('.')[0]) < 14;
}

export const WASM_STARTUP_FLAGS = ['--liftoff-only', '--wasm-lazy-compilation'] as const;

/**
 * The global (the bundles are separate files) called just before this process changes V8's flags:
 * the code cache (src/runtime/startup/code-cache.ts) installs it when it will write a cache, to snapshot
 * the bytecode while it is still valid for the next default-flag process.
 */
export const BEFORE_V8_FLAGS = Symbol.for('bashguard.beforeV8Flags');

/** Set on globalThis once this process runs with WASM_STARTUP_FLAGS. */
export const WASM_FLAGS_SET = Symbol.for('bashguard.wasmFlagsSet');

/**
 * V8's setFlagsFromString, as cheaply as this Node offers it. node:v8 costs a fresh process ~8 ms
 * (~32 M instructions: it loads Node's heap utilities and streams; ~1.5 ms on Node 24 on the
 * Intel machine). Where this process has loaded bashguard's addon already, its setV8Flags calls
 * V8's own v8::V8::SetFlagsFromString (native/tree-export.c), on every Node. Else Node 20 and 22
 * still expose the same function on their internal v8 binding (`process.binding`, deprecated as
 * DEP0111, whose warning is kept quiet here) for ~0.7 M instructions. Node 24 has no such
 * binding: node:v8 then.
 */
export function v8FlagSetter(): (flags: string) => void {
  const viaAddon = loadedTreeAddon()?.setV8Flags;
  if (typeof viaAddon === 'function') {
    return (flags) => {
      if (viaAddon(flags) !== true) fallbackSetter()(flags);
    };
  }
  return fallbackSetter();
}

function fallbackSetter(): (flags: string) => void {
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
  // A builtin resolves the same from anywhere: no module URL needed (this file is in CommonJS
  // and ESM builds).
  return (createRequire('/')('node:v8') as typeof import('node:v8')).setFlagsFromString;
}

/** Sets WASM_STARTUP_FLAGS in this process (once), announcing the change (BEFORE_V8_FLAGS) first. */
export function setWasmStartupFlags(): void {
  const g = globalThis as Record<symbol, unknown>;
  if (g[WASM_FLAGS_SET]) return;
  const before = g[BEFORE_V8_FLAGS];
  if (typeof before === 'function') before();
  const set = v8FlagSetter();
  for (const f of WASM_STARTUP_FLAGS) set(f);
  g[WASM_FLAGS_SET] = true;
}
