/**
 * `bashguard lint` through run(argv, io): every format on the same fixtures, the SARIF output
 * checked against the official SARIF 2.1.0 schema (test/fixtures/lint/sarif-schema-2.1.0.json),
 * exit codes, suppressions, one bad file not stopping the run, stdin, roots and worktrees.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type Ran } from '../../helpers/memory-io.js';
import { parseDirectives } from '../../../src/frontends/lint/directives.js';
import { globMatcher, isShellShebang } from '../../../src/frontends/lint/files.js';
import { REPO_ROOT, unless } from '../../helpers/shared.js';
import { layoutBase } from '../../helpers/git-layout.js';
import { sha256IsNative } from '../../../src/util/sha256.js';
import { nativeIO } from '../../../src/util/native-io.js';

const FIXTURES = join(REPO_ROOT, 'test/fixtures/lint');
/**
 * The fixture project runs from a copy in a fresh checkout outside every scratch root
 * (test/helpers/git-layout.ts `layoutBase`): escapes.sh climbs `cd ../..` out of the project, and
 * where it lands must not depend on where this clone sits (under /tmp or /var/tmp the climb would
 * land in a write root and its finding would disappear).
 */
const CHECKOUT = realpathSync(mkdtempSync(join(layoutBase(), 'bg-lint-fixture-')));
execFileSync('git', ['init', '-q', CHECKOUT]);
cpSync(join(FIXTURES, 'project'), join(CHECKOUT, 'test/fixtures/lint/project'), { recursive: true });
afterAll(() => rmSync(CHECKOUT, { recursive: true, force: true }));
const PROJECT = join(CHECKOUT, 'test/fixtures/lint/project');


function lint(args: string[], opts: { stdin?: string; cwd?: string; env?: Record<string, string>; tty?: boolean } = {}): Promise<Ran> {
  return runCli(['lint', ...args], { env: { HOME: '/home/tester', TMPDIR: '/tmp', ...opts.env }, cwd: opts.cwd ?? CHECKOUT, stdin: opts.stdin, tty: opts.tty });
}

interface JsonFinding {
  rule: string;
  name: string;
  severity: string;
  confidence: string;
  message: string;
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  evidence: { line: number; column: number; note: string }[];
}
interface JsonOut {
  summary: { files: number; errors: number; warnings: number; infos: number; suppressed: number; failed: number };
  files: { file: string; root: string | null; rootSource: string | null; cwd: string | null; error: string | null; findings: JsonFinding[] }[];
}

const rulesAt = (j: JsonOut, file: string) =>
  j.files.find((f) => f.file.endsWith(file))!.findings.map((f) => `${f.line}:${f.rule}`);

// ---- a minimal JSON Schema draft-04 validator (the keywords the SARIF schema uses) -------------

type Schema = Record<string, unknown>;

function validate(root: Schema, value: unknown): string[] {
  const errors: string[] = [];
  const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
  const check = (s: Schema, v: unknown, at: string): void => {
    if (typeof s.$ref === 'string') {
      const path = s.$ref.replace(/^#\//, '').split('/');
      let target: unknown = root;
      for (const p of path) target = (target as Schema)[p];
      if (!target) errors.push(`${at}: unresolved $ref ${s.$ref}`);
      else check(target as Schema, v, at);
    }
    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
      const t = typeOf(v);
      if (!types.some((x) => x === t || (x === 'number' && t === 'integer'))) errors.push(`${at}: expected ${types.join('|')}, got ${t}`);
    }
    if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) errors.push(`${at}: ${JSON.stringify(v)} not in enum`);
    if (typeof v === 'number') {
      if (typeof s.minimum === 'number' && v < s.minimum) errors.push(`${at}: below minimum ${s.minimum}`);
      if (typeof s.maximum === 'number' && v > s.maximum) errors.push(`${at}: above maximum ${s.maximum}`);
    }
    if (typeof v === 'string') {
      if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(v)) errors.push(`${at}: does not match ${s.pattern}`);
      if (s.format === 'uri' && !/^[a-z][a-z0-9+.-]*:/i.test(v)) errors.push(`${at}: not an absolute URI: ${v}`);
      if ((s.format === 'uri' || s.format === 'uri-reference') && /[\s<>"{}|\\^`]/.test(v)) errors.push(`${at}: not a URI: ${v}`);
    }
    if (Array.isArray(v)) {
      if (typeof s.minItems === 'number' && v.length < s.minItems) errors.push(`${at}: fewer than ${s.minItems} items`);
      if (s.uniqueItems === true && new Set(v.map((x) => JSON.stringify(x))).size !== v.length) errors.push(`${at}: items not unique`);
      if (s.items && typeof s.items === 'object') v.forEach((x, i) => check(s.items as Schema, x, `${at}[${i}]`));
    }
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const obj = v as Record<string, unknown>;
      for (const r of (s.required as string[] | undefined) ?? []) if (!(r in obj)) errors.push(`${at}: missing ${r}`);
      const props = (s.properties as Record<string, Schema> | undefined) ?? {};
      for (const [k, x] of Object.entries(obj)) {
        if (props[k]) check(props[k]!, x, `${at}.${k}`);
        else if (s.additionalProperties === false) errors.push(`${at}: unexpected property ${k}`);
        else if (s.additionalProperties && typeof s.additionalProperties === 'object') check(s.additionalProperties as Schema, x, `${at}.${k}`);
      }
    }
    for (const sub of (s.allOf as Schema[] | undefined) ?? []) check(sub, v, at);
    const count = (subs: Schema[]) =>
      subs.filter((sub) => {
        const before = errors.length;
        check(sub, v, at);
        const ok = errors.length === before;
        errors.length = before;
        return ok;
      }).length;
    if (Array.isArray(s.anyOf) && count(s.anyOf as Schema[]) === 0) errors.push(`${at}: matches no anyOf branch`);
    if (Array.isArray(s.oneOf) && count(s.oneOf as Schema[]) !== 1) errors.push(`${at}: does not match exactly one oneOf branch`);
  };
  check(root, value, '$');
  return errors;
}

const SARIF_SCHEMA = JSON.parse(readFileSync(join(FIXTURES, 'sarif-schema-2.1.0.json'), 'utf8')) as Schema;

// ---- tests ------------------------------------------------------------------------------------

/**
 * Runs `body` with a fresh directory holding `probe` as probe.cjs (a test's probe of what a lint
 * process loads) and a `lint(args, extra)` that runs `bashguard lint ARGS` in a fresh process with
 * the probe preloaded, HOME and TMPDIR in that directory, a minimal environment plus `extra`.
 */
