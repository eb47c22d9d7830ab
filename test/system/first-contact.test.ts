/**
 * First contact (issue 17): bad paths and bad input get one line on stderr and exit 2, the CLI's
 * front door behaves like other CLIs (usage on stderr, -v), the demo runs its commands for real
 * and reports what happened, and what the packed tarball ships.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type Ran } from '../helpers/memory-io.js';
import { REPO_ROOT } from '../helpers/shared.js';
import { makeGitLayout } from '../helpers/git-layout.js';


function cli(argv: string[], opts: { cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<Ran> {
  return runCli(argv, { env: { PATH: process.env.PATH, HOME: '/home/tester', ...opts.env }, cwd: opts.cwd ?? REPO_ROOT });
}

/** Exit 2 with exactly one line on stderr matching `message`, nothing on stdout. */
function usageError(r: Ran, message: RegExp): void {
  expect(r.code, r.err).toBe(2);
  expect(r.out).toBe('');
  expect(r.err.endsWith('\n')).toBe(true);
  expect(r.err.trimEnd().split('\n'), r.err).toHaveLength(1);
  expect(r.err).toMatch(message);
  expect(r.err).not.toMatch(/internal error/);
}

const scratch = mkdtempSync(join(tmpdir(), 'bg-first-contact-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('bad paths and bad input: one line, exit 2', () => {
  it('check --cwd /nonexistent', async () => {
    usageError(await cli(['check', '--cwd', '/nonexistent', 'touch x']), /^bashguard: --cwd \/nonexistent: no such directory$/m);
  });

  it('explain --cwd on a file', async () => {
    usageError(await cli(['explain', '--cwd', 'package.json', 'touch x']), /^bashguard: --cwd package\.json: not a directory$/m);
  });

  it('corpus add --cwd outside the standard scenario', async () => {
    const file = join(scratch, 'cwd.yaml');
    usageError(await cli(['corpus', 'add', '--expect', 'deny', '--file', file, '--cwd', '/nonexistent', 'touch x']), /^bashguard: --cwd \/nonexistent: not a directory of the standard scenario/m);
    expect(existsSync(file)).toBe(false);
  });

  it('corpus add with an empty command, or an unknown --tool', async () => {
    const file = join(scratch, 'bad.yaml');
    usageError(await cli(['corpus', 'add', '--expect', 'deny', '--file', file, '']), /^bashguard: the command: must be a non-empty string$/m);
    usageError(await cli(['corpus', 'add', '--expect', 'deny', '--file', file, '--tool', 'Foo', 'x']), /^bashguard: --tool: must be one of Bash, Edit, Write, MultiEdit, NotebookEdit$/m);
    expect(existsSync(file)).toBe(false);
  });

  it('corpus check of a file that does not exist', async () => {
    usageError(await cli(['corpus', 'check', 'corpus/nosuch.yaml']), /^bashguard: cannot read .*corpus\/nosuch\.yaml: no such file$/m);
  });

  it('demo with a TMPDIR it cannot use', async () => {
    const old = process.env.TMPDIR;
    process.env.TMPDIR = '/nonexistent'; // os.tmpdir() reads the process environment
    try {
      usageError(await cli(['demo'], { env: { TMPDIR: '/nonexistent' } }), /^bashguard: demo: cannot create a scratch directory in \/nonexistent \(no such file or directory; set TMPDIR/m);
    } finally {
      if (old === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = old;
    }
  });
});

describe('the front door', () => {
  it('bare `bashguard` prints the usage on stderr and exits 2', async () => {
    const r = await cli([]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^Usage: bashguard \[options\] \[command\]/);
    expect(r.err).toContain('check [options] [command]');
  });

  it('-v, --version and -V print the version', async () => {
    const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    for (const flag of ['-v', '--version', '-V']) {
      const r = await cli([flag]);
      expect(r.code, flag).toBe(0);
      expect(r.out, flag).toBe(`${version}\n`);
    }
  });

  it('explain names each write once (no "write write")', async () => {
    const r = await cli(['explain', 'echo hi > /etc/x; echo hi >> /etc/y']);
    expect(r.out).toMatch(/^ {2}write \/etc\/x \[certain\] by >/m);
    expect(r.out).toMatch(/^ {2}append \/etc\/y \[certain\] by >>/m);
    expect(r.out).not.toMatch(/write write|write append/);
  });
});

describe('install says what it did', () => {
  it('installed, already installed, moved, updated', async () => {
    const layout = makeGitLayout('bg-install-msg-');
    try {
      const settings = join(layout.worktree, '.claude', 'settings.json');
      const opts = { cwd: layout.worktree };
      // In a linked worktree a bare `install` refuses, saying where each choice reaches; --project writes the worktree's file.
      const refused = await cli(['install'], opts);
      expect(refused.code).toBe(2);
      expect(refused.err).toMatch(/^bashguard: this is the linked worktree .* read only by sessions in this worktree: NOT by the main checkout .*`bashguard install --user` covers every checkout .*; pass --project to write the worktree's file anyway\.\n$/);
      expect(existsSync(settings)).toBe(false);
      const first = await cli(['install', '--project'], opts);
      expect(first.out).toMatch(/^bashguard hook installed in /);
      expect(first.err).toMatch(/^bashguard: note: this is the linked worktree /);
      expect((await cli(['install', '--project'], opts)).out).toMatch(/^bashguard hook already installed in /);
      // Another hook entry after ours: install moves ours to the end, and says so.
      const s = JSON.parse(readFileSync(settings, 'utf8')) as { hooks: { PreToolUse: unknown[] } };
      s.hooks.PreToolUse.push({ matcher: 'Bash', hooks: [{ type: 'command', command: 'other-hook' }] });
      writeFileSync(settings, JSON.stringify(s));
      const moved = await cli(['install', '--project'], opts);
      expect(moved.out).toMatch(/^bashguard hook was already installed; moved its entry to its own PreToolUse entry at the end in /);
      expect(moved.out).not.toMatch(/^bashguard hook installed/);
      // An older command: install updates it, and says from what to what.
      const t = JSON.parse(readFileSync(settings, 'utf8')) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } };
      const ours = t.hooks.PreToolUse.flatMap((e) => e.hooks).filter((h) => h.command.includes('bashguard-hook'));
      expect(ours).toHaveLength(1);
      ours[0]!.command = '/old/bin/bashguard-hook';
      writeFileSync(settings, JSON.stringify(t));
      expect((await cli(['install', '--project'], opts)).out).toMatch(/^updated the bashguard hook \(command "\/old\/bin\/bashguard-hook" -> "/);
    } finally {
      layout.cleanup();
    }
  });
});

describe('demo', () => {
  it('runs every call for real and shows what each changed, on one screen (<= 24 lines, <= 80 columns)', async () => {
    const r = await cli(['demo'], { env: { TMPDIR: tmpdir() } });
    expect(r.code, r.err).toBe(0);
    const lines = r.out.replace(/\n$/, '').split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
    // Paths are shortened to the names the header defines.
    const main = /^ {2}<main> = (\S+)/m.exec(r.out)?.[1];
    expect(main).toBeDefined();
    expect(r.out.split(main!).length - 1).toBe(1);
    const calls = lines.filter((l) => /^(ALLOW|ASK|DENY) /.test(l));
    expect(new Set(calls.map((l) => l.split(' ')[0]))).toEqual(new Set(['ALLOW', 'ASK', 'DENY']));
    // A call's result is on its line, or on the next one when the command is long.
    const result = (l: string) => {
      const i = lines.indexOf(l);
      return / (BG\d{4}|-) {1,6}\S/.test(l) ? l : lines[i + 1]!;
    };
    for (const l of calls) expect(result(l)).toMatch(/(BG\d{4}|-) +\S/);
    const denied = calls.filter((l) => l.startsWith('DENY'));
    expect(denied.length).toBeGreaterThan(3);
    for (const l of denied) expect(result(l)).toMatch(/BG\d{4} +<main>/);
    expect(result(calls.find((l) => l.startsWith('ASK'))!)).toMatch(/BG4001 +<main>\/README\.md/);
    expect(r.out).toMatch(/- +<wt>\/README\.md, <wt> HEAD/);
    expect(r.out).not.toContain('MISSED');
    const flat = lines.join(' ');
    const escapes = calls.filter((l) => / <main>/.test(result(l).slice(48))).length;
    expect(flat).toContain(`${calls.length} calls run for real: ${escapes} changed <main>, bashguard stopped ${escapes}`);
    expect(flat).toMatch(/(\d+) of the \1 that stayed in <wt> or <tmp> were allowed\./);
    // Nothing is left behind.
    expect(existsSync(main!)).toBe(false);
  }, 60_000);
});

describe('the packed tarball', () => {
  const files = (() => {
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO_ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm pack --dry-run failed: ${r.stderr}`);
    return new Set((JSON.parse(r.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path));
  })();

  it('ships LICENSE (MIT), the bin, the bundles, the grammar and the Landlock sources, and no grammar build header', () => {
    expect(files.has('LICENSE')).toBe(true);
    expect(readFileSync(join(REPO_ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) 2026 the bashguard authors\n/);
    for (const f of ['bin/bashguard.js', 'bin/bashguard-hook', 'dist/bashguard.js', 'dist/api.js', 'dist/hook.cjs', 'grammars/tree-sitter-bash.wasm', 'native/landlock-exec.c', 'native/landlock-builtin.c', 'native/landlock-core.h', 'native/mounts-core.h', 'native/reserve-core.h', 'native/seccomp-core.h', 'prebuilds/linux-x64/bashguard-landlock', 'prebuilds/linux-x64/bashguard-landlock.so', 'prebuilds/linux-x64/SOURCES.landlock']) expect(files.has(f), f).toBe(true);
    // (the helper's and the builtin's shared cores are the only headers: they are built at install where no prebuilt one fits)
    expect([...files].filter((f) => (f.endsWith('.h') && !['native/landlock-core.h', 'native/mounts-core.h', 'native/reserve-core.h', 'native/seccomp-core.h'].includes(f)) || f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
  });

  it('declares its types, and the declaration build writes them where package.json says', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { types: string; exports: { '.': { types: string; default: string } }; files: string[] };
    expect(pkg.exports['.'].types).toBe(`./${pkg.types}`);
    const build = JSON.parse(readFileSync(join(REPO_ROOT, 'tsconfig.build.json'), 'utf8')) as { compilerOptions: { outDir: string; rootDir: string } };
    expect(normalize(join(build.compilerOptions.outDir, 'api.d.ts'))).toBe(pkg.types);
    expect(pkg.files).toContain(pkg.types.split('/')[0]);
  });

  it('every relative link in a packed Markdown file points at a packed file', () => {
    const broken: string[] = [];
    for (const f of files) {
      if (!f.endsWith('.md')) continue;
      const text = readFileSync(join(REPO_ROOT, f), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!.split('#')[0]!;
        if (!target || /^[a-z]+:/.test(target)) continue;
        const path = normalize(join(dirname(f), target));
        if (!files.has(path) && ![...files].some((p) => p.startsWith(path + '/'))) broken.push(`${f} -> ${m[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('.pre-commit-hooks.yaml', () => {
  it('runs the installed bashguard on shell files, and the docs show no placeholder', () => {
    const hooks = readFileSync(join(REPO_ROOT, '.pre-commit-hooks.yaml'), 'utf8');
    expect(hooks).toMatch(/^ {2}entry: bashguard lint /m);
    expect(hooks).toMatch(/^ {2}language: node$/m);
    expect(readFileSync(join(REPO_ROOT, 'docs', 'lint.md'), 'utf8')).not.toMatch(/<this repository's URL>|rev: v0\.1\.0/);
  });
});
