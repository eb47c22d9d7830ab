/**
 * Shell state beyond cwd, variables and functions: open file descriptors (`exec 3>file`),
 * aliases (`alias` + `shopt -s expand_aliases`), the command hash (`hash -p`) and trap handlers.
 * Kept apart from state.ts so the hot clone/join paths there only fork one more object.
 */
import { CowMap } from './cow-map.js';
import type { Range } from '../syntax/ir.js';

/** Where a descriptor points: a file the command opened (absolute, HOLE where unknown). */
export interface FdTarget {
  path: string;
  /** The redirect as written, for messages. */
  text: string;
}

/** Marks where a definition was read, so aliases expand only on lines read after it. */
export interface SourceLine {
  /** Which parse the line belongs to (each nested source gets its own number). */
  source: number;
  line: number;
}

export interface Alias extends SourceLine {
  text: string;
}

export interface TrapHandler {
  code: string;
  range: Range;
}

export interface Extras {
  /** Descriptors redirected to files by `exec N>file` / `exec {v}>file`; null: closed. */
  fds: CowMap<number, FdTarget | null>;
  aliases: CowMap<string, Alias>;
  /** Set by `shopt -s expand_aliases` (off in a non-interactive shell until then). */
  expandAliases: SourceLine | null;
  /** `hash -p PATH NAME`: NAME runs PATH. */
  hashed: CowMap<string, string>;
  /** EXIT handlers (`trap CODE EXIT`): the code of every branch that set one, with where it was set. */
  traps: CowMap<string, TrapHandler[]>;
  /**
   * Shell options that change how a path, a glob or a `cd` resolves (`set -P`, `shopt -s
   * dotglob` ...; src/engine/shell/shell-options.ts), as far as any branch may have set them.
   */
  shopts: ReadonlySet<string>;
}

const NO_OPTS: ReadonlySet<string> = new Set();

export function emptyExtras(): Extras {
  return { fds: CowMap.of(), aliases: CowMap.of(), expandAliases: null, hashed: CowMap.of(), traps: CowMap.of(), shopts: NO_OPTS };
}

export function forkExtras(e: Extras): Extras {
  return { fds: e.fds.fork(), aliases: e.aliases.fork(), expandAliases: e.expandAliases, hashed: e.hashed.fork(), traps: e.traps.fork(), shopts: e.shopts };
}

/** A child process (`bash -c`, `bash file`) inherits open descriptors only. */
export function childExtras(e: Extras): Extras {
  return { ...emptyExtras(), fds: e.fds.fork() };
}

/** Joins branches: a descriptor, alias or hash entry set differently by branches is kept from every branch it can come from. */
export function joinExtras(all: Extras[]): Extras {
  const base = all[0]!;
  // Most joins: no branch opened a descriptor, defined an alias or a trap (each map the same storage).
  let same = true;
  for (let i = 1; i < all.length && same; i++) {
    const e = all[i]!;
    same = e === base || (e.fds.sameAs(base.fds) && e.aliases.sameAs(base.aliases) && e.hashed.sameAs(base.hashed) && e.traps.sameAs(base.traps) && e.expandAliases === base.expandAliases && e.shopts === base.shopts);
  }
  if (same) return forkExtras(base);
  const merge = <K, V>(maps: CowMap<K, V>[], combine: (vs: (V | undefined)[]) => V | undefined): CowMap<K, V> => {
    // The same entries everywhere (a redirect's descriptors restored when its command ended
    // leave a copy that holds what it held): every combine gives that entry back, in this order.
    if (sameEntries(maps)) return maps[0]!.fork();
    const keys = new Set<K>();
    for (const m of maps) for (const k of m.keys()) keys.add(k);
    const out = CowMap.of<K, V>();
    for (const k of keys) {
      const v = combine(maps.map((m) => m.get(k)));
      if (v !== undefined) out.set(k, v);
    }
    return out;
  };
  const first = <V>(vs: (V | undefined)[]): V | undefined => vs.find((v) => v !== undefined);
  return {
    // A descriptor one branch opened on a file may point there afterwards.
    fds: merge(all.map((e) => e.fds), (vs) => vs.find((v) => v) ?? first(vs)),
    aliases: merge(all.map((e) => e.aliases), first),
    expandAliases: all.find((e) => e.expandAliases)?.expandAliases ?? null,
    hashed: merge(all.map((e) => e.hashed), first),
    traps: merge(all.map((e) => e.traps), (vs) => {
      const handlers = vs.flatMap((v) => v ?? []).filter((h, i, a) => a.findIndex((x) => x.code === h.code) === i);
      return handlers.length ? handlers : undefined;
    }),
    // An option any branch may have set may be on afterwards.
    shopts: all.every((e) => e.shopts === base.shopts) ? base.shopts : new Set(all.flatMap((e) => [...e.shopts])),
  };
}

/** True when every map holds the same keys with the very same values (as the first one, in its order). */
function sameEntries<K, V>(maps: CowMap<K, V>[]): boolean {
  const first = maps[0]!;
  for (let i = 1; i < maps.length; i++) {
    const m = maps[i]!;
    if (m.sameAs(first)) continue;
    if (m.size !== first.size) return false;
    for (const [k, v] of first) if (m.get(k) !== v || (v === undefined && !m.has(k))) return false;
  }
  return true;
}
