/**
 * The addon's readBundle (native/read-bundle.c), which the start entries use to read their bundle
 * and its code cache (src/runtime/startup/code-cache.ts): it must trust exactly the cache files the
 * JavaScript reader (readCache) trusts, and give V8 exactly the text it would get, on every file
 * a cache directory can hold: the good one, stale, damaged, truncated, garbage, empty, too open,
 * in a directory too open, a link, a FIFO, another user's.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAGIC_TEXT, WRAP_HEAD, WRAP_TAIL, readCache, writeCache } from '../../../src/runtime/startup/code-cache.js';
import { treeAddon } from '../../../src/util/tree-addon.js';
import { REPO_ROOT, addonOrSkip } from '../../helpers/shared.js';

const ADDON = addonOrSkip('read-bundle') === null;

type ReadBundle = (bundle: string, head: string, tail: string, cache: string | null, magic: string) => [string, Buffer | null] | null;
let readBundle: ReadBundle;
let base: string;
let bundle: string;
let source: Buffer;
const data = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) & 0xff));

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'bashguard-read-bundle-'));
  bundle = join(base, 'bundle.cjs');
  // Larger than the reader's 64 KiB chunks, ASCII as the build makes the bundles.
  source = Buffer.from(`'use strict';\n${'exports.x = "a line of the bundle";\n'.repeat(4000)}`, 'latin1');
  writeFileSync(bundle, source);
  if (ADDON) readBundle = treeAddon().readBundle as ReadBundle;
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

let n = 0;
/** A fresh private cache directory with a good cache file for the bundle; returns the file. */
function goodCache(): string {
  const dir = join(base, `cache-${n++}`);
  const file = join(dir, 'hook-x.cache');
  expect(writeCache(file, source, data)).toBe(true);
  return file;
}

/** The native reader's data for `file` against the JavaScript reader's, which must agree. */
function both(file: string, src = source): Buffer | null {
  const native = readBundle(bundle, WRAP_HEAD, WRAP_TAIL, file, MAGIC_TEXT);
  expect(native).not.toBeNull();
  const js = readCache(file, src);
  expect(native![1] === null ? null : Buffer.from(native![1]!)).toEqual(js === null ? null : Buffer.from(js));
  return native![1];
}

describe.skipIf(!ADDON)('readBundle', () => {
  it('gives the text between the wrapper ends, exactly, and the data of a good cache file', () => {
    const file = goodCache();
    const [text, got] = readBundle(bundle, WRAP_HEAD, WRAP_TAIL, file, MAGIC_TEXT)!;
    expect(text).toBe(WRAP_HEAD + source.toString('latin1') + WRAP_TAIL);
    expect(Buffer.from(got!).equals(data)).toBe(true);
    expect(both(file)?.equals(data)).toBe(true);
  });

  it('without a cache path: the text and no data', () => {
    const r = readBundle(bundle, WRAP_HEAD, WRAP_TAIL, null, MAGIC_TEXT)!;
    expect(r[0]).toBe(WRAP_HEAD + source.toString('latin1') + WRAP_TAIL);
    expect(r[1]).toBeNull();
  });

  it('stale, damaged in either copy, truncated, garbage, empty, another magic: no data, as readCache', () => {
    const file = goodCache();
    const good = readFileSync(file);
    const stale = Buffer.from(good);
    stale[16 + 70_000] = stale[16 + 70_000]! ^ 0x20; // in the source copy, past the first chunk
    const second = Buffer.from(good);
    second[good.length - 10] = second[good.length - 10]! ^ 0xff;
    const first = Buffer.from(good);
    first[16 + source.length + 3] = first[16 + source.length + 3]! ^ 0x01;
    const magic = Buffer.from(good);
    magic[4] = 2;
    const longer = Buffer.concat([good, Buffer.from('x')]);
    for (const bad of [stale, second, first, magic, good.subarray(0, good.length - 7), longer, Buffer.from('garbage'.repeat(1000)), Buffer.alloc(0), good.subarray(0, 10)]) {
      writeFileSync(file, bad, { mode: 0o600 });
      expect(both(file)).toBeNull();
    }
    writeFileSync(file, good, { mode: 0o600 });
    expect(both(file)?.equals(data)).toBe(true);
  });

  it('a cache made for other source of the same length is not used', () => {
    const file = goodCache();
    const other = Buffer.from(source);
    other[other.length - 5] = 0x41;
    writeFileSync(bundle + '.other', other);
    const r = readBundle(bundle + '.other', WRAP_HEAD, WRAP_TAIL, file, MAGIC_TEXT)!;
    expect(r[1]).toBeNull();
    expect(readCache(file, other)).toBeNull();
  });

  it('a file others can write, in a directory others can enter, a link or a FIFO: not trusted (and no hang)', () => {
    const file = goodCache();
    for (const mode of [0o620, 0o602, 0o666]) {
      chmodSync(file, mode);
      expect(both(file)).toBeNull();
    }
    chmodSync(file, 0o644); // readable by others is fine, writable is not
    expect(both(file)?.equals(data)).toBe(true);
    chmodSync(file, 0o600);
    const dir = join(file, '..');
    chmodSync(dir, 0o755);
    expect(both(file)).toBeNull();
    chmodSync(dir, 0o700);
    const link = join(dir, 'link.cache');
    symlinkSync(file, link);
    expect(both(link)).toBeNull();
    const fifo = join(dir, 'fifo.cache');
    if (spawnSync('mkfifo', [fifo]).status === 0) expect(both(fifo)).toBeNull();
    // A cache directory that is itself a link is not private either.
    const linkedDir = join(base, `linked-${n++}`);
    symlinkSync(dir, linkedDir);
    expect(both(join(linkedDir, 'hook-x.cache'))).toBeNull();
    expect(both(join(base, 'no-such-dir', 'hook-x.cache'))).toBeNull();
  });

  it.skipIf(process.getuid?.() !== 0)("another user's file or directory is not trusted (as root, which can make them)", () => {
    const file = goodCache();
    chownSync(file, 65534, 65534);
    expect(both(file)).toBeNull();
    chownSync(file, 0, 0);
    chownSync(join(file, '..'), 65534, 65534);
    expect(both(file)).toBeNull();
  });

  it('a bundle that is not ASCII, or not there: null, for the JavaScript reader to handle', () => {
    const utf8 = join(base, 'utf8.cjs');
    writeFileSync(utf8, 'exports.x = "é";\n');
    expect(readBundle(utf8, WRAP_HEAD, WRAP_TAIL, null, MAGIC_TEXT)).toBeNull();
    expect(readBundle(join(base, 'missing.cjs'), WRAP_HEAD, WRAP_TAIL, null, MAGIC_TEXT)).toBeNull();
    mkdirSync(join(base, 'a-dir.cjs'));
    expect(readBundle(join(base, 'a-dir.cjs'), WRAP_HEAD, WRAP_TAIL, null, MAGIC_TEXT)).toBeNull();
  });

  it('refuses bad arguments with a one-line error', () => {
    const f = readBundle as unknown as (...a: unknown[]) => unknown;
    expect(() => f(bundle, WRAP_HEAD, WRAP_TAIL, null)).toThrow(/^readBundle: expected/);
    expect(() => f(42, WRAP_HEAD, WRAP_TAIL, null, MAGIC_TEXT)).toThrow(/^readBundle: expected/);
    expect(() => f(bundle, WRAP_HEAD, WRAP_TAIL, null, 'short')).toThrow(/^readBundle: expected/);
  });
});
