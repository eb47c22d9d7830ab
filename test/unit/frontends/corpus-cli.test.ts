/** `bashguard corpus add` and `bashguard corpus check`, through run(argv, io) with a fake IO. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/frontends/cli/main.js';
import type { IO } from '../../../src/frontends/io.js';
import { parseCorpus } from '../../../src/frontends/corpus/schema.js';

function fakeIO(cwd: string): IO & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout(t: string) {
      io.out += t;
    },
    stderr(t: string) {
      io.err += t;
    },
    readStdin: async () => '',
    env: {},
    cwd,
    isTTY: false,
  };
  return io;
}

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function tempCorpus(text: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bashguard-corpus-'));
  made.push(dir);
  const file = join(dir, 'x.yaml');
  writeFileSync(file, text);
  return { dir, file };
}

describe('bashguard corpus add', () => {
  it('appends a one-line case with the current findings', async () => {
    const { dir, file } = tempCorpus('- {cmd: "touch x", expect: allow}\n');
    const io = fakeIO(dir);
    const code = await run(['corpus', 'add', '--expect', 'deny', '--file', 'x.yaml', 'cd ../.. && touch "a b"'], io);
    expect(code, io.err).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n').filter(Boolean)).toHaveLength(2);
    const cases = parseCorpus(text, 'x.yaml');
    expect(cases[1]).toMatchObject({ cmd: 'cd ../.. && touch "a b"', expect: 'deny', rules: ['BG1002'], line: 2 });
    expect(io.out).toContain('x.yaml:2');
  });

  it('records --cwd and says when the current decision differs from --expect', async () => {
    const { dir, file } = tempCorpus('');
    const io = fakeIO(dir);
    expect(await run(['corpus', 'add', '--expect', 'deny', '--file', file, '--cwd', '/home/dev/repo', 'touch x'], io)).toBe(0);
    const [c] = parseCorpus(readFileSync(file, 'utf8'), 'x.yaml');
    expect(c).toMatchObject({ cmd: 'touch x', cwd: '/home/dev/repo', expect: 'deny', rules: null });
    expect(io.out).toContain('currently decides allow');
  });

  it('refuses a duplicate and a bad --expect', async () => {
    const { dir } = tempCorpus('- {cmd: "touch x", expect: allow}\n');
    const io = fakeIO(dir);
    expect(await run(['corpus', 'add', '--expect', 'allow', '--file', 'x.yaml', 'touch x'], io)).toBe(2);
    expect(io.err).toContain('already has this case');
    const io2 = fakeIO(dir);
    expect(await run(['corpus', 'add', '--expect', 'maybe', '--file', 'x.yaml', 'ls'], io2)).toBe(2);
    expect(io2.err).toContain('--expect');
  });
});

describe('bashguard corpus check', () => {
  it('exits 0 when every case passes', async () => {
    const { dir } = tempCorpus('- {cmd: "touch x", expect: allow}\n- {cmd: "touch /home/dev/repo/x", expect: deny, rule: write-to-main-checkout}\n');
    const io = fakeIO(dir);
    expect(await run(['corpus', 'check', 'x.yaml'], io)).toBe(0);
    expect(io.out).toContain('2 passed, 0 failed');
  });

  it('exits 1 and prints expected vs actual on a failure', async () => {
    const { dir } = tempCorpus('- {cmd: "touch x", expect: allow}\n- {cmd: "touch ../b2/x", expect: allow}\n');
    const io = fakeIO(dir);
    expect(await run(['corpus', 'check', 'x.yaml'], io)).toBe(1);
    expect(io.out).toContain('FAIL x.yaml:2');
    expect(io.out).toContain('decision: expected allow, got deny');
    expect(io.out).toContain('BG1003');
    expect(io.out).toContain('1 passed, 1 failed');
  });

  it('reports schema errors with file:line', async () => {
    const { dir } = tempCorpus('- {cmd: "touch x", expect: allow}\n- {cmd: "ls", expect: allow, bogus: 1}\n');
    const io = fakeIO(dir);
    expect(await run(['corpus', 'check', 'x.yaml'], io)).toBe(1);
    expect(io.err).toMatch(/x\.yaml:2: bogus: unknown field/);
  });

  it('flags duplicates', async () => {
    const { dir } = tempCorpus('- {cmd: "ls", expect: allow}\n- {cmd: "ls", expect: allow}\n');
    const io = fakeIO(dir);
    expect(await run(['corpus', 'check', 'x.yaml'], io)).toBe(1);
    expect(io.out).toContain('DUPLICATE');
  });
});
