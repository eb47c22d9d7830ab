/**
 * `bashguard lint` as a CI user adopts it (issues #18 and #17): what fails a build, baselines,
 * configuration that fits scripts, the linters' usual flags and formats, and bad input.
 * Every test writes its own small scripts in a scratch directory.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type Ran } from '../../helpers/memory-io.js';
import { layoutBase } from '../../helpers/git-layout.js';


let dir: string;
let home: string;

function lint(args: string[], opts: { stdin?: string; env?: Record<string, string> } = {}): Promise<Ran> {
  return runCli(['lint', '--timeout', '0', ...args], { env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...opts.env }, cwd: dir, stdin: opts.stdin });
}

const write = (rel: string, text: string) => {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
};

interface JsonOut {
  summary: { errors: number; warnings: number; infos: number };
  files: { file: string; findings: { rule: string; severity: string; confidence: string; line: number; fingerprint?: string }[] }[];
}
const json = (r: Ran) => JSON.parse(r.out) as JsonOut;
const rules = (r: Ran) => json(r).files.flatMap((f) => f.findings.map((x) => `${f.file}:${x.line}:${x.rule}:${x.severity}`));

beforeAll(() => {
  // Outside the scratch roots, so "outside the root" findings are not hidden by /tmp.
  dir = realpathSync(mkdtempSync(join(layoutBase(), 'bg-lint-ci-')));
  home = join(dir, '.home');
  mkdirSync(home);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('what fails a build', () => {
  it('only certain and likely findings fail by default; possible ones are notes', async () => {
    write('a/x.sh', 'touch /etc/motd\nrm -rf "$UNKNOWN/cache"\n');
    const r = await lint(['--format', 'json', 'a']);
    expect(rules(r)).toEqual(['a/x.sh:1:BG1001:error', 'a/x.sh:2:BG4001:info']);
    expect(r.code).toBe(1);
    write('a/x.sh', 'rm -rf "$UNKNOWN/cache"\n');
    const notes = await lint(['--format', 'json', 'a']);
    expect(rules(notes)).toEqual(['a/x.sh:1:BG4001:info']);
    expect(notes.code).toBe(0);
    const strict = await lint(['--format', 'json', '--min-confidence', 'possible', 'a']);
    expect(rules(strict)).toEqual(['a/x.sh:1:BG4001:error']);
    expect(strict.code).toBe(1);
  });

  it('unreachable code is an info note with its reason: it never fails the build, and a directive silences it', async () => {
    write('u/x.sh', 'die() { echo "$*" >&2; exit 1; }\n[ -n "${CI:-}" ] || echo local\ndie stop\ntouch /etc/motd\n');
    const r = await lint(['--format', 'json', 'u']);
    expect(rules(r)).toEqual(['u/x.sh:4:BG0005:info']);
    expect(r.code).toBe(0);
    const text = await lint(['--notes', 'u']);
    expect(text.out).toContain('unreachable: `die` (line 1) exits on every path (called on line 3)');
    write('u/x.sh', 'die() { echo "$*" >&2; exit 1; }\ndie stop\n# bashguard disable=BG0005 -- kept for reference\ntouch /etc/motd\n');
    expect(rules(await lint(['--format', 'json', 'u']))).toEqual([]);
  });

  it('--max-warnings N fails on more than N warnings', async () => {
    write('w/x.sh', '# bashguard disabel=BG1001\necho ok\n');
    const r = await lint(['--format', 'json', 'w']);
    expect(rules(r)).toEqual(['w/x.sh:1:BG0003:warning']);
    expect(r.code).toBe(0);
    expect((await lint(['--max-warnings', '1', 'w'])).code).toBe(0);
    expect((await lint(['--max-warnings', '0', 'w'])).code).toBe(1);
  });

  it('a misspelt directive is a warning that says what was meant', async () => {
    write('w/x.sh', '# bashguard disabel=BG1001\necho ok\n');
    const r = await lint(['w']);
    expect(r.out).toContain('unknown bashguard directive `disabel` (did you mean `disable`?)');
  });
});

describe('baselines: start from a passing build', () => {
  it('existing findings are accepted, by fingerprint not line; new ones fail', async () => {
    write('b/x.sh', 'touch /etc/one\ntouch /etc/two\n');
    const base = join(dir, 'baseline.json');
    const w = await lint(['--baseline-write', base, 'b']);
    expect(w.code).toBe(0);
    expect(JSON.parse(readFileSync(base, 'utf8')).findings).toHaveLength(2);
    // Lines move, the code stays: still accepted.
    write('b/x.sh', '# a header\n\ntouch /etc/one\ntouch /etc/two\n');
    const same = await lint(['--format', 'json', '--baseline', base, 'b']);
    expect(rules(same)).toEqual([]);
    expect(same.code).toBe(0);
    // A new finding (and a second copy of an old line) fails.
    write('b/x.sh', 'touch /etc/one\ntouch /etc/two\ntouch /etc/three\ntouch /etc/one\n');
    const more = await lint(['--format', 'json', '--baseline', base, 'b']);
    expect(rules(more)).toEqual(['b/x.sh:3:BG1001:error', 'b/x.sh:4:BG1001:error']);
    expect(more.code).toBe(1);
    const text = await lint(['--baseline', base, 'b']);
    expect(text.out).toMatch(/2 in the baseline/);
  });

  it('SARIF carries the same fingerprint as partialFingerprints', async () => {
    write('b/x.sh', 'touch /etc/one\n');
    const j = json(await lint(['--format', 'json', 'b']));
    const s = JSON.parse((await lint(['--format', 'sarif', 'b'])).out);
    expect(s.runs[0].results[0].partialFingerprints['bashguardFingerprint/v1']).toBe(j.files[0]!.findings[0]!.fingerprint);
    expect(j.files[0]!.findings[0]!.fingerprint).toMatch(/^[0-9a-f]{32}$/);
  });

  it('a missing or foreign baseline is a one-line error, exit 2', async () => {
    const r = await lint(['--baseline', join(dir, 'nope.json'), 'b']);
    expect(r.code).toBe(2);
    expect(r.err.trim()).toMatch(/^bashguard: --baseline .*nope\.json: cannot read \(ENOENT\)$/);
    write('foreign.json', '{"runs": []}');
    expect((await lint(['--baseline', join(dir, 'foreign.json'), 'b'])).err).toMatch(/not a bashguard baseline/);
  });
});

describe('configuration that fits scripts', () => {
  it('writeRoots expand ~ and $HOME (an installer writing ~/bin)', async () => {
    write('c/install.sh', 'mkdir -p "$HOME/bin" && cp tool ~/bin/tool\n');
    expect(rules(await lint(['--format', 'json', '--root', join(dir, 'c'), 'c']))).toEqual(['c/install.sh:1:BG1001:error', 'c/install.sh:1:BG1001:error']);
    write('c/.bashguard.json', JSON.stringify({ writeRoots: ['~/bin'] }));
    expect(rules(await lint(['--format', 'json', '--root', join(dir, 'c'), 'c']))).toEqual([]);
    rmSync(join(dir, 'c/.bashguard.json'));
  });

  it('per-glob overrides: cwd script for tests, write roots for installers; --norc ignores them', async () => {
    write('d/test/t.sh', 'cd .. && touch ok\n');
    write('d/install-x.sh', 'touch /opt/x/bin\n');
    write('d/.bashguard.json', JSON.stringify({ overrides: [{ files: ['test/**'], cwd: 'script' }, { files: ['install*.sh'], writeRoots: ['/opt/x'] }] }));
    expect(rules(await lint(['--format', 'json', '--root', join(dir, 'd'), 'd']))).toEqual([]);
    const norc = await lint(['--format', 'json', '--norc', '--root', join(dir, 'd'), 'd']);
    expect(rules(norc)).toEqual(['d/install-x.sh:1:BG1001:error', 'd/test/t.sh:1:BG1001:error']);
  });

  it('a .bashguard.json below the root applies to its scripts (nearest last)', async () => {
    write('e/.bashguard.json', JSON.stringify({ rules: { BG1001: 'warning' } }));
    write('e/sub/.bashguard.json', JSON.stringify({ rules: { BG1001: 'error' } }));
    write('e/top.sh', 'touch /etc/a\n');
    write('e/sub/deep.sh', 'touch /etc/b\n');
    expect(rules(await lint(['--format', 'json', '--root', join(dir, 'e'), 'e']))).toEqual(['e/sub/deep.sh:1:BG1001:error', 'e/top.sh:1:BG1001:warning']);
  });

  it('a checkout cloned under a scratch root does not hide writes into its own parent', async () => {
    const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'bg-ci-clone-')));
    try {
      const repo = join(scratch, 'repo');
      mkdirSync(repo);
      execFileSync('git', ['init', '-q', repo]);
      writeFileSync(join(repo, 'build.sh'), 'touch ../leak.txt\ntouch out.txt\nT=$(mktemp -d) && touch "$T/x"\n');
      const r = await lint(['--format', 'json', join(repo, 'build.sh')]);
      expect(json(r).files[0]!.findings.map((f) => `${f.line}:${f.rule}`)).toEqual(['1:BG1001']);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe("the linters' usual flags and formats", () => {
  beforeAll(() => {
    write('f/x.sh', 'touch /etc/a\ngit -C /etc config user.name x\n# bashguard disable=nosuchrule\necho\n');
  });

  it('-e excludes and -i includes rules (ids or names)', async () => {
    const all = rules(await lint(['--format', 'json', 'f']));
    expect(all.some((x) => x.includes('BG1001'))).toBe(true);
    expect(all.some((x) => x.includes('BG0003'))).toBe(true);
    const noWrite = rules(await lint(['--format', 'json', '-e', 'write-outside-worktree', 'f']));
    expect(noWrite.some((x) => x.includes('BG1001'))).toBe(false);
    expect(rules(await lint(['--format', 'json', '-i', 'BG0003', 'f']))).toEqual(['f/x.sh:3:BG0003:warning']);
    const bad = await lint(['-e', 'BG9999', 'f']);
    expect(bad.code).toBe(2);
    expect(bad.err.trim()).toBe('bashguard: --exclude: unknown rule BG9999 (run `bashguard rules` for the list)');
  });

  it("agent control files (BG1005) are the hook's business: off in lint unless the config or -i asks", async () => {
    write('k/x.sh', 'tar -xf "$1" -C .\necho "{}" > .claude/settings.json\ntouch /etc/k\n');
    const byDefault = rules(await lint(['--format', 'json', 'k']));
    expect(byDefault).toEqual(['k/x.sh:3:BG1001:error']);
    const asked = rules(await lint(['--format', 'json', '-i', 'write-to-protected-file', 'k']));
    expect(asked).toContain('k/x.sh:2:BG1005:error');
    expect(asked.some((x) => x.startsWith('k/x.sh:1:BG1005:'))).toBe(true);
    expect(asked.some((x) => x.includes('BG1001'))).toBe(false);
    write('k/.bashguard.json', JSON.stringify({ rules: { BG1005: 'warning' } }));
    try {
      const configured = rules(await lint(['--format', 'json', 'k']));
      expect(configured).toContain('k/x.sh:2:BG1005:warning');
      expect(configured).toContain('k/x.sh:3:BG1001:error');
    } finally {
      rmSync(join(dir, 'k/.bashguard.json'));
    }
  });

  it('-S filters what is printed, and the exit code follows what is printed', async () => {
    const errorsOnly = await lint(['--format', 'json', '-S', 'error', 'f']);
    expect(rules(errorsOnly).every((x) => x.endsWith(':error'))).toBe(true);
    expect(rules(errorsOnly).length).toBeGreaterThan(0);
    write('g/x.sh', '# bashguard disable=nosuchrule\necho\n');
    const r = await lint(['-S', 'error', '--fail-on', 'warning', 'g']);
    expect(r.out).not.toContain('BG0003');
    expect(r.code).toBe(0);
  });

  it('gcc and checkstyle formats', async () => {
    const gcc = await lint(['--format', 'gcc', 'f']);
    expect(gcc.out).toMatch(/^f\/x\.sh:1:1: error: `touch` writes \/etc\/a, .* \[BG1001\]$/m);
    const cs = await lint(['--format', 'checkstyle', 'f']);
    expect(cs.out).toMatch(/^<\?xml version='1\.0' encoding='UTF-8'\?>\n<checkstyle version='4\.3'>\n<file name='f\/x\.sh'>/);
    expect(cs.out).toContain("severity='error' message='`touch` writes /etc/a");
    expect(cs.out).toContain("source='bashguard.BG1001' />");
    expect(cs.out.trimEnd().endsWith('</checkstyle>')).toBe(true);
  });

  it('text output ends with where each rule is documented', async () => {
    const r = await lint(['f']);
    expect(r.out).toMatch(/For more information:\n  bashguard rules BG0003 \(docs\/rules\.md#bg0003-unknown-directive\) -- /);
    expect(r.out).toMatch(/  bashguard rules BG1001 \(docs\/rules\.md#bg1001-write-outside-worktree\) -- /);
  });

  it('github annotations are one short line each: no evidence chain', async () => {
    const r = await lint(['--format', 'github', 'f']);
    for (const l of r.out.trim().split('\n')) {
      expect(l).not.toContain('%0A');
      expect(l).toMatch(/\(\w+; bashguard rules BG\d{4}\)$/);
    }
  });
});

describe('bad input: one line, exit 2', () => {
  it.each([
    [['--root', '/nonexistent', 'f'], 'bashguard: --root /nonexistent: no such directory'],
    [['--cwd', '/nonexistent', 'f'], 'bashguard: --cwd /nonexistent: no such directory'],
    [['--min-confidence', 'sure', 'f'], 'bashguard: --min-confidence must be certain, likely or possible (got sure)'],
    [['--max-warnings', 'x', 'f'], 'bashguard: --max-warnings takes a whole number (got x)'],
  ])('%j', async (args, message) => {
    const r = await lint(args as string[]);
    expect(r.code).toBe(2);
    expect(r.err.trim()).toBe(message);
  });

  it('a directory with no shell scripts is an error, as in ESLint and ShellCheck', async () => {
    mkdirSync(join(dir, 'empty'), { recursive: true });
    write('empty/readme.txt', 'hi\n');
    const r = await lint(['empty']);
    expect(r.code).toBe(2);
    expect(r.err.trim()).toBe('bashguard: lint: no shell scripts found in empty (*.sh, *.bash, or a sh/bash shebang; or all of them are ignored)');
  });
});
