/**
 * The addon's file functions (native/file-io.c, src/util/native-io.ts), which the hook uses for
 * its stdin, its answer, its decision log and the workspace's stat calls instead of Node's fs:
 * each gives what Node's own call gives, on the ordinary cases and the unusual ones (a
 * non-blocking descriptor, a terminal, a reader that has gone, a missing directory, a FIFO, a
 * dangling link, a path with a NUL byte).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeIO, STAT, type NativeIO } from '../../../src/util/native-io.js';
import { REPO_ROOT, addonOrSkip, cannotRun } from '../../helpers/shared.js';

const ADDON_FILE = join(REPO_ROOT, 'build', 'Release', 'bashguard_tree.node');
const ADDON = addonOrSkip('native-io') === null;
const root = process.getuid?.() === 0;

let dir: string;
let io: NativeIO;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bashguard-native-io-'));
  if (ADDON) io = nativeIO()!;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `body` in a node child that has the addon's exports as `a`; returns the child's result. */
function child(body: string, opts: { input?: string | Buffer } = {}) {
  const script = `const addon = { exports: {} }; process.dlopen(addon, ${JSON.stringify(ADDON_FILE)}); const a = addon.exports;\n${body}`;
  return spawnSync(process.execPath, ['-e', script], { input: opts.input, encoding: 'buffer', timeout: 30_000 });
}

