/**
 * One flag convention (issue 49): every subcommand with output takes `-f, --format text|json`,
 * `--json` and `-q`; `-f` means --format wherever it exists (check's and explain's file is
 * `--file`, long only). Checked on the program's own definitions and by running the commands.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { runCli } from '../../helpers/memory-io.js';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { defineProgram } from '../../../src/frontends/cli/program.js';
import { REPO_ROOT } from '../../helpers/shared.js';

/** Their output is not bashguard's: the hook's answer (its client's protocol), the sandboxed command's own. */
const OUTPUT_NOT_OURS = ['hook', 'sandbox run'];

let layout: GitLayout;
let home: string;
beforeAll(() => {
  layout = makeGitLayout('bg-flags-');
  home = join(layout.root, 'home');
  mkdirSync(home);
});
afterAll(() => layout?.cleanup());

const cli = (argv: string[]) => runCli(argv, { env: { HOME: home, PATH: '/usr/bin:/bin' }, cwd: layout.worktree });

function leaves(c: Command, path: string[] = []): [string, Command][] {
  const visible = c.commands.filter((s) => !s.name().startsWith('__'));
  if (visible.length === 0) return [[path.join(' '), c]];
  return visible.flatMap((s) => leaves(s, [...path, s.name()]));
}

describe('the definitions', () => {
  it('every subcommand but the hook has -f/--format, --json and -q', async () => {
    const { program } = await defineProgram({ stdout: () => undefined, stderr: () => undefined, readStdin: async () => '', env: {}, cwd: '/', isTTY: false });
    const all = leaves(program).filter(([name]) => !OUTPUT_NOT_OURS.includes(name));
    expect(all.map(([n]) => n)).toEqual(expect.arrayContaining(['doctor', 'install', 'uninstall', 'demo', 'corpus add', 'corpus check', 'lint', 'check']));
    for (const [name, c] of all) {
      const flags = c.options.map((o) => o.flags);
      expect(flags, name).toContain('--json');
      expect(c.options.find((o) => o.long === '--format')?.short, name).toBe('-f');
      expect(c.options.find((o) => o.long === '--quiet')?.short, name).toBe('-q');
      // -f is --format and nothing else.
      expect(c.options.filter((o) => o.short === '-f').map((o) => o.long), name).toEqual(['--format']);
    }
  });
});

describe('running them', () => {
  it.each([
    ['install', ['install', '--user']],
    ['uninstall', ['uninstall', '--user']],
    ['doctor', ['doctor']],
    ['corpus check', ['corpus', 'check', join(REPO_ROOT, 'corpus', 'false-alarms.yaml')]],
  ])('%s: --json and -f json print the same one JSON document', async (_n, argv) => {
    const a = await cli([...argv, '--json']);
    const b = await cli([...argv, '-f', 'json']);
    expect(a.code).toBe(b.code);
    expect(() => JSON.parse(a.out)).not.toThrow();
    // install's second run says "already installed": compare the shape, not the words.
    expect(Object.keys(JSON.parse(a.out))).toEqual(Object.keys(JSON.parse(b.out)));
  });

  it('install --json gives the exit code and the lines', async () => {
    const r = await cli(['install', '--user', '--json']);
    const j = JSON.parse(r.out) as { exitCode: number; lines: string[] };
    expect(j.exitCode).toBe(r.code);
    expect(j.lines[0]).toMatch(/^bashguard hook (already )?installed in /);
  });

  it('doctor --json lists its checks', async () => {
    const r = await cli(['doctor', '--json']);
    const j = JSON.parse(r.out) as { ok: boolean; checks: { ok: boolean; label: string }[] };
    expect(j.checks.map((c) => c.label)).toContain('self-test');
    expect(r.code).toBe(j.ok ? 0 : 1);
  });

  it.each([['demo'], ['install', '--user'], ['doctor'], ['rules']])('%s -q prints nothing on stdout', async (...argv) => {
    const r = await cli([...argv, '-q']);
    expect(r.out).toBe('');
  });

  it('check -f is --format; --file reads a file', async () => {
    expect(JSON.parse((await cli(['check', '-f', 'json', 'ls'])).out).decision).toBe('allow');
    const r = await cli(['check', '--file', join(layout.root, 'absent.sh')]);
    expect(r.err).toMatch(/cannot read .*absent\.sh: no such file or directory/);
  });
});
