/**
 * Shell state beyond cwd, variables and functions: open file descriptors (`exec 3>file`),
 * aliases (`alias` + `shopt -s expand_aliases`), the command hash (`hash -p`) and trap handlers.
 * Kept apart from state.ts so the hot clone/join paths there only fork one more object.
 */
import { CowMap } from './cow-map.js';
import type { Range } from '../syntax/ir.js';
import type { Variable } from './variable.js';

/**
 * What a function call's `local`/`declare` names held before the call made them local, by name:
 * the variable, null where unset, 'unknown' where branches disagree. Put back when the call
 * returns (bash's dynamic scope: a callee assigning the name changes the caller's local). Never
 * changed in place: a save builds a new map and a new list.
 */
export type LocalFrame = ReadonlyMap<string, Variable | null | 'unknown'>;
const NO_FRAMES: readonly LocalFrame[] = [];

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
  /** One frame per function call running, innermost last. */
  locals: readonly LocalFrame[];
}

const NO_OPTS: ReadonlySet<string> = new Set();

export function emptyExtras(): Extras {
  return { fds: CowMap.of(), aliases: CowMap.of(), expandAliases: null, hashed: CowMap.of(), traps: CowMap.of(), shopts: NO_OPTS, locals: NO_FRAMES };
}

export function forkExtras(e: Extras): Extras {
  return { fds: e.fds.fork(), aliases: e.aliases.fork(), expandAliases: e.expandAliases, hashed: e.hashed.fork(), traps: e.traps.fork(), shopts: e.shopts, locals: e.locals };
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
    same = e === base || (e.fds.sameAs(base.fds) && e.aliases.sameAs(base.aliases) && e.hashed.sameAs(base.hashed) && e.traps.sameAs(base.traps) && e.expandAliases === base.expandAliases && e.shopts === base.shopts && e.locals === base.locals);
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
    locals: joinLocals(all.map((e) => e.locals)),
  };
}

/** Frames of branches: a name saved differently (or by some branches only) is put back as unknown. */
function joinLocals(all: (readonly LocalFrame[])[]): readonly LocalFrame[] {
  const base = all[0]!;
  if (all.every((l) => l === base)) return base;
  const depth = Math.max(...all.map((l) => l.length));
  const out: LocalFrame[] = [];
  for (let i = 0; i < depth; i++) {
    const frames = all.map((l) => l[i]);
    if (frames.every((f) => f === frames[0])) {
      out.push(frames[0] ?? new Map());
      continue;
    }
    const names = new Set(frames.flatMap((f) => (f ? [...f.keys()] : [])));
    const merged = new Map<string, Variable | null | 'unknown'>();
    for (const n of names) {
      const vs = frames.map((f) => (f && f.has(n) ? f.get(n)! : undefined));
      merged.set(n, vs.every((v) => v === vs[0]) && vs[0] !== undefined ? vs[0] : 'unknown');
    }
    out.push(merged);
  }
  return out;
}

/** `local NAME`: saves what NAME holds in the innermost frame, the first time in this call; false outside a function. */
export function saveLocal(e: Extras, name: string, current: Variable | undefined): boolean {
  const top = e.locals[e.locals.length - 1];
  if (!top) return false;
  if (top.has(name)) return true;
  const next = new Map(top);
  next.set(name, current ?? null);
  e.locals = [...e.locals.slice(0, -1), next];
  return true;
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
