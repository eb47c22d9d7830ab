/**
 * src/util/sha256.ts: the addon's SHA-256 (OpenSSL's, native/tree-export.c) gives node:crypto's
 * digest for any text, so fingerprints in baselines and SARIF files do not depend on which one a
 * process used.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex, sha256IsNative } from '../../../src/util/sha256.js';
import { treeAddon } from '../../../src/util/tree-addon.js';
import { REPO_ROOT, addonOrSkip } from '../../helpers/shared.js';

const ADDON = addonOrSkip('sha256 through the addon') === null;
const reference = (text: string) => createHash('sha256').update(text).digest('hex');

describe('sha256Hex', () => {
  it('gives the FIPS 180-4 digests of the standard messages', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it.skipIf(!ADDON)('goes through the addon where it is built', () => {
    expect(sha256IsNative()).toBe(true);
  });

  it('equals node:crypto on any text: Unicode, NUL, lone surrogates, long texts', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => sha256Hex(s) === reference(s)), { numRuns: 500 });
    fc.assert(fc.property(fc.string({ unit: 'grapheme', minLength: 500, maxLength: 3000 }), (s) => sha256Hex(s) === reference(s)), { numRuns: 50 });
    for (const s of ['\ud800', 'a\udc00b', '\0\0', 'x'.repeat(1023), 'x'.repeat(1024), 'é'.repeat(600)]) expect(sha256Hex(s)).toBe(reference(s));
  });

  it.skipIf(!ADDON)('the addon refuses what is not a string with a clear error', () => {
    const fn = treeAddon().sha256Hex as (x: unknown) => string;
    expect(() => fn(42)).toThrow(/sha256Hex: the text must be a string/);
  });
});