function withProbe(name: string, probe: string, body: (dir: string, lint: (args: string[], extra?: Record<string, string>) => SpawnSyncReturns<string>) => void): void {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `bg-lint-${name}-`)));
  try {
    writeFileSync(join(dir, 'probe.cjs'), probe);
    body(dir, (args, extra = {}) =>
      spawnSync(process.execPath, ['--require', join(dir, 'probe.cjs'), join(REPO_ROOT, 'bin/bashguard.js'), 'lint', ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: dir, TMPDIR: dir, ...extra },
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('lint: the fixture project in every format', () => {
  // Every finding at its own severity (the default turns `possible` findings into notes: see below).
  const args = ['--root', PROJECT, '--report-unused-directives', '--min-confidence', 'possible', PROJECT];

  it('json: findings with rule, severity, confidence, positions and evidence', async () => {
    const r = await lint([...args, '--format', 'json']);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out) as JsonOut;
    // Directory walk: *.sh and the shebang script, not the .txt file nor the ignored directory.
    expect(j.files.map((f) => f.file).sort()).toEqual(['broken.sh', 'clean.sh', 'escapes.sh', 'filewide.sh', 'tools/deploy'].map((f) => `test/fixtures/lint/project/${f}`));
    expect(rulesAt(j, 'clean.sh')).toEqual([]);
    expect(rulesAt(j, 'filewide.sh')).toEqual([]);
    expect(rulesAt(j, 'escapes.sh')).toEqual(['3:BG1001', '5:BG1001', '6:BG2001', '10:BG0003', '11:BG1001', '12:BG0004']);
    expect(rulesAt(j, 'tools/deploy')).toEqual(['3:BG1001']);
    const escapes = j.files.find((f) => f.file.endsWith('escapes.sh'))!;
    expect(escapes.root).toBe(realpathSync(PROJECT));
    expect(escapes.rootSource).toBe('option');
    const climb = escapes.findings.find((f) => f.line === 5)!;
    expect(climb).toMatchObject({ rule: 'BG1001', name: 'write-outside-worktree', severity: 'error', confidence: 'certain', column: 8, endLine: 5, endColumn: 21 });
    expect(climb.message).toContain(join(CHECKOUT, 'test', 'fixtures', 'climbed.txt'));
    expect(climb.evidence.map((e) => e.note).join('\n')).toMatch(/cwd became .* at `cd \.\.\/\.\.`/);
    expect(j.summary).toMatchObject({ files: 5, suppressed: 4, failed: 0 });
    expect(r.err).toMatch(/5 files linted, 10 findings \(8 errors, 2 warnings, 0 info\), 4 suppressed/);
  });

  it('text: file:line:col: severity: message [rule], a code frame, no colour off a TTY', async () => {
    const r = await lint(args);
    expect(r.code).toBe(1);
    expect(r.out).toContain('test/fixtures/lint/project/escapes.sh:3:1: error: `touch` writes /etc/bashguard-lint-fixture, outside the worktree');
    expect(r.out).toContain('[BG1001 write-outside-worktree]');
    expect(r.out).toMatch(/ {2}> 3 \| touch \/etc\/bashguard-lint-fixture\n +\| \^{33}\n/);
    expect(r.out).toContain('    = confidence: certain');
    expect(r.out).not.toContain('\x1b[');
    expect(r.out.trimEnd().split('\n').pop()).toMatch(/^5 files linted, 10 findings \(8 errors, 2 warnings, 0 info\), 4 suppressed, [\d.]+ s$/);
    const tty = await lint([...args, '--no-progress'], { tty: true });
    expect(tty.out).toContain('\x1b[31m');
    expect(tty.err).toBe('');
  });

  it('text on a TTY shows progress on stderr', async () => {
    const r = await lint(args, { tty: true });
    expect(r.err).toContain('[5/5] ');
  });

  it('github: workflow annotations', async () => {
    const r = await lint([...args, '--format', 'github']);
    expect(r.code).toBe(1);
    const lines = r.out.trim().split('\n');
    expect(lines).toHaveLength(10);
    expect(lines).toContain(
      '::error file=test/fixtures/lint/project/tools/deploy,line=3,col=1,endLine=3,endColumn=21,title=BG1001 write-outside-worktree::`rm` writes /var/www/site, outside the worktree ' +
        realpathSync(PROJECT) + ' (certain; bashguard rules BG1001)',
    );
    expect(lines.filter((l) => l.startsWith('::warning '))).toHaveLength(2);
    for (const l of lines) expect(l).toMatch(/^::(error|warning|notice) file=[^,:]+,line=\d+,col=\d+,[^\n]*::[^\n]+$/);
  });

  it('sarif: valid against the SARIF 2.1.0 schema, with rules, levels, regions and related locations', async () => {
    const r = await lint([...args, '--format', 'sarif']);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.out);
    expect(validate(SARIF_SCHEMA, log)).toEqual([]);
    const run0 = log.runs[0];
    expect(run0.tool.driver.name).toBe('bashguard');
    expect(run0.results).toHaveLength(10);
    const deploy = run0.results.find((x: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) => x.locations[0]!.physicalLocation.artifactLocation.uri.endsWith('tools/deploy'));
    expect(deploy).toMatchObject({ ruleId: 'BG1001', level: 'error', locations: [{ physicalLocation: { artifactLocation: { uri: 'test/fixtures/lint/project/tools/deploy', uriBaseId: '%SRCROOT%' }, region: { startLine: 3, startColumn: 1, endLine: 3, endColumn: 21 } } }] });
    expect(run0.tool.driver.rules[deploy.ruleIndex].id).toBe('BG1001');
    expect(deploy.relatedLocations[0].message.text).toContain('deletes /var/www/site');
    expect(run0.originalUriBaseIds['%SRCROOT%'].uri).toBe(`file://${CHECKOUT}/`);
    // The validator itself rejects broken logs.
    expect(validate(SARIF_SCHEMA, { version: '2.1.0', runs: [{ tool: { driver: {} }, results: [{ level: 'fatal', message: {} }] }] }).length).toBeGreaterThan(0);
  });
});

describe('lint: exit codes and --fail-on', () => {
  it('0 for a clean file, 1 for findings, 2 for usage errors', async () => {
    expect((await lint([join(PROJECT, 'clean.sh')])).code).toBe(0);
    expect((await lint(['--root', PROJECT, join(PROJECT, 'tools/deploy')])).code).toBe(1);
    const usage = await lint(['--format', 'xml', join(PROJECT, 'clean.sh')]);
    expect(usage.code).toBe(2);
    expect(usage.err).toContain('--format must be one of text, json, sarif, github');
    expect((await lint(['--fail-on', 'fatal', join(PROJECT, 'clean.sh')])).code).toBe(2);
    expect((await lint([])).code).toBe(2);
  });

  it('--fail-on decides which severities fail', async () => {
    const warnOnly = ['--root', PROJECT, '-'];
    const stdin = '# bashguard disable=nonsense-rule -- typo\ntouch notes.txt\n';
    expect((await lint(warnOnly, { stdin })).code).toBe(0);
    expect((await lint(['--fail-on', 'warning', ...warnOnly], { stdin })).code).toBe(1);
    expect((await lint(['--fail-on', 'info', ...warnOnly], { stdin })).code).toBe(1);
    expect((await lint(['--fail-on', 'none', '--root', PROJECT, join(PROJECT, 'tools/deploy')])).code).toBe(0);
  });
});

describe('lint: one bad file never stops the run', () => {
  it('parse errors are BG0001 findings, and the rest of the file and the run go on', async () => {
    const r = await lint(['--root', PROJECT, '--format', 'json', join(PROJECT, 'broken.sh'), join(PROJECT, 'does-not-exist.sh'), join(PROJECT, 'tools/deploy')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('does-not-exist.sh: no such file or directory');
    const j = JSON.parse(r.out) as JsonOut;
    expect(j.files).toHaveLength(2);
    const broken = rulesAt(j, 'broken.sh');
    expect(broken).toContain('2:BG1001');
    expect(broken).toContain('4:BG1001');
    // The parse error is reported once, on its own line (3), though tree-sitter's ERROR node
    // starts at the top of the file.
    expect(broken.filter((x) => x.endsWith('BG0001'))).toEqual(['3:BG0001']);
    expect(rulesAt(j, 'tools/deploy')).toEqual(['3:BG1001']);
  });

  it('a file tree-sitter never finishes: BG0002 after --timeout, and the files after it are still linted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bashguard-lint-runaway-'));
    try {
      writeFileSync(join(dir, 'a-runaway.sh'), readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'parser-hang.sh.txt'), 'utf8'));
      writeFileSync(join(dir, 'b.sh'), '#!/bin/sh\necho hi > /etc/motd\n');
      const t0 = performance.now();
      const r = await lint(['--root', dir, '--format', 'json', '--timeout', '2', join(dir, 'a-runaway.sh'), join(dir, 'b.sh')]);
      expect(performance.now() - t0).toBeLessThan(30_000);
      expect(r.code, r.err).toBe(1);
      const j = JSON.parse(r.out) as JsonOut;
      const runaway = j.files.find((f) => f.file.endsWith('a-runaway.sh'))!;
      expect(runaway.findings.map((f) => f.rule)).toEqual(['BG0002']);
      expect(runaway.findings[0]!.message).toMatch(/did not finish within 2 s/);
      expect(rulesAt(j, 'b.sh')).toEqual(['2:BG1001']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--jobs: several child processes give the same result, in order, and a runaway file among them is stopped alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bashguard-lint-jobs-'));
    try {
      const names: string[] = [];
      for (let i = 0; i < 7; i++) {
        const name = `f${i}.sh`;
        if (i === 2) writeFileSync(join(dir, name), readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'parser-hang.sh.txt'), 'utf8'));
        else writeFileSync(join(dir, name), `#!/bin/sh\necho ${i} > /etc/f${i}\n${'cd /tmp\n'.repeat(i)}touch ../x${i}\n`);
        names.push(join(dir, name));
      }
      const args = ['--root', dir, '--format', 'json', '--timeout', '2', ...names];
      const one = JSON.parse((await lint(['--jobs', '1', ...args])).out) as JsonOut;
      const three = JSON.parse((await lint(['--jobs', '3', ...args])).out) as JsonOut;
      expect(three.files.map((f) => f.file)).toEqual(one.files.map((f) => f.file));
      expect(three.files.map((f) => f.findings)).toEqual(one.files.map((f) => f.findings));
      expect(rulesAt(three, 'f2.sh')).toEqual(['1:BG0002']);
      expect(rulesAt(three, 'f6.sh')).toEqual(['2:BG1001', `${3 + 6}:BG1001`]);
      const bad = await lint(['--jobs', '0', names[0]!]);
      expect(bad.code).toBe(2);
      expect(bad.err.trim().split('\n')).toHaveLength(1);
      expect(bad.err).toMatch(/--jobs takes a whole number/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a script whose #! names another interpreter is not analyzed (one BG0001, as ShellCheck SC1071); shell shebangs are', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bashguard-lint-shebang-'));
    try {
      const body = 'rm -rf /etc/x\n';
      const scripts: Record<string, string> = {
        'a.pl': `#!/usr/bin/perl -w\n${body}`,
        'b.tcl': `#!/usr/bin/tclsh\n${body}`,
        'c.py': `#!/usr/bin/env python3\n${body}`,
        'z.zsh': `#!/bin/zsh -f\n${body}`,
        'd.sh': `#!/usr/bin/env bash\n${body}`,
        'e.sh': `#!/bin/sh -e\n${body}`,
        'f.sh': body,
      };
      for (const [n, t] of Object.entries(scripts)) writeFileSync(join(dir, n), t);
      const r = await lint(['--root', dir, '--format', 'json', '--timeout', '0', ...Object.keys(scripts).map((n) => join(dir, n))]);
      const j = JSON.parse(r.out) as JsonOut;
      for (const n of ['a.pl', 'b.tcl', 'c.py', 'z.zsh']) {
        expect(rulesAt(j, n), n).toEqual(['1:BG0001']);
        expect(j.files.find((f) => f.file.endsWith(n))!.findings[0]!.message).toMatch(/not a sh or bash script \(bashguard reads bash\): not analyzed/);
      }
      for (const n of ['d.sh', 'e.sh', 'f.sh']) expect(rulesAt(j, n), n).toContain(`${n === 'f.sh' ? 1 : 2}:BG1001`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('children take the largest file first; the output stays in command-line order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bashguard-lint-order-'));
    try {
      const sizes = { 'small.sh': 1, 'large.sh': 40, 'medium.sh': 10 };
      for (const [name, n] of Object.entries(sizes)) writeFileSync(join(dir, name), `#!/bin/sh\n${'echo x > /dev/null\n'.repeat(n)}`);
      const files = Object.keys(sizes).map((n) => join(dir, n));
      const r = await lint(['--root', dir, '--format', 'json', '--jobs', '1', ...files], { tty: true });
      const started = [...r.err.matchAll(/\[(\d)\/3\] \S*?(\w+\.sh)/g)].map((m) => `${m[1]}:${m[2]}`);
      expect(started).toEqual(['1:large.sh', '2:medium.sh', '3:small.sh']);
      expect((JSON.parse(r.out) as JsonOut).files.map((f) => f.file.split('/').pop())).toEqual(Object.keys(sizes));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without the files\' sizes, one process per 16 files by default, up to the CPUs and 4; one on a busy machine', async () => {
    const { defaultWorkers } = await import('../../../src/frontends/lint/isolated.js');
    expect([1, 15, 16, 31, 32, 50, 320].map((n) => defaultWorkers(n, 2, 0))).toEqual([1, 1, 1, 1, 2, 2, 2]);
    expect([50, 320].map((n) => defaultWorkers(n, 8, 0))).toEqual([3, 4]);
    expect(defaultWorkers(320, 1, 0)).toBe(1);
    expect([1, 2, 4].map((others) => defaultWorkers(320, 2, others))).toEqual([2, 1, 1]);
  });

  it('with the files\' total size: one process per 80 KiB of work (the bytes and 2 KiB a file), up to the CPUs and 4', async () => {
    const { defaultWorkers } = await import('../../../src/frontends/lint/isolated.js');
    // The measured cases (src/frontends/lint/spawn-worker.ts): a second process paid off from ~90 KB of scripts.
    expect(defaultWorkers(10, 2, 0, 11_168)).toBe(1);
    expect(defaultWorkers(20, 2, 0, 54_572)).toBe(1);
    expect(defaultWorkers(16, 2, 0, 54_730)).toBe(1);
    expect(defaultWorkers(50, 2, 0, 92_932)).toBe(2);
    expect(defaultWorkers(25, 2, 0, 180_356)).toBe(2);
    // A few large files get more than their count would (16 files per process) ...
    expect(defaultWorkers(3, 8, 0, 600_000)).toBe(4);
    // ... many tiny ones fewer.
    expect(defaultWorkers(40, 8, 0, 4_000)).toBe(1);
    expect(defaultWorkers(320, 2, 2, 10_000_000)).toBe(1);
  });

  it('the load read before the entry started its children is what the run decides with (they are runnable while they boot)', async () => {
    const { prestartWorkers, othersBeforePrestart, dropPrestarted } = await import('../../../src/frontends/lint/spawn-worker.js');
    expect(othersBeforePrestart()).toBeNull();
    prestartWorkers(process.env, join(REPO_ROOT, 'test', 'fixtures', 'lint', 'no-such-entry.cjs'), 2, 0);
    try {
      expect(othersBeforePrestart()).toBe(0);
    } finally {
      dropPrestarted();
    }
    expect(othersBeforePrestart()).toBeNull();
  });

  it('othersRunning: the run queue without this process (Linux), a number everywhere', async () => {
    const { othersRunning } = await import('../../../src/frontends/lint/spawn-worker.js');
    const n = othersRunning();
    expect(Number.isFinite(n) && n >= 0).toBe(true);
    if (existsSync('/proc/loadavg')) {
      // A busy loop in a second process is seen as one more runnable process (sampled, as the
      // run queue moves; at least once in 20 tries).
      const { spawn } = await import('node:child_process');
      const busy = spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
      try {
        await new Promise((r) => setTimeout(r, 300));
        let seen = 0;
        for (let i = 0; i < 20 && seen < 1; i++) seen = Math.max(seen, othersRunning());
        expect(seen).toBeGreaterThanOrEqual(1);
      } finally {
        busy.kill('SIGKILL');
      }
    }
  });

  it('--timeout 0 (in this process) and the default (a child process) give the same findings', async () => {
    const files = [join(PROJECT, 'broken.sh'), join(PROJECT, 'tools/deploy')];
    const isolated = JSON.parse((await lint(['--root', PROJECT, '--format', 'json', ...files])).out) as JsonOut;
    const inProcess = JSON.parse((await lint(['--root', PROJECT, '--format', 'json', '--timeout', '0', ...files])).out) as JsonOut;
    expect(isolated.files.map((f) => f.findings)).toEqual(inProcess.files.map((f) => f.findings));
    expect(isolated.files.flatMap((f) => f.findings).length).toBeGreaterThan(2);
  });

  it('the text a child process sends back is only what frames and fingerprints read: same frames, same fingerprints', async () => {
    const files = [join(PROJECT, 'broken.sh'), join(PROJECT, 'tools/deploy')];
    const text = (extra: string[]) => lint(['--root', PROJECT, '--no-color', ...extra, ...files]).then((r) => r.out.replace(/, [\d.]+ s\n?$/, ''));
    const [isolated, inProcess] = [await text([]), await text(['--timeout', '0'])];
    expect(isolated).toBe(inProcess);
    expect(isolated).toMatch(/^ {2}> +\d+ \| /m);
    const { framedSource, fingerprint, frameLines } = await import('../../../src/frontends/lint/lint.js');
    const source = readFileSync(join(PROJECT, 'tools/deploy'), 'utf8');
    const findings = JSON.parse((await lint(['--root', PROJECT, '--format', 'json', '--timeout', '0', join(PROJECT, 'tools/deploy')])).out).files[0].findings as Parameters<typeof fingerprint>[0];
    expect(findings.length).toBeGreaterThan(0);
    const framed = framedSource(source, findings);
    const [all, kept] = [source.split('\n'), framed.split('\n')];
    expect(kept).toHaveLength(all.length);
    const shown = new Set(findings.flatMap((f) => { const w = frameLines(f, all.length)!; return Array.from({ length: w[1] - w[0] + 1 }, (_, i) => w[0] + i); }));
    kept.forEach((line, i) => expect(line).toBe(shown.has(i + 1) ? all[i] : ''));
    expect(fingerprint(structuredClone(findings), framed).map((f) => f.fingerprint)).toEqual(fingerprint(structuredClone(findings), source).map((f) => f.fingerprint));
    expect(framedSource(source, [])).toBe('');
  });

  it('--timeout rejects a bad value with one line, exit 2', async () => {
    const r = await lint(['--timeout', 'soon', join(PROJECT, 'broken.sh')]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/--timeout takes a number of seconds/);
  });

  it('binary files, empty files and huge inputs get a result', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bg-lint-'));
    try {
      writeFileSync(join(dir, 'bin.sh'), Buffer.from([0x23, 0x21, 0, 1, 2, 3]));
      writeFileSync(join(dir, 'empty.sh'), '');
      writeFileSync(join(dir, 'huge.sh'), 'echo x\n'.repeat(200_000));
      const r = await lint(['--format', 'json', dir]);
      const j = JSON.parse(r.out) as JsonOut;
      expect(j.files).toHaveLength(3);
      expect(rulesAt(j, 'bin.sh')).toEqual(['1:BG0001']);
      expect(rulesAt(j, 'empty.sh')).toEqual([]);
      expect(rulesAt(j, 'huge.sh')).toEqual(['1:BG0002']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an invalid .bashguard.json is an error for its files only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bg-lint-'));
    try {
      mkdirSync(join(dir, 'bad'));
      writeFileSync(join(dir, 'bad/.bashguard.json'), '{"nope": 1}');
      writeFileSync(join(dir, 'bad/a.sh'), 'touch x\n');
      mkdirSync(join(dir, 'good'));
      writeFileSync(join(dir, 'good/b.sh'), 'touch /etc/x\n');
      const r = await lint(['--format', 'json', join(dir, 'bad/a.sh'), join(dir, 'good/b.sh')]);
      expect(r.code).toBe(2);
      const j = JSON.parse(r.out) as JsonOut;
      expect(j.files[0]!.error).toMatch(/invalid configuration: .*nope: unknown field/);
      expect(j.files[1]!.findings.map((f) => f.rule)).toEqual(['BG1001']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('lint: stdin', () => {
  it('reads - from stdin, with the root from --root or the cwd', async () => {
    const r = await lint(['--root', PROJECT, '--format', 'json', '-'], { stdin: 'cd /\ntouch etc/passwd\n' });
    const j = JSON.parse(r.out) as JsonOut;
    expect(j.files[0]!.file).toBe('<stdin>');
    expect(rulesAt(j, '<stdin>')).toEqual(['2:BG1001']);
    expect(r.code).toBe(1);
  });

  it('--stdin-filename names the file, picks its root and sets $0', async () => {
    const r = await lint(['--format', 'json', '--stdin-filename', join(PROJECT, 'tools/piped.sh'), '-'], { stdin: 'cd "$(dirname "$0")"/..\necho ok > built.txt\necho no > ../../escape.txt\n', cwd: PROJECT });
    const j = JSON.parse(r.out) as JsonOut;
    expect(j.files[0]!.file).toBe('tools/piped.sh');
    expect(j.files[0]!.root).toBe(CHECKOUT);
    // built.txt lands in the project; ../../escape.txt in test/fixtures, still inside the checkout.
    expect(rulesAt(j, 'tools/piped.sh')).toEqual([]);
  });
});

describe('lint: suppressions', () => {
  const lintStdin = async (src: string, extra: string[] = []) => {
    const r = await lint(['--root', PROJECT, '--format', 'json', ...extra, '-'], { stdin: src });
    return JSON.parse(r.out) as JsonOut;
  };

  it('line and line-before directives, by id or name, with continuation lines', async () => {
    const j = await lintStdin(
      [
        'touch /etc/a # bashguard disable=BG1001',
        '# bashguard disable=write-outside-worktree -- reviewed',
        'touch /etc/b \\',
        '  /etc/c',
        'touch /etc/d',
        '# bashguard disable=all',
        'touch /etc/e',
      ].join('\n'),
    );
    expect(rulesAt(j, '<stdin>')).toEqual(['5:BG1001']);
    expect(j.summary.suppressed).toBe(4);
  });

  it('disable-file, unknown rules and malformed directives', async () => {
    const j = await lintStdin(['touch /etc/a', '# bashguard disable-file=BG1001,BG4242 -- installer', '# bashguard enable=BG1001', '# bashguard disable', 'touch /etc/b'].join('\n'));
    expect(rulesAt(j, '<stdin>')).toEqual(['2:BG0003', '3:BG0003', '4:BG0003']);
    const f = j.files[0]!.findings;
    expect(f[0]!.message).toContain('unknown rule `BG4242`');
    expect(f[0]).toMatchObject({ column: 33, endColumn: 39, severity: 'warning' });
    expect(f[1]!.message).toContain('unknown bashguard directive `enable`');
    expect(f[2]!.message).toContain('needs a rule list');
  });

  it('--report-unused-directives reports each unused rule of a directive', async () => {
    const src = '# bashguard disable=BG1001,BG2001 -- both?\ntouch /etc/a\nls # bashguard disable=BG4002\n';
    expect(rulesAt(await lintStdin(src), '<stdin>')).toEqual([]);
    const j = await lintStdin(src, ['--report-unused-directives']);
    expect(rulesAt(j, '<stdin>')).toEqual(['1:BG0004', '3:BG0004']);
    expect(j.files[0]!.findings[0]!.message).toBe('unused directive: BG2001 reported nothing on line 2');
  });

  it('prose mentioning bashguard is not a directive', () => {
    expect(parseDirectives('# bashguard checks this file\necho "# bashguard disable=BG1001"\n').directives).toHaveLength(0);
  });
});

describe('lint: configuration', () => {
  it('writeRoots, rule severities and ignore globs from .bashguard.json', async () => {
    const r = await lint(['--format', 'json', '--min-confidence', 'possible', '--root', PROJECT, '-', join(PROJECT, 'ignored/skip.sh')], { stdin: 'touch /opt/allowed/x\nsource "$VENV/bin/activate"\n' });
    const j = JSON.parse(r.out) as JsonOut;
    // The ignored file named explicitly is skipped too; BG4003 is raised from info to warning.
    expect(j.files.map((f) => f.file)).toEqual(['<stdin>']);
    expect(j.files[0]!.findings.map((f) => `${f.rule}:${f.severity}`)).toEqual(['BG4003:warning']);
  });

  it('glob matching', () => {
    const m = globMatcher(['vendor/', '*.gen.sh', 'scripts/**/old-*.sh']);
    expect(m('vendor/x.sh')).toBe(true);
    expect(m('a/b/c.gen.sh')).toBe(true);
    expect(m('scripts/a/b/old-x.sh')).toBe(true);
    expect(m('scripts/old-x.sh')).toBe(true);
    expect(m('src/x.sh')).toBe(false);
  });

  it('shebangs', () => {
    for (const s of ['#!/bin/sh', '#!/bin/bash -e', '#! /usr/bin/env bash', '#!/usr/bin/env -S bash -eu', '#!/bin/dash']) expect(isShellShebang(s)).toBe(true);
    for (const s of ['#!/usr/bin/python3', '#!/bin/zsh', '#!/usr/bin/env node', '# not a shebang']) expect(isShellShebang(s)).toBe(false);
  });
});

describe('lint: roots from git layouts', () => {
  let dir = '';
  const git = (cwd: string, ...a: string[]) => execFileSync('git', a, { cwd, stdio: 'pipe', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
  beforeAll(() => {
    // Not in a scratch root (/tmp, /dev/shm), where every write is allowed.
    dir = realpathSync(mkdtempSync(join(layoutBase(), 'bg-lint-git-')));
    mkdirSync(join(dir, 'repo'));
    git(join(dir, 'repo'), 'init', '-q', '-b', 'main');
    writeFileSync(join(dir, 'repo/README'), 'x\n');
    git(join(dir, 'repo'), 'add', '.');
    git(join(dir, 'repo'), 'commit', '-q', '-m', 'init');
    git(join(dir, 'repo'), 'worktree', 'add', '-q', join(dir, 'repo/.builders/b1'));
    git(join(dir, 'repo'), 'worktree', 'add', '-q', join(dir, 'repo/.builders/b2'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a script in a linked worktree: main and siblings are protected', async () => {
    const wt = join(dir, 'repo/.builders/b1');
    writeFileSync(join(wt, 'build.sh'), ['#!/bin/bash', 'cd "$(dirname "$0")"', 'echo ok > out.txt', 'echo bad >> ../../README', 'cp out.txt ../b2/', 'git -C ../.. commit -am x', 'git config user.name x', `echo t > ${dir}/elsewhere`].join('\n'));
    const j = JSON.parse((await lint(['--format', 'json', join(wt, 'build.sh')])).out) as JsonOut;
    expect(j.files[0]!.root).toBe(wt);
    expect(j.files[0]!.rootSource).toBe('linked-worktree');
    expect(rulesAt(j, 'build.sh')).toEqual(['4:BG1002', '5:BG1003', '6:BG2001', '7:BG3001', '8:BG1001']);
  });

  it('a script in a plain checkout: the checkout root; outside any checkout: the script directory', async () => {
    writeFileSync(join(dir, 'repo/setup.sh'), 'mkdir -p build && touch .git/hooks/pre-commit && touch ../x\n');
    const j = JSON.parse((await lint(['--format', 'json', join(dir, 'repo/setup.sh')])).out) as JsonOut;
    expect(j.files[0]).toMatchObject({ root: join(dir, 'repo'), rootSource: 'checkout', cwd: join(dir, 'repo') });
    expect(rulesAt(j, 'setup.sh')).toEqual(['1:BG3002', '1:BG1001']);
    mkdirSync(join(dir, 'loose'));
    writeFileSync(join(dir, 'loose/x.sh'), 'touch here.txt ../there.txt\n');
    const k = JSON.parse((await lint(['--format', 'json', join(dir, 'loose/x.sh')])).out) as JsonOut;
    expect(k.files[0]).toMatchObject({ root: join(dir, 'loose'), rootSource: 'script-dir' });
    expect(k.files[0]!.findings.map((f) => f.message)).toEqual([expect.stringContaining(`${dir}/there.txt`)]);
  });

  it('--cwd sets where the analysis starts', async () => {
    writeFileSync(join(dir, 'repo/rel.sh'), 'touch notes.txt\n');
    const j = JSON.parse((await lint(['--format', 'json', '--cwd', dir, join(dir, 'repo/rel.sh')])).out) as JsonOut;
    expect(j.files[0]!.cwd).toBe(dir);
    expect(rulesAt(j, 'rel.sh')).toEqual(['1:BG1001']);
  });
});

describe('lint: the built CLI', () => {
  it('bin/bashguard.js lint runs (smoke test; needs `npm run build`)', () => {
    let out = '';
    let code = 0;
    try {
      out = execFileSync(process.execPath, [join(REPO_ROOT, 'bin/bashguard.js'), 'lint', '--format', 'github', '--root', PROJECT, join(PROJECT, 'tools/deploy')], { cwd: CHECKOUT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      const e = err as { status: number; stdout: string };
      code = e.status;
      out = e.stdout;
    }
    expect(code).toBe(1);
    expect(out).toMatch(/^::error file=test\/fixtures\/lint\/project\/tools\/deploy,line=3,/);
  });

  // (Node 24 has no v8 binding to set the flags through: there it needs the addon)
  it.skipIf(Number(process.versions.node.split('.')[0]) >= 24 && unless(nativeIO() !== null, 'the lint process on Node 24: its V8 flags go through the addon, which does not load here') !== null)('the lint process loads no Node module after it sets its V8 flags (their embedded code cache would not apply)', () => {
    // A preload that notes which of Node's own modules load after the first V8 flag is set
    // (through bashguard's addon where it is built, else the v8 binding, which Node 20 and 22
    // have: src/runtime/startup/v8-flags.ts).
    const probe = `let at = null;
const mark = () => { if (at === null) at = process.moduleLoadList.length; };
const dlopen = process.dlopen;
process.dlopen = function (m, file, ...rest) {
  const out = dlopen.call(this, m, file, ...rest);
  const ex = m.exports;
  if (typeof ex.setV8Flags === 'function') m.exports = Object.create(ex, { setV8Flags: { value: (f) => { mark(); return ex.setV8Flags(f); } } });
  return out;
};
const binding = process.binding;
process.binding = function (name) {
  const b = binding.call(this, name);
  if (name === 'v8' && !b.__probed) {
    const set = b.setFlagsFromString;
    b.setFlagsFromString = function (f) { mark(); return set.call(this, f); };
    b.__probed = true;
  }
  return b;
};
process.on('exit', () => require('fs').writeSync(2, 'flags set: ' + (at !== null) + '\\nloaded after: ' + (at === null ? '' : process.moduleLoadList.slice(at).filter((m) => m.startsWith('NativeModule ') && m !== 'NativeModule process').join(',')) + '\\n'));
`;
    withProbe('flags', probe, (_dir, lint) => {
      const r = lint(['--format', 'json', '--fail-on', 'none', join(PROJECT, 'escapes.sh')]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toContain('flags set: true');
      expect(r.stderr).toMatch(/^loaded after: $/m);
    });
  });

  it('a run with nothing to fingerprint never loads node:crypto; one with findings fingerprints them, through the addon where it is built', () => {
    // A preload that says at exit whether node:crypto was loaded.
    const probe = "process.on('exit', () => require('fs').writeSync(2, 'crypto loaded: ' + process.moduleLoadList.includes('NativeModule crypto') + '\\nv8 loaded: ' + process.moduleLoadList.includes('NativeModule v8') + '\\n'));\n";
    withProbe('crypto', probe, (dir, lint) => {
      writeFileSync(join(dir, 'clean.sh'), '#!/bin/sh\necho hi\n');
      const run = (file: string) => lint(['--format', 'json', '--fail-on', 'none', file]);
      // (The first run writes the code cache after its training run, whose findings are fingerprinted.)
      run(join(dir, 'clean.sh'));
      const clean = run(join(dir, 'clean.sh'));
      expect((JSON.parse(clean.stdout) as JsonOut).files[0]!.findings).toEqual([]);
      expect(clean.stderr).toContain('crypto loaded: false');
      // The analysis' V8 flags are set through bashguard's addon, or the v8 binding Node 20 and 22
      // still have, not node:v8 (~2 ms; ~1.5 ms on Node 24, where only the addon avoids it).
      if (Number(process.versions.node.split('.')[0]) < 24 || nativeIO() !== null) expect(clean.stderr).toContain('v8 loaded: false');
      const dirty = run(join(PROJECT, 'escapes.sh'));
      const findings = (JSON.parse(dirty.stdout) as JsonOut).files[0]!.findings as unknown as { fingerprint: string }[];
      expect(findings.length).toBeGreaterThan(0);
      expect(findings.every((f) => /^[0-9a-f]{32}$/.test(f.fingerprint))).toBe(true);
      // src/util/sha256.ts: OpenSSL's SHA-256 through bashguard's addon, node:crypto without it.
      expect(dirty.stderr).toContain(`crypto loaded: ${!sha256IsNative()}`);
    });
  });

  it('through pipes, the report is written through the addon without Node\'s streams (node:net never loads), the same bytes as through the streams', () => {
    const probe = "process.on('exit', () => require('fs').writeSync(2, 'net loaded: ' + process.moduleLoadList.includes('NativeModule net') + '\\n'));\n";
    withProbe('direct', probe, (_dir, lint) => {
      const run = (extra: Record<string, string>, format: string) => lint(['--format', format, '--fail-on', 'none', join(PROJECT, 'escapes.sh'), join(PROJECT, 'broken.sh')], extra);
      run({}, 'json'); // (writes the code caches)
      for (const format of ['text', 'json', 'sarif']) {
        const direct = run({}, format);
        const streams = run({ BASHGUARD_NATIVE_IO: '0' }, format);
        expect(direct.status, direct.stderr).toBe(streams.status);
        expect(direct.stdout.length).toBeGreaterThan(100);
        // (SARIF and JSON carry the run's time, and the summary line its seconds, on stdout for
        // text and on stderr otherwise: compare them without it. A run near 5 ms read 0.01 s once
        // and 0.00 s the next.)
        const timeless = (out: string) => out.replace(/"(timeMs|endTimeUtc|startTimeUtc|durationMs)": ?[^,\n}]*/g, '').replace(/, \d+\.\d+ s$/gm, ', N s');
        expect(timeless(direct.stdout), format).toBe(timeless(streams.stdout));
        expect(timeless(direct.stderr.replace(/net loaded: \w+\n/, ''))).toBe(timeless(streams.stderr.replace(/net loaded: \w+\n/, '')));
        expect(streams.stderr).toContain('net loaded: true');
        expect(direct.stderr).toContain(`net loaded: ${nativeIO() === null}`);
      }
    });
  });

  it('lint\'s own entry (only the lint command) answers help and usage errors as the full CLI does', async () => {
    const bin = (args: string[]) => {
      const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/bashguard.js'), 'lint', ...args], { cwd: CHECKOUT, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: '/home/tester', TMPDIR: '/tmp' } });
      return { code: r.status, out: r.stdout, err: r.stderr };
    };
    const cases = [['--help'], [], ['--format', 'bogus', join(PROJECT, 'broken.sh')], ['--no-such-option', 'x.sh'], ['--jobs', 'many', 'x.sh'], [join(CHECKOUT, 'nothing-here')]];
    for (const args of cases) {
      const full = await lint(args);
      const own = bin(args);
      // (The summary line's seconds are the run's own.)
      const secs = (t: string) => t.replace(/\d+\.\d\d s$/m, 'N s');
      expect({ code: own.code, out: secs(own.out), err: own.err }, args.join(' ')).toEqual({ ...full, out: secs(full.out) });
    }
    // The full CLI's help and usage line are in there: the same root program.
    expect(bin(['--help']).out).toMatch(/^Usage: bashguard lint \[options\] <paths\.\.\.>/);
    expect(bin(['--no-such-option', 'x.sh']).err).toContain('(run bashguard --help for usage)');
  });

  it('a report larger than a pipe holds arrives whole: the lint process ends right after writing it, its children without it', () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'bg-lint-big-')));
    try {
      const script = readFileSync(join(PROJECT, 'escapes.sh'), 'utf8');
      const files: string[] = [];
      for (let i = 0; i < 60; i++) {
        files.push(join(dir, `s${i}.sh`));
        writeFileSync(files[i]!, script);
      }
      // A preload records how each process ends: Node's own wind-down emits 'beforeExit', an
      // explicit end does not.
      const ends = join(dir, 'ends.log');
      const preload = join(dir, 'ends.cjs');
      // (The lint process's only: its children end after it, and would race the removal below.)
      writeFileSync(preload, `const fs = require('fs'); const who = process.argv.slice(2).find((a) => !a.startsWith('-')) ?? '?';
if (who === 'lint') process.on('beforeExit', () => fs.appendFileSync(${JSON.stringify(ends)}, 'beforeExit ' + who + '\\n'));
if (who === 'lint') process.on('exit', () => fs.appendFileSync(${JSON.stringify(ends)}, 'exit ' + who + '\\n'));\n`);
      // No code cache: children that write one (a first run in this fresh HOME) do so after the
      // lint process has ended, and would race the removal of this directory below.
      const env = { PATH: process.env.PATH, HOME: dir, TMPDIR: dir, NODE_OPTIONS: `--require ${preload}`, BASHGUARD_CODE_CACHE: '0' };
      // Two children (and the lint process), stdout and stderr through pipes, as a CI runner reads them.
      const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/bashguard.js'), 'lint', '--format', 'json', '--root', dir, '--jobs', '2', ...files], { cwd: dir, env, encoding: 'utf8', maxBuffer: 64 << 20 });
      expect(r.stdout.length).toBeGreaterThan(256 * 1024);
      const j = JSON.parse(r.stdout) as JsonOut;
      expect(j.files).toHaveLength(60);
      const perFile = j.files[0]!.findings.length;
      expect(perFile).toBeGreaterThan(0);
      expect(j.files.every((f) => f.findings.length === perFile)).toBe(true);
      expect(r.status).toBe(1);
      // The summary, whole, and nothing else (the children wrote nothing there).
      expect(r.stderr).toMatch(new RegExp(`^bashguard: 60 files linted, ${60 * perFile} findings \\([^)]*\\)[^\\n]* s\\n$`));
      // The lint process ended once the report was written, although a pipe cannot take it in one
      // write: not by waiting for its event loop (its children's exit, a kill timer) to run dry.
      const log = readFileSync(ends, 'utf8');
      expect(log).toMatch(/^exit lint$/m);
      expect(log).not.toMatch(/^beforeExit lint$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
    }
  });

  it('the child the entry starts before loading the CLI gives the findings of an in-process run, on every file', () => {
    const files = [join(PROJECT, 'broken.sh'), join(PROJECT, 'tools/deploy'), join(PROJECT, 'broken.sh')];
    const bin = (extra: string[]) => {
      try {
        return execFileSync(process.execPath, [join(REPO_ROOT, 'bin/bashguard.js'), 'lint', '--format', 'json', '--root', PROJECT, ...extra, ...files], { cwd: CHECKOUT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (err) {
        return (err as { stdout: string }).stdout;
      }
    };
    const strip = (j: JsonOut) => j.files.map((f) => ({ file: f.file, findings: f.findings }));
    const children = JSON.parse(bin(['--jobs', '2'])) as JsonOut;
    const inProcess = JSON.parse(bin(['--timeout', '0'])) as JsonOut;
    expect(strip(children)).toEqual(strip(inProcess));
    expect(children.files.flatMap((f) => f.findings).length).toBeGreaterThan(2);
  });

  it('LineSplitter: lines split across chunks, inside a UTF-8 character, or several in one chunk', async () => {
    const { LineSplitter } = await import('../../../src/frontends/lint/spawn-worker.js');
    const text = '{"a":"é€"}\n{"b":1}\n{"c":"x"}\n';
    const bytes = Buffer.from(text, 'utf8');
    for (let size = 1; size <= bytes.length; size++) {
      const l = new LineSplitter();
      const reused = Buffer.alloc(size);
      const got: string[] = [];
      for (let i = 0; i < bytes.length; i += size) {
        const n = bytes.copy(reused, 0, i, i + size);
        got.push(...l.push(reused.subarray(0, n)));
      }
      expect(got, `chunks of ${size}`).toEqual(['{"a":"é€"}', '{"b":1}', '{"c":"x"}']);
    }
  });

  it('prestartCount: the entry starts as many children early as the run will use', async () => {
    const { prestartCount } = await import('../../../src/frontends/lint/spawn-worker.js');
    const perSixteen = (files: number) => Math.max(1, Math.min(2, Math.floor(files / 16)));
    const many = Array.from({ length: 40 }, (_, i) => `f${i}.sh`);
    expect(prestartCount(['a.sh'], perSixteen)).toBe(1);
    expect(prestartCount(many, perSixteen)).toBe(2);
    expect(prestartCount(['--format', 'json', '--no-progress', ...many.slice(0, 3)], perSixteen)).toBe(1);
    expect(prestartCount(['--jobs', '3', ...many], perSixteen)).toBe(3);
    expect(prestartCount(['-j', '8', 'a.sh', 'b.sh'], perSixteen)).toBe(2);
    expect(prestartCount(['--timeout', '5', 'a.sh'], perSixteen)).toBe(1);
    expect(prestartCount(['--timeout', '0', ...many], perSixteen)).toBe(0);
    expect(prestartCount(['--timeout=0', 'a.sh'], perSixteen)).toBe(0);
    expect(prestartCount(['--help'], perSixteen)).toBe(0);
    expect(prestartCount(['--format', 'json'], perSixteen)).toBe(0);
    expect(prestartCount(['--', '--help'], perSixteen)).toBe(1);
  });
});

describe('lint: --cwd script', () => {
  it('starts each script in its own directory instead of the root', async () => {
    const dir = realpathSync(mkdtempSync(join(layoutBase(), 'bg-lint-cwd-')));
    try {
      execFileSync('git', ['init', '-q', dir]);
      mkdirSync(join(dir, 'tests', 'unit'), { recursive: true });
      writeFileSync(join(dir, 'tests', 'unit', 't.sh'), '#!/bin/sh\necho x > ../fixtures/out\n');
      const fromRoot = JSON.parse((await lint(['--format', 'json', join(dir, 'tests')])).out) as JsonOut;
      expect(fromRoot.files[0]!.findings.map((f) => f.rule)).toEqual(['BG1001']);
      const fromScript = JSON.parse((await lint(['--format', 'json', '--cwd', 'script', join(dir, 'tests')])).out) as JsonOut;
      expect(fromScript.files[0]!.cwd).toBe(join(dir, 'tests', 'unit'));
      expect(fromScript.files[0]!.findings).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('lint: nested code is parsed once per run', () => {
  it('a library two scripts source is parsed once, and both get its findings', async () => {
    const { Linter } = await import('../../../src/frontends/lint/lint.js');
    const { getParser } = await import('../../../src/engine/parse/index.js');
    const real = await getParser();
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'bg-lint-cache-')));
    try {
      const lib = '# a library\nsetup() { touch /etc/bg-lint-cache-test; }\n';
      writeFileSync(join(dir, 'lib.sh'), lib);
      for (const s of ['a.sh', 'b.sh']) writeFileSync(join(dir, s), `#!/bin/sh\n. "$(dirname "$0")/lib.sh"\nsetup\n`);
      const parsed: string[] = [];
      const counting = { backend: real.backend, fallbackReason: real.fallbackReason, parse: (s: string, l?: object) => (parsed.push(s), real.parse(s, l)) };
      const opts = { env: { HOME: '/root' }, noConfig: true };
      const cached = new Linter(counting, opts, dir);
      const a = cached.lintFile(join(dir, 'a.sh'), 'a.sh');
      const b = cached.lintFile(join(dir, 'b.sh'), 'b.sh');
      expect(parsed.filter((s) => s === lib)).toHaveLength(1);
      // The script itself is parsed each time, never taken from the cache.
      expect(parsed).toHaveLength(3);
      const fresh = new Linter(real, opts, dir).lintFile(join(dir, 'b.sh'), 'b.sh');
      expect(b.findings.map((f) => [f.rule, f.line, f.target])).toEqual([['BG1001', 2, '/etc/bg-lint-cache-test']]);
      expect(b.findings).toEqual(fresh.findings);
      expect(a.findings.map((f) => f.rule)).toEqual(['BG1001']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
