/**
 * The CLI's conventions (issue 41): one `--format` with `--json` as its alias on every subcommand,
 * `--quiet`, control characters in echoed input printed visibly, file errors in words, an ask's
 * reason that does not say "blocked", and `sandbox run`'s exit code when the sandbox cannot start
 * the command.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/memory-io.js';
import { bwrapAvailable } from '../../../src/layers/sandbox/index.js';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { cannotRun } from '../../helpers/shared.js';

let layout: GitLayout;
let home: string;
beforeAll(() => {
  layout = makeGitLayout('bg-conventions-');
  home = join(layout.root, 'home');
  mkdirSync(home);
});
afterAll(() => layout?.cleanup());

const cli = (argv: string[], cwd = layout.worktree) => runCli(argv, { env: { HOME: home, PATH: process.env.PATH }, cwd });

describe('--format and its --json alias', () => {
  const commands: [string, string[]][] = [
    ['check', ['check', 'echo x > notes.txt']],
    ['explain', ['explain', 'echo x > notes.txt']],
    ['rules', ['rules']],
    ['logs', ['logs']],
    ['env', ['env']],
    ['sandbox', ['sandbox']],
    ['audit', ['audit']],
    ['prompt', ['prompt']],
  ];
  it.each(commands)('%s: --json and --format json print the same JSON', async (_name, argv) => {
    const a = await cli([...argv, '--json']);
    const b = await cli([...argv, '--format', 'json']);
    expect(a.err).toBe(b.err);
    expect(a.code).toBe(b.code);
    expect(a.out).toBe(b.out);
    // logs prints one object per line (none here); the others one document.
    if (a.out.trim()) for (const doc of argv[0] === 'logs' ? a.out.trim().split('\n') : [a.out]) expect(() => JSON.parse(doc)).not.toThrow();
  });

  it.each(commands)('%s: --json with another --format is a usage error', async (_name, argv) => {
    const r = await cli([...argv, '--json', '--format', argv[0] === 'env' ? 'shell' : argv[0] === 'sandbox' ? 'bwrap' : 'text']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^bashguard: --json and --format \w+ disagree \(--json is --format json\)\n$/);
  });

  it('an unknown format names the valid ones', async () => {
    const r = await cli(['check', '--format', 'yaml', 'ls']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('bashguard: --format must be text or json (got yaml)\n');
  });

  it('lint takes --json as well', async () => {
    const file = join(layout.worktree, 'x.sh');
    writeFileSync(file, 'echo x > ../../README.md\n');
    const a = await cli(['lint', '--json', '--no-summary', file]);
    expect(a.code).toBe(1);
    expect(JSON.parse(a.out)).toBeTruthy();
  });
});

describe('--quiet', () => {
  it('check -q: nothing printed, the exit code gives the decision', async () => {
    const deny = await cli(['check', '-q', `echo x > ${layout.main}/README.md`]);
    expect(deny).toEqual({ code: 1, out: '', err: '' });
    const allow = await cli(['check', '--quiet', 'echo x > notes.txt']);
    expect(allow).toEqual({ code: 0, out: '', err: '' });
  });

  it('errors are still printed', async () => {
    const r = await cli(['check', '-q', '--file', join(layout.root, 'absent.sh')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^bashguard: cannot read .*absent\.sh: no such file or directory\n$/);
  });
});

describe('input echoed back', () => {
  it('control characters and bidi overrides are printed visibly, never raw', async () => {
    const r = await cli(['check', `echo x > "${layout.main}/a\x1b[2J\rb\u202e"`]);
    expect(r.code).toBe(1);
    expect(r.out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/);
    expect(r.out).toContain('a\\x1b[2J\\x0db\\u{202e}');
    const e = await cli(['explain', `echo x > "${layout.main}/a\x07b"`]);
    expect(e.out).not.toContain('\x07');
    expect(e.out).toContain('a\\x07b');
  });

  it('a file name with control characters in an error message', async () => {
    const r = await cli(['check', '--file', 'no\x1b[31mfile']);
    expect(r.err).toBe('bashguard: cannot read no\\x1b[31mfile: no such file or directory\n');
  });
});

describe('file errors in words', () => {
  it.each([
    [['check', '--file', '.'], /cannot read \.: is a directory, not a file/],
    [['explain', '--file', 'absent'], /cannot read absent: no such file or directory/],
    [['prompt', '-C', 'absent'], /-C absent: no such directory/],
  ])('%j', async (argv, text) => {
    const r = await cli(argv as string[]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(text);
    expect(r.err).not.toMatch(/\bE[A-Z]{3,}\b/);
  });
});

describe("an ask's reason", () => {
  it('does not say blocked; a deny does', async () => {
    const hook = async (command: string) => {
      const { out } = await runCli(['hook'], { stdin: JSON.stringify({ session_id: 's', cwd: layout.worktree, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } }), env: { HOME: home }, cwd: layout.worktree });
      return JSON.parse(out).hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string };
    };
    const ask = await hook('ssh build-host "$CMD"');
    expect(ask.permissionDecision).toBe('ask');
    expect(ask.permissionDecisionReason).not.toMatch(/blocked/);
    expect(ask.permissionDecisionReason).toMatch(/^bashguard asks before this command runs/);
    const deny = await hook(`echo x > ${layout.main}/README.md`);
    expect(deny.permissionDecision).toBe('deny');
    expect(deny.permissionDecisionReason).toMatch(/^bashguard blocked this command/);
  });
});

describe('sandbox run', () => {
  it('exit 2 with one line when the sandbox cannot start the command (its help says so)', async (ctx) => {
    const avail = bwrapAvailable(process.env);
    if (!avail.ok) return ctx.skip(cannotRun(`sandbox run cannot be tried here: ${avail.reason}`));
    const r = await cli(['sandbox', 'run', '--', 'bashguard-no-such-program']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^bashguard: sandbox: the sandbox could not start "bashguard-no-such-program" \(bubblewrap exited 1 before running it/m);
    // The command's own exit 1 stays 1.
    expect((await cli(['sandbox', 'run', '--', 'sh', '-c', 'exit 1'])).code).toBe(1);
  });
});