describe.skipIf(!ADDON)('readAll', () => {
  it('reads everything from a pipe, decoded as Buffer decodes UTF-8 (invalid bytes included), across 64 KiB', () => {
    const bytes = Buffer.concat([Buffer.from('é€😀 '.repeat(30_000)), Buffer.from([0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80]), Buffer.from('end')]);
    expect(bytes.length).toBeGreaterThan(3 * 65536);
    const r = child('const s = a.readAll(0); process.stdout.write(JSON.stringify(s));', { input: bytes });
    expect(r.status, r.stderr.toString()).toBe(0);
    expect(JSON.parse(r.stdout.toString())).toBe(bytes.toString('utf8'));
  });

  it('an empty input is the empty string', () => {
    const r = child('process.stdout.write(JSON.stringify(a.readAll(0)));', { input: '' });
    expect(JSON.parse(r.stdout.toString())).toBe('');
  });

  it('waits on a non-blocking descriptor (EAGAIN) until the writer ends, as the hook used Node streams for', () => {
    // Touching process.stdin makes Node put the pipe in non-blocking mode; the writer is a shell
    // that writes half, pauses, then writes the rest.
    const script = `const addon = { exports: {} }; process.dlopen(addon, ${JSON.stringify(ADDON_FILE)}); process.stdin.pause(); const s = addon.exports.readAll(0); process.stdout.write(String(s.length) + ':' + s.slice(0, 5) + s.slice(-5));`;
    const r = spawnSync('sh', ['-c', `{ printf 'hello'; sleep 0.3; printf '%070000d' 0; printf 'world'; } | "$0" -e "$1"`, process.execPath, script], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${5 + 70_000 + 5}:helloworld`);
  });

  it('is null for a terminal (the hook then reads nothing)', (ctx) => {
    const script = spawnSync('script', ['--version'], { encoding: 'utf8' });
    if (script.status !== 0) return ctx.skip(cannotRun('native-io: no `script` (util-linux) to give the child a terminal'));
    const body = `const addon = { exports: {} }; process.dlopen(addon, ${JSON.stringify(ADDON_FILE)}); require('fs').writeFileSync(${JSON.stringify(join(dir, 'tty.out'))}, JSON.stringify(addon.exports.readAll(0)));`;
    const r = spawnSync('script', ['-qec', `${JSON.stringify(process.execPath)} -e ${JSON.stringify(body).replace(/\$/g, '\\$')}`, '/dev/null'], { encoding: 'utf8', timeout: 30_000, input: '' });
    expect(r.status, r.stderr + r.stdout).toBe(0);
    expect(readFileSync(join(dir, 'tty.out'), 'utf8')).toBe('null');
    // isTerminal, which the CLI's directIO asks for isTTY, says the same of the terminal and of a pipe.
    const tty = `const addon = { exports: {} }; process.dlopen(addon, ${JSON.stringify(ADDON_FILE)}); require('fs').writeFileSync(${JSON.stringify(join(dir, 'tty2.out'))}, JSON.stringify([addon.exports.isTerminal(0), addon.exports.isTerminal(1), require('tty').isatty(1), addon.exports.isTerminal(-1), addon.exports.isTerminal(99)]));`;
    expect(spawnSync('script', ['-qec', `${JSON.stringify(process.execPath)} -e ${JSON.stringify(tty).replace(/\$/g, '\\$')}`, '/dev/null'], { encoding: 'utf8', timeout: 30_000, input: '' }).status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'tty2.out'), 'utf8'))).toEqual([true, true, true, false, false]);
  });

  it('a descriptor that cannot be read throws with its code and message, as Node does', () => {
    expect(() => io.readAll(987)).toThrow(expect.objectContaining({ code: 'EBADF' }));
    // A directory: Node's readSync and the addon say the same (libuv's name and text).
    const fd = openSync(dir, 'r');
    try {
      let node: Error | null = null;
      try {
        readSync(fd, Buffer.alloc(10));
      } catch (e) {
        node = e as Error;
      }
      expect(node).not.toBeNull();
      expect(() => io.readAll(fd)).toThrow(expect.objectContaining({ code: (node as NodeJS.ErrnoException).code, message: node!.message }));
    } finally {
      closeSync(fd);
    }
    expect(() => (io.readAll as (x: unknown) => unknown)('x')).toThrow(/readAll: expected a file descriptor/);
  });
});

describe.skipIf(!ADDON)('writeAll', () => {
  it('writes all of a large text to a non-blocking pipe read slowly (waiting on EAGAIN)', () => {
    const script = `const addon = { exports: {} }; process.dlopen(addon, ${JSON.stringify(ADDON_FILE)}); process.stdout; addon.exports.writeAll(1, 'é'.repeat(300000) + 'end');`;
    const r = spawnSync('sh', ['-c', `"$0" -e "$1" | { sleep 0.3; wc -c; }`, process.execPath, script], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(Number(r.stdout.trim())).toBe(600_003);
  });

  it('a reader that has gone is EPIPE, thrown with its code (the hook then ends quietly)', () => {
    const body = `const addon = { exports: {} }; process.dlopen(addon, ${JSON.stringify(ADDON_FILE)}); try { for (let i = 0; i < 100; i++) addon.exports.writeAll(1, 'x'.repeat(100000)); console.error('no error'); } catch (e) { console.error('code=' + e.code + ' ' + e.message); }`;
    // The reader (`true`) ends without reading; the writer's 10 MB cannot all fit in the pipe.
    const gone = spawnSync('sh', ['-c', `"$0" -e "$1" | true`, process.execPath, body], { encoding: 'utf8', timeout: 30_000 });
    expect(gone.stderr).toContain('code=EPIPE EPIPE: broken pipe, write');
    const read = spawnSync('sh', ['-c', `"$0" -e "$1" | wc -c`, process.execPath, body], { encoding: 'utf8', timeout: 30_000 });
    expect(read.stderr).toContain('no error');
    expect(read.stdout.trim()).toBe('10000000');
  });
});

describe.skipIf(!ADDON)('appendLine', () => {
  it('creates the file 0600 and appends, as openSync(file, "a", 0o600) and writeSync do', () => {
    const file = join(dir, 'log.jsonl');
    expect(io.appendLine(file, 'one é\n', 1000)).toBe(true);
    expect(io.appendLine(file, 'two\n', 1000)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('one é\ntwo\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('writes nothing and says false when the line would take a non-empty file past the limit; an empty file takes any line', () => {
    const file = join(dir, 'full.jsonl');
    expect(io.appendLine(file, 'x'.repeat(50), 100)).toBe(true);
    expect(io.appendLine(file, 'y'.repeat(51), 100)).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('x'.repeat(50));
    expect(io.appendLine(file, 'y'.repeat(50), 100)).toBe(true);
    const empty = join(dir, 'empty.jsonl');
    expect(io.appendLine(empty, 'z'.repeat(500), 100)).toBe(true);
    expect(statSync(empty).size).toBe(500);
  });

  it('a missing directory is ENOENT (the caller makes it), with Node-like message', () => {
    const missing = join(dir, 'no', 'such', 'log.jsonl');
    expect(() => io.appendLine(missing, 'x\n', 100)).toThrow(expect.objectContaining({ code: 'ENOENT', message: `ENOENT: no such file or directory, open '${missing}'` }));
  });

  it.skipIf(root)('a file it may not write is EACCES (as a non-root user)', () => {
    const file = join(dir, 'ro.jsonl');
    writeFileSync(file, '');
    chmodSync(file, 0o400);
    expect(() => io.appendLine(file, 'x\n', 100)).toThrow(expect.objectContaining({ code: 'EACCES' }));
  });
});

describe.skipIf(!ADDON)('statKind', () => {
  /** What Node's statSync / lstatSync say, in statKind's terms. */
  function nodeKind(p: string, follow: boolean): number {
    try {
      const s = follow ? statSync(p) : lstatSync(p);
      return s.isFile() ? s.size : s.isDirectory() ? STAT.DIRECTORY : s.isSymbolicLink() ? STAT.SYMLINK : STAT.OTHER;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return code === 'ENOENT' ? STAT.ENOENT : code === 'ENOTDIR' ? STAT.ENOTDIR : STAT.ERROR;
    }
  }

  it('agrees with statSync and lstatSync on files, directories, links, FIFOs, missing paths and bad paths', () => {
    const file = join(dir, 'k-file');
    writeFileSync(file, 'x'.repeat(1234));
    mkdirSync(join(dir, 'k-dir'));
    symlinkSync(file, join(dir, 'k-link'));
    symlinkSync(join(dir, 'nowhere'), join(dir, 'k-dangling'));
    symlinkSync(join(dir, 'k-loop'), join(dir, 'k-loop'));
    const fifo = spawnSync('mkfifo', [join(dir, 'k-fifo')]);
    const paths = [
      file,
      join(dir, 'k-dir'),
      join(dir, 'k-link'),
      join(dir, 'k-dangling'),
      join(dir, 'k-loop'),
      join(dir, 'missing'),
      join(file, 'below'),
      '/dev/null',
      join(dir, 'k-fifo'),
      '/',
      'x'.repeat(5000),
    ];
    for (const p of paths) for (const follow of [true, false]) expect([p, follow, io.statKind(p, follow)]).toEqual([p, follow, nodeKind(p, follow)]);
    expect(io.statKind(file, true)).toBe(1234);
    expect(io.statKind(join(dir, 'k-link'), false)).toBe(STAT.SYMLINK);
    expect(io.statKind(join(dir, 'k-dangling'), true)).toBe(STAT.ENOENT);
    expect(io.statKind(join(file, 'below'), true)).toBe(STAT.ENOTDIR);
    if (fifo.status === 0) expect(io.statKind(join(dir, 'k-fifo'), true)).toBe(STAT.OTHER);
    // Node refuses a path with a NUL byte; the addon calls it an error, never "missing".
    expect(io.statKind(`${file}\0x`, true)).toBe(STAT.ERROR);
  });

  it('agrees with Node on generated names (Unicode, lone surrogates) under a directory', () => {
    const base = join(dir, 'gen');
    mkdirSync(base);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }), fc.boolean(), (name, make) => {
        if (name.includes('/') || name.includes('\0') || name === '.' || name === '..') return true;
        const p = join(base, name);
        if (make) writeFileSync(p, name);
        return io.statKind(p, true) === nodeKind(p, true);
      }),
      { numRuns: 300 },
    );
  });

  it.skipIf(root)('a directory it may not search is an error, not a missing file (as a non-root user)', () => {
    const closed = join(dir, 'closed');
    mkdirSync(closed);
    writeFileSync(join(closed, 'f'), 'x');
    chmodSync(closed, 0o000);
    try {
      expect(io.statKind(join(closed, 'f'), true)).toBe(STAT.ERROR);
    } finally {
      chmodSync(closed, 0o700);
    }
  });
});
