/**
 * A Map that is copied on first write after a fork. The interpreter forks its state at every
 * branch, subshell and loop body; most branches never assign a variable or define a function, so
 * sharing the parent's map until one does keeps branching O(1) instead of O(variables), and lets
 * a join see at a glance (`sameAs`) that no branch changed anything.
 *
 * Each map also remembers what it was forked from: a storage map no one writes any more (`base`)
 * and the keys written since (`changed`). Branches forked from one state share that base, so a
 * join only has to look at the keys some branch wrote (`changedSince`), not at every variable.
 */

/** A fork whose map changed at more keys than this since its base starts a new base (its own map). */
const REBASE_AFTER = 16;
/** Past this many keys written since the base, a map stops tracking them (joins look at every key). */
const MAX_TRACKED = 64;

/** Stands for every key in CowMap.readLog: a walk over a whole map. */
export const ALL_KEYS: unique symbol = Symbol('all keys');

export class CowMap<K, V> implements Iterable<[K, V]> {
  private shared: boolean;
  /**
   * Provenance: `map` holds what `base` holds except perhaps at the keys in `changed`. A base is
   * a storage map that was shared by a fork, so nothing writes it again. null: not known.
   */
  private base: Map<K, V> | null = null;
  private changed: Set<K> | null = null;
  /** `changed` is also another map's: copied before it is added to. */
  private changedShared = false;

  private constructor(
    private map: Map<K, V>,
    shared: boolean,
  ) {
    this.shared = shared;
  }

  static of<K, V>(entries?: Iterable<readonly [K, V]>): CowMap<K, V> {
    return new CowMap(new Map(entries), false);
  }

  /** A copy that shares storage with this one until either is written. */
  fork(): CowMap<K, V> {
    this.shared = true;
    if (this.base === null || this.changed!.size > REBASE_AFTER) {
      // The storage is shared from now on, so it can be the base of both sides.
      this.base = this.map;
      this.changed = new Set();
      this.changedShared = false;
    }
    const copy = new CowMap(this.map, true);
    copy.base = this.base;
    copy.changed = this.changed;
    copy.changedShared = true;
    this.changedShared = true;
    return copy;
  }

  /** True when both read the same storage (neither was written since the fork). */
  sameAs(other: CowMap<K, V>): boolean {
    return this.map === other.map;
  }

  get size(): number {
    return this.map.size;
  }

  /**
   * While set, every key looked up in any map is added to it, and a walk over a whole map adds
   * ALL_KEYS: a loop learns which variables its pass read (interpret/control-flow.ts).
   */
  static readLog: Set<unknown> | null = null;

  get(key: K): V | undefined {
    if (CowMap.readLog !== null) CowMap.readLog.add(key);
    return this.map.get(key);
  }

  has(key: K): boolean {
    if (CowMap.readLog !== null) CowMap.readLog.add(key);
    return this.map.has(key);
  }

  keys(): IterableIterator<K> {
    if (CowMap.readLog !== null) CowMap.readLog.add(ALL_KEYS);
    return this.map.keys();
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    if (CowMap.readLog !== null) CowMap.readLog.add(ALL_KEYS);
    return this.map[Symbol.iterator]();
  }

  set(key: K, value: V): this {
    this.own().set(key, value);
    if (this.base !== null) this.note(key);
    return this;
  }

  delete(key: K): boolean {
    if (!this.map.has(key)) return false;
    this.own().delete(key);
    if (this.base !== null) this.note(key);
    return true;
  }

  private own(): Map<K, V> {
    if (this.shared) {
      this.map = new Map(this.map);
      this.shared = false;
    }
    return this.map;
  }

  private note(key: K): void {
    if (this.changed!.has(key)) return;
    if (this.changed!.size >= MAX_TRACKED) {
      this.base = null;
      this.changed = null;
      return;
    }
    if (this.changedShared) {
      this.changed = new Set(this.changed);
      this.changedShared = false;
    }
    this.changed!.add(key);
  }

  /**
   * When all `maps` hold what one storage map holds except at a few keys: that map and the keys
   * (every other key maps to the same value, the very same object, in all of them). Else null.
   */
  static changedSince<K, V>(maps: CowMap<K, V>[]): { base: Map<K, V>; keys: Set<K> } | null {
    const first = maps[0]!;
    let base: Map<K, V> | null = null;
    for (const candidate of [first.base, first.map]) {
      if (candidate === null) continue;
      let ok = true;
      for (let i = 0; i < maps.length && ok; i++) ok = maps[i]!.map === candidate || maps[i]!.base === candidate;
      if (ok) {
        base = candidate;
        break;
      }
    }
    if (base === null) return null;
    const keys = new Set<K>();
    for (let i = 0; i < maps.length; i++) {
      const m = maps[i]!;
      // The base is shared from now on (derive remembers it): its holders copy before writing.
      if (m.map === base) m.shared = true;
      else for (const k of m.changed!) keys.add(k);
    }
    return { base, keys };
  }

  /** `base` (from changedSince) with `updates` applied (undefined: absent); it remembers base as its own. */
  static derive<K, V>(base: Map<K, V>, updates: Map<K, V | undefined>): CowMap<K, V> {
    const out = new CowMap(new Map(base), false);
    out.base = base;
    out.changed = new Set();
    for (const [k, v] of updates) {
      if (v === undefined) out.map.delete(k);
      else out.map.set(k, v);
      out.changed.add(k);
    }
    if (out.changed.size >= MAX_TRACKED) {
      out.base = null;
      out.changed = null;
    }
    return out;
  }
}
