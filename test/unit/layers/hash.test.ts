/**
 * The cwd file's hash (src/layers/sandbox/hash.ts) against FNV-1a 64 written out in BigInt, the
 * form it replaced: the names of the wrapper's cwd files must not change with the arithmetic.
 */
import { describe, expect, it } from 'vitest';
import { fnv64 } from '../../../src/layers/sandbox/hash.js';

function reference(s: string): string {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < s.length; i++) h = BigInt.asUintN(64, (h ^ BigInt(s.charCodeAt(i))) * 0x100000001b3n);
  return h.toString(16).padStart(16, '0');
}

describe('fnv64', () => {
  it('equals FNV-1a 64 in BigInt on random strings, ASCII and beyond', () => {
    let seed = 12345;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let n = 0; n < 5000; n++) {
      let s = '';
      const len = next() % 60;
      for (let i = 0; i < len; i++) s += String.fromCharCode(next() % 4 === 0 ? next() % 0x10000 : next() % 128);
      expect(fnv64(s)).toBe(reference(s));
    }
  });

  it('on the empty string and a call id with its command', () => {
    for (const s of ['', 'toolu_01\0/work/wt\0git status && npm test']) expect(fnv64(s)).toBe(reference(s));
  });
});
