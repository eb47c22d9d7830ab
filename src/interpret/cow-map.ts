/**
 * A Map that is copied on first write after a fork. The interpreter forks its state at every
 * branch, subshell and loop body; most branches never assign a variable or define a function, so
 * sharing the parent's map until one does keeps branching O(1) instead of O(variables), and lets
 * a join see at a glance (`sameAs`) that no branch changed anything.
 */
export class CowMap<K, V> implements Iterable<[K, V]> {
  private shared: boolean;

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
    return new CowMap(this.map, true);
  }

  /** True when both read the same storage (neither was written since the fork). */
  sameAs(other: CowMap<K, V>): boolean {
    return this.map === other.map;
  }

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  keys(): IterableIterator<K> {
    return this.map.keys();
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.map[Symbol.iterator]();
  }

  set(key: K, value: V): this {
    this.own().set(key, value);
    return this;
  }

  delete(key: K): boolean {
    return this.map.has(key) ? this.own().delete(key) : false;
  }

  private own(): Map<K, V> {
    if (this.shared) {
      this.map = new Map(this.map);
      this.shared = false;
    }
    return this.map;
  }
}
