/**
 * CowMap (src/engine/shell/cow-map.ts): the interpreter's variables and functions. Forks must behave
 * exactly like independent copies; sharing is only an optimisation that `sameAs` exposes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CowMap } from '../../../../src/engine/shell/cow-map.js';

describe('CowMap', () => {
  it('a fork shares storage until either side writes', () => {
    const a = CowMap.of([['x', 1]]);
    const b = a.fork();
    expect(b.sameAs(a)).toBe(true);
    b.set('y', 2);
    expect(b.sameAs(a)).toBe(false);
    expect([...a]).toEqual([['x', 1]]);
    expect([...b]).toEqual([['x', 1], ['y', 2]]);
  });

  it('writing the parent after a fork leaves the fork unchanged', () => {
    const a = CowMap.of([['x', 1]]);
    const b = a.fork();
    a.set('x', 9);
    a.delete('x');
    expect(b.get('x')).toBe(1);
    expect(a.has('x')).toBe(false);
  });

  it('deleting a missing key does not copy', () => {
    const a = CowMap.of([['x', 1]]);
    const b = a.fork();
    expect(b.delete('nope')).toBe(false);
    expect(b.sameAs(a)).toBe(true);
  });

  it('any sequence of forks and writes behaves like independent Map copies [seed 20261121]', () => {
    type Op = { kind: 'fork'; from: number } | { kind: 'set'; at: number; key: string; value: number } | { kind: 'delete'; at: number; key: string };
    const key = fc.constantFrom('a', 'b', 'c', 'd');
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('fork' as const), from: fc.nat(7) }),
      fc.record({ kind: fc.constant('set' as const), at: fc.nat(7), key, value: fc.integer() }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(7), key }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const cows = [CowMap.of<string, number>()];
        const maps = [new Map<string, number>()];
        for (const o of ops) {
          if (o.kind === 'fork') {
            const i = o.from % cows.length;
            cows.push(cows[i]!.fork());
            maps.push(new Map(maps[i]));
          } else {
            const i = o.at % cows.length;
            if (o.kind === 'set') {
              cows[i]!.set(o.key, o.value);
              maps[i]!.set(o.key, o.value);
            } else expect(cows[i]!.delete(o.key)).toBe(maps[i]!.delete(o.key));
          }
        }
        cows.forEach((c, i) => expect([...c]).toEqual([...maps[i]!]));
      }),
      { seed: 20261121, numRuns: 500 },
    );
  });
  it('changedSince: outside the keys it returns, every map holds what its base holds [seed 20261123]', () => {
    type Op = { kind: 'fork'; from: number } | { kind: 'set'; at: number; key: string; value: number } | { kind: 'delete'; at: number; key: string } | { kind: 'join'; a: number; b: number };
    const key = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('fork' as const), from: fc.nat(9) }),
      fc.record({ kind: fc.constant('set' as const), at: fc.nat(9), key, value: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(9), key }),
      fc.record({ kind: fc.constant('join' as const), a: fc.nat(9), b: fc.nat(9) }),
    );
    let found = 0;
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const cows = [CowMap.of<string, number>([['a', 0]])];
        for (const o of ops) {
          if (o.kind === 'fork') cows.push(cows[o.from % cows.length]!.fork());
          else if (o.kind === 'set') cows[o.at % cows.length]!.set(o.key, o.value);
          else if (o.kind === 'delete') cows[o.at % cows.length]!.delete(o.key);
          else {
            const pair = [cows[o.a % cows.length]!, cows[o.b % cows.length]!];
            const since = CowMap.changedSince(pair);
            if (!since) continue;
            found++;
            for (const k of ['a', 'b', 'c', 'd', 'e', 'f']) {
              if (since.keys.has(k)) continue;
              for (const m of pair) {
                expect(m.has(k)).toBe(since.base.has(k));
                expect(m.get(k)).toBe(since.base.get(k));
              }
            }
            // A join result derived from the base keeps the relation for later joins.
            const updates = new Map<string, number | undefined>();
            for (const k of since.keys) updates.set(k, pair[0]!.get(k) ?? pair[1]!.get(k));
            const joined = CowMap.derive(since.base, updates);
            for (const k of ['a', 'b', 'c', 'd', 'e', 'f']) expect(joined.get(k)).toBe(since.keys.has(k) ? updates.get(k) : since.base.get(k));
            cows.push(joined);
          }
        }
      }),
      { seed: 20261123, numRuns: 500 },
    );
    expect(found).toBeGreaterThan(100);
  });
});
