/**
 * The lint parent loads no parser when its children analyze (src/frontends/lint/command.ts): the two dlopens
 * and the check parse are the children's. getParser is counted through a mock of the parser layer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IO } from '../../../src/frontends/io.js';

const calls = vi.hoisted(() => ({ getParser: 0 }));
vi.mock('../../../src/engine/parse/index.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/engine/parse/index.js')>();
  return { ...real, getParser: (...args: Parameters<typeof real.getParser>) => (calls.getParser++, real.getParser(...args)) };
});
const { run } = await import('../../../src/frontends/cli/main.js');

const dir = mkdtempSync(join(tmpdir(), 'bashguard-lint-parent-'));
// (Retried, and no code cache: a child of the last run could otherwise still be writing one into
// this HOME after it was removed.)
afterAll(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }));
const script = join(dir, 'a.sh');
writeFileSync(script, '#!/bin/sh\necho x > /etc/bashguard-lint-parent\ncd /usr/share && cp a.txt ../b.txt\nif then\n');

async function lint(args: string[]): Promise<{ code: number; rules: string[] }> {
  let out = '';
  const io: IO = { stdout: (t) => void (out += t), stderr: () => {}, readStdin: async () => '', env: { HOME: dir, PATH: process.env.PATH, BASHGUARD_CODE_CACHE: '0' }, cwd: dir, isTTY: false };
  const code = await run(['lint', '--format', 'json', '--fail-on', 'none', ...args, script], io);
  const json = JSON.parse(out) as { files: { findings: { rule: string }[] }[] };
  return { code, rules: json.files[0]!.findings.map((f) => f.rule).sort() };
}

beforeEach(() => {
  calls.getParser = 0;
});

describe('the lint parent and the parser', () => {
  it('children analyze: the parent loads no parser, and the findings are those of an in-process run', async () => {
    const children = await lint(['--jobs', '1']);
    expect(calls.getParser).toBe(0);
    const inProcess = await lint(['--timeout', '0']);
    expect(calls.getParser).toBeGreaterThan(0);
    expect(children.rules.length).toBeGreaterThan(0);
    expect(children).toEqual(inProcess);
  }, 60_000);

  it('--parser named: checked in the parent (one error, before any child) even with children', async () => {
    await lint(['--jobs', '1', '--parser', 'native']);
    expect(calls.getParser).toBe(1);
  }, 60_000);
});
