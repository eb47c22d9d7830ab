/**
 * Command knowledge by basename (like ShellCheck's command checks): one spec per command in
 * specs/ (its names, operands, options and subcommands, what it prints for `$(...)`, and its
 * examples). specs/index.generated.ts lists them (scripts/gen-commands.mjs, run by the build;
 * a test fails while it is stale), so adding a command touches one spec and nothing else.
 *
 * Nothing is built on import: the name index is made on the first lookup and each spec's
 * knowledge on the first lookup of one of its names (a hook process looks up a handful of the
 * ~400 names).
 */
import type { CommandSpec, SpecModule } from './spec.js';
import { registerLookup } from './spec.js';
import { SPECS } from './specs/index.generated.js';

export type { CommandSpec } from './spec.js';

let index: Map<string, SpecModule> | null = null;
const built = new Map<SpecModule, CommandSpec | undefined>();
/** Known names already looked up: one Map read per command on the interpreter's path. */
const byName = new Map<string, CommandSpec>();

function specIndex(): Map<string, SpecModule> {
  if (index === null) {
    index = new Map();
    for (const s of SPECS) for (const n of s.names) if (!index.has(n)) index.set(n, s);
  }
  return index;
}

function build(s: SpecModule): CommandSpec | undefined {
  if (built.has(s)) return built.get(s);
  let spec = s.build();
  if (spec && (s.output || s.pathList)) spec = { ...spec, ...(s.output ? { output: s.output } : {}), ...(s.pathList ? { pathList: s.pathList } : {}) };
  built.set(s, spec);
  return spec;
}

/**
 * Command knowledge for a basename, or undefined: the interpreter then applies the closed-world
 * default (src/engine/commands/unknown.ts), never "no effect".
 */
export function lookupCommand(name: string): CommandSpec | undefined {
  const hit = byName.get(name);
  if (hit !== undefined) return hit;
  const s = specIndex().get(name);
  if (s === undefined) return undefined;
  const spec = build(s);
  if (spec !== undefined) byName.set(name, spec);
  return spec;
}
registerLookup(lookupCommand);

/** The spec of a builtin with a shell-level part (SpecModule.shell), by name; undefined otherwise. */
export function shellBuiltin(name: string): SpecModule | undefined {
  const s = specIndex().get(name);
  return s?.shell ? s : undefined;
}

/** Every command name bashguard knows, for docs and property tests. */
export function knownCommands(): string[] {
  return [...specIndex().keys()].sort();
}

/** Every spec module (for tests). */
export function specModules(): readonly SpecModule[] {
  return SPECS;
}

/** Names claimed by more than one spec (a test keeps this empty: lookup order must not decide). */
export function duplicateNames(): string[] {
  const seen = new Map<string, number>();
  for (const s of SPECS) for (const n of s.names) seen.set(n, (seen.get(n) ?? 0) + 1);
  return [...seen].filter(([, c]) => c > 1).map(([n]) => n);
}
