/** src/util/safe-read.ts: the one way the hook reads a file the agent may have replaced. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRegularFile, readRegularFileOrThrow } from '../../../src/util/safe-read.js';
import { appendDecision } from '../../../src/layers/log/decisions.js';
import { layoutBase } from '../../helpers/git-layout.js';

const dir = mkdtempSync(join(layoutBase(), 'bg-safe-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readRegularFile', () => {
  it('reads a regular file, and through a symlink unless told not to', () => {
    writeFileSync(join(dir, 'a.json'), '{"x":1}');
    symlinkSync(join(dir, 'a.json'), join(dir, 'link.json'));
    expect(readRegularFile(join(dir, 'a.json'))).toEqual({ ok: true, text: '{"x":1}' });
    expect(readRegularFile(join(dir, 'link.json'))).toEqual({ ok: true, text: '{"x":1}' });
    const nf = readRegularFile(join(dir, 'link.json'), { noFollow: true });
    expect(nf.ok).toBe(false);
    expect(!nf.ok && nf.code).toBe('ELOOP');
  });

  it('a FIFO (no writer), a directory, a character device, a missing file, an oversized file: refused at once, one line naming the file', () => {
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'big'), 'x'.repeat(100));
    const cases: [string, string, RegExp, number?][] = [
      [join(dir, 'fifo'), 'ENOTREG', /fifo: a FIFO, not a regular file; not read$/],
      [join(dir, 'sub'), 'EISDIR', /sub: a directory, not a regular file/],
      ['/dev/zero', 'ENOTREG', /\/dev\/zero: a character device/],
      [join(dir, 'nope'), 'ENOENT', /nope: cannot read \(ENOENT\)/],
      [join(dir, 'big'), 'EFBIG', /big: 100 bytes, over the 10-byte bound/, 10],
    ];
    for (const [path, code, message, maxBytes] of cases) {
      const r = readRegularFile(path, { maxBytes });
      expect(r.ok, path).toBe(false);
      if (!r.ok) {
        expect(r.code).toBe(code);
        expect(r.message).toMatch(message);
        expect(r.message).not.toContain('\n');
      }
    }
    expect(() => readRegularFileOrThrow(join(dir, 'fifo'))).toThrow(/a FIFO/);
  });
});

describe('the decision log at a FIFO', () => {
  it('appendDecision answers with an error instead of blocking, and writes nothing', () => {
    const state = join(dir, 'state');
    mkdirSync(join(state, 'bashguard'), { recursive: true });
    execFileSync('mkfifo', [join(state, 'bashguard', 'decisions.jsonl')]);
    const err = appendDecision({ XDG_STATE_HOME: state }, { time: 't', session: null, cwd: null, tool: 'Bash', decision: 'deny', rules: [], reason: 'r', entrypoint: null, attended: null });
    expect(err).toMatch(/cannot write the decision log .*decisions\.jsonl: not a regular file/);
  });
});
