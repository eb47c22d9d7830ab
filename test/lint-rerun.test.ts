/**
 * `bashguard lint` runs that would use one child process analyze in the lint process instead,
 * under the kernel's timer, and restart themselves with every file in a child when a file runs
 * past --timeout (src/lint/rerun.ts). Through the real executable (`node bin/bashguard.js lint`,
 * built dist/): which processes analyzed is read from the code-cache debug lines each bundle
 * prints (`code cache ...` for the lint process, `lint worker code cache ...` for a child).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/shared.js';
import { oneChildByDefault } from '../src/lint/spawn-worker.js';
import { ISOLATE_ENV } from '../src/lint/rerun.js';

const CLI = join(REPO_ROOT, 'bin', 'bashguard.js');
const HANG = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'parser-hang.sh.txt'), 'utf8');
/** The restart needs bashguard's addon (its timer and handler); without it the run keeps its child. */
const ADDON = process.platform !== 'win32' && existsSync(join(REPO_ROOT, 'build', 'Release', 'bashguard_tree.node'));

describe('oneChildByDefault: which command lines analyze in the lint process', () => {
  const one = () => 1;
  const two = () => 2;
  it('a run with the default of one child, no --jobs and no stdin', () => {
    expect(oneChildByDefault(['a.sh'], one)).toBe(true);
    expect(oneChildByDefault(['--format', 'json', 'a.sh', 'b.sh'], one)).toBe(true);
    expect(oneChildByDefault(['--timeout', '5', 'dir/'], one)).toBe(true);
  });
  it('not with more children, an explicit --jobs, stdin, --timeout 0 (in-process anyway), --help or no path', () => {
    expect(oneChildByDefault(['a.sh', 'b.sh'], two)).toBe(false);
    expect(oneChildByDefault(['--jobs', '1', 'a.sh'], one)).toBe(false);
    expect(oneChildByDefault(['-j', '1', 'a.sh'], one)).toBe(false);
    expect(oneChildByDefault(['--jobs=1', 'a.sh'], one)).toBe(false);
    expect(oneChildByDefault(['-'], one)).toBe(false);
    expect(oneChildByDefault(['a.sh', '--', '-'], one)).toBe(false);
    expect(oneChildByDefault(['--timeout', '0', 'a.sh'], one)).toBe(false);
    expect(oneChildByDefault(['--help', 'a.sh'], one)).toBe(false);
    expect(oneChildByDefault(['--format', 'json'], one)).toBe(false);
  });
  it('a file named like an option value is not a path (--stdin-filename takes one)', () => {
    expect(oneChildByDefault(['--stdin-filename', 'x.sh', '-'], one)).toBe(false);
  });
});

describe.skipIf(!ADDON)('lint in the lint process, restarted with children when a file runs away', () => {
  let dir: string;
  let xdg: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bashguard-lint-rerun-'));
    xdg = join(dir, '.cache');
    writeFileSync(join(dir, 'a-runaway.sh'), HANG);
    writeFileSync(join(dir, 'b.sh'), '#!/bin/sh\necho hi > /etc/motd\ncd /tmp && touch ../x\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const lint = (args: string[], extra: Record<string, string> = {}, input?: string) => {
    const env = { PATH: process.env.PATH, HOME: dir, XDG_CACHE_HOME: xdg, BASHGUARD_CODE_CACHE_DEBUG: '1', ...extra };
    const r = spawnSync(process.execPath, [CLI, 'lint', '--root', dir, '--format', 'json', ...args], { env, cwd: dir, encoding: 'utf8', timeout: 60_000, input });
    const files = r.stdout ? (JSON.parse(r.stdout) as { files: { file: string; findings: { rule: string; line: number; message: string }[] }[] }).files : null;
    return {
      code: r.status,
      stderr: r.stderr,
      files: files?.map((f) => ({ file: f.file, findings: f.findings.map((x) => `${x.line}:${x.rule}:${x.message}`) })),
      children: r.stderr.split('\n').filter((l) => l.startsWith('bashguard: lint worker code cache')).length,
      restarts: r.stderr.split('\n').filter((l) => l.includes('running the lint again with each file in a child process')).length,
    };
  };

  it('one file: no child process, the same findings as with one (--jobs 1)', () => {
    const here = lint(['b.sh']);
    const child = lint(['--jobs', '1', 'b.sh']);
    expect(here.code, here.stderr).toBe(1);
    expect(here.children).toBe(0);
    expect(here.stderr).toMatch(/^bashguard: code cache \w+/m);
    expect(child.children).toBe(1);
    expect(here.files).toEqual(child.files);
    expect(here.files![0]!.findings.map((f) => f.split(':').slice(0, 2).join(':'))).toEqual(['2:BG1001', '3:BG1001']);
  }, 60_000);

  it('a file tree-sitter never finishes: one line on stderr, then the run again in children gives BG0002 for it and lints the rest', () => {
    const here = lint(['--timeout', '2', 'a-runaway.sh', 'b.sh']);
    expect(here.code, here.stderr).toBe(1);
    expect(here.restarts).toBe(1);
    // The restart ran the files in a child process (a new one after the runaway was stopped).
    expect(here.children).toBeGreaterThanOrEqual(1);
    const child = lint(['--timeout', '2', '--jobs', '1', 'a-runaway.sh', 'b.sh']);
    expect(child.restarts).toBe(0);
    expect(here.files).toEqual(child.files);
    expect(here.files!.find((f) => f.file === 'a-runaway.sh')!.findings).toEqual([expect.stringMatching(/^1:BG0002:analysis did not finish within 2 s/)]);
    expect(here.files!.find((f) => f.file === 'b.sh')!.findings).toHaveLength(2);
  }, 60_000);

  it(`${ISOLATE_ENV} puts the files in a child process; so does stdin, which cannot be read twice`, () => {
    const isolated = lint(['b.sh'], { [ISOLATE_ENV]: '1' });
    expect(isolated.children).toBe(1);
    const stdin = lint(['--stdin-filename', join(dir, 'b.sh'), '-'], {}, readFileSync(join(dir, 'b.sh'), 'utf8'));
    expect(stdin.children).toBe(1);
    expect(isolated.files![0]!.findings).toEqual(stdin.files![0]!.findings);
  }, 60_000);
});
