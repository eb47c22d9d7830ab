/** Hashes that name the enforcement's files (./enforce.ts): the cwd file, the kept plan and rules. */
/**
 * 64-bit FNV-1a of a string, as 16 hex digits: the cwd file's name from the call's id (node:crypto
 * is not loaded for it: its first load costs the hook's process several ms). On four 16-bit limbs
 * in plain numbers: BigInt arithmetic allocated per character, in a young generation that an
 * allowed call already fills to a scavenge (bench/README.md). The prime is 2^40 + 0x1b3.
 */
export function fnv64(s: string): string {
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (let i = 0; i < s.length; i++) {
    h0 ^= s.charCodeAt(i);
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3 + (t0 >>> 16);
    const t2 = h2 * 0x1b3 + (t1 >>> 16) + ((h0 & 0xff) << 8);
    const t3 = h3 * 0x1b3 + (t2 >>> 16) + (h0 >>> 8) + ((h1 & 0xff) << 8);
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
    h3 = t3 & 0xffff;
  }
  return (h3 * 0x10000 + h2).toString(16).padStart(8, '0') + (h1 * 0x10000 + h0).toString(16).padStart(8, '0');
}

/**
 * A 64-bit hash from two 32-bit FNV-1a-style passes on plain numbers, cheaper than fnv64's four
 * limbs. Names a file only; what the file holds is compared whole.
 */
export function hash64(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x9747b28c ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

export function randomToken(): string {
  return fnv64(`${process.pid}\0${process.hrtime.bigint()}\0${Math.random()}\0${Math.random()}`);
}
