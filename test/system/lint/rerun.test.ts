/**
 * `bashguard lint` analyzes in its own process in place of one of its children, under the kernel's
 * timer, and restarts itself with every file in a child when one of its files runs past --timeout
 * (src/frontends/lint/rerun.ts). Through the real executable (`node bin/bashguard.js lint`,
 * built dist/): which processes analyzed is read from the code-cache debug lines each bundle
 * prints (`code cache ...` for the lint process, `lint worker code cache ...` for a child).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, addonOrSkip } from '../../helpers/shared.js';
import { analyzersWithThisProcess } from '../../../src/frontends/lint/spawn-worker.js';
import { ISOLATE_ENV } from '../../../src/frontends/lint/rerun.js';

const CLI = join(REPO_ROOT, 'bin', 'bashguard.js');
/** ~5 KB of comments, for scripts that are work enough. */
const PAD = `# ${'x'.repeat(99)}\n`.repeat(50);
const HANG = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'parser-hang.sh.txt'), 'utf8');
/** The restart needs bashguard's addon (its timer and handler); without it the run keeps its child. */
const ADDON = addonOrSkip('lint restarted in the lint process') === null;

describe('analyzersWithThisProcess: which command lines the lint process analyzes in', () => {
  const one = () => 1;
  const three = () => 3;
  it('by default (no --jobs, a limit, no stdin): as many processes as the run would have had children', () => {
    expect(analyzersWithThisProcess(['a.sh'], one)).toBe(1);
    expect(analyzersWithThisProcess(['--format', 'json', 'a.sh', 'b.sh'], one)).toBe(1);
    expect(analyzersWithThisProcess(['--timeout', '5', 'dir/'], one)).toBe(1);
    expect(analyzersWithThisProcess(['a.sh', 'b.sh', 'c.sh', 'd.sh'], three)).toBe(3);
    // Never more than the files.
    expect(analyzersWithThisProcess(['a.sh', 'b.sh'], three)).toBe(2);
  });
  it('not with an explicit --jobs, stdin, --timeout 0 (in-process anyway), --help or no path', () => {
    expect(analyzersWithThisProcess(['--jobs', '1', 'a.sh'], one)).toBe(0);
    expect(analyzersWithThisProcess(['-j', '2', 'a.sh', 'b.sh'], three)).toBe(0);
    expect(analyzersWithThisProcess(['--jobs=1', 'a.sh'], one)).toBe(0);
    expect(analyzersWithThisProcess(['-'], one)).toBe(0);
    expect(analyzersWithThisProcess(['a.sh', '--', '-'], one)).toBe(0);
    expect(analyzersWithThisProcess(['--timeout', '0', 'a.sh'], one)).toBe(0);
    expect(analyzersWithThisProcess(['--help', 'a.sh'], one)).toBe(0);
    expect(analyzersWithThisProcess(['--format', 'json'], one)).toBe(0);
  });
  it('a file named like an option value is not a path (--stdin-filename takes one)', () => {
    expect(analyzersWithThisProcess(['--stdin-filename', 'x.sh', '-'], one)).toBe(0);
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

  it('many files: the lint process takes the place of a child (one child at most where two would run), with the results of --jobs 2', () => {
    const names: string[] = [];
    for (let i = 0; i < 40; i++) {
      names.push(`m${i}.sh`);
      // ~5 KB each: 40 of them are work for two processes (src/frontends/lint/spawn-worker.ts, defaultWorkers).
      writeFileSync(join(dir, `m${i}.sh`), `#!/bin/sh\n${PAD}echo ${i} > /etc/m${i}\n${'cd /tmp\n'.repeat(i % 5)}touch ../x${i}\n`);
    }
    const here = lint(names);
    const two = lint(['--jobs', '2', ...names]);
    expect(here.code, here.stderr).toBe(1);
    expect(here.children).toBeLessThanOrEqual(1);
    expect(two.children).toBe(2);
    expect(here.files).toEqual(two.files);
    expect(here.files!.every((f) => f.findings.length >= 1)).toBe(true);
  }, 60_000);

  /** `first` (name, text), then 39 scripts of ~5 KB with one finding each: the run with a 2 s limit as is, and with --jobs 2. */
  const runawayAmong = (prefix: string, first: [string, string]) => {
    writeFileSync(join(dir, first[0]), first[1]);
    const names = [first[0]];
    for (let i = 0; i < 39; i++) {
      names.push(`${prefix}${i}.sh`);
      writeFileSync(join(dir, `${prefix}${i}.sh`), `#!/bin/sh\n${PAD}echo ${i} > /etc/${prefix}${i}\n`);
    }
    return { here: lint(['--timeout', '2', ...names]), two: lint(['--timeout', '2', '--jobs', '2', ...names]) };
  };

  it('a runaway file among many, taken first by the child (the largest): BG0002 for it, the files sent after it go to others, the results of --jobs 2', () => {
    const { here, two } = runawayAmong('r', ['big-runaway.sh', `${HANG}\n${'#'.repeat(8000)}\n`]);
    expect(here.code, here.stderr).toBe(1);
    expect(here.files).toEqual(two.files);
    expect(here.files![0]!.findings).toEqual([expect.stringMatching(/^1:BG0002:analysis did not finish within 2 s/)]);
    expect(here.files!.slice(1).map((f) => f.findings.length)).toEqual(Array(39).fill(1));
  }, 60_000);

  it('a runaway file the lint process takes itself (the smallest) while a child works: the restart, then the results of --jobs 2', () => {
    const { here, two } = runawayAmong('s', ['tiny-runaway.sh', HANG]);
    expect(here.code, here.stderr).toBe(1);
    expect(here.restarts).toBe(1);
    expect(here.files).toEqual(two.files);
    expect(here.files![0]!.findings).toEqual([expect.stringMatching(/^1:BG0002:/)]);
  }, 60_000);

  it(`${ISOLATE_ENV} puts the files in a child process; so does stdin, which cannot be read twice`, () => {
    const isolated = lint(['b.sh'], { [ISOLATE_ENV]: '1' });
    expect(isolated.children).toBe(1);
    const stdin = lint(['--stdin-filename', join(dir, 'b.sh'), '-'], {}, readFileSync(join(dir, 'b.sh'), 'utf8'));
    expect(stdin.children).toBe(1);
    expect(isolated.files![0]!.findings).toEqual(stdin.files![0]!.findings);
  }, 60_000);
});
