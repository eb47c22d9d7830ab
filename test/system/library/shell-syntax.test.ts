/**
 * Commands tree-sitter cannot read (BG0001), judged as the shell that runs them reads them
 * (src/engine/parse/shell-syntax.ts, src/frontends/decide.ts judgeBash): bash stops at the first syntax error, so
 * a command whose first line it rejects runs nothing, and one it rejects further down runs only the
 * complete commands before that line. Each case is also run by bash itself, to show the claim.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unless } from '../../helpers/shared.js';
import { createGuard, type Guard } from '../../../src/api.js';
import { shellSyntax } from '../../../src/engine/parse/shell-syntax.js';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';

const BASH = ['/bin/bash', '/usr/bin/bash'].find((b) => existsSync(b));
const noBash = unless(BASH !== undefined, 'shell-syntax: no bash in /bin or /usr/bin');
const d = describe.skipIf(noBash !== null);

let layout: GitLayout;
let guard: Guard;
beforeAll(() => {
  if (!BASH) return;
  layout = makeGitLayout('bashguard-syntax-');
  const home = join(layout.root, 'home');
  mkdirSync(home);
  guard = createGuard({ worktree: layout.worktree, env: { HOME: home, SHELL: BASH }, isolation: 'none' });
});
afterAll(() => {
  guard?.close();
  layout?.cleanup();
});

/** Runs `command` as Claude Code does (`eval` in bash from the worktree); the main checkout's entries after. */
function runs(command: string): string[] {
  spawnSync(BASH!, ['-c', `eval "$1"`, 'bash', command], { cwd: layout.worktree, stdio: 'ignore' });
  return readdirSync(layout.main).sort();
}

d('a command bash rejects', () => {
  it('runs nothing when bash rejects its first line: allowed, though it names the main checkout', async () => {
    for (const cmd of ['touch ../../first <p>', 'touch ../../first; echo $(( <p>']) {
      expect(shellSyntax(BASH!, cmd)).toEqual({ kind: 'rejects', line: 1 });
      expect((await guard.checkBash(cmd)).decision).toBe('allow');
      expect(runs(cmd)).not.toContain('first');
    }
  });

  it('runs the lines before the one bash rejects: they are judged (denied here), and they do run', async () => {
    const cmd = 'touch ../../escaped\necho <p>';
    expect(shellSyntax(BASH!, cmd)).toEqual({ kind: 'rejects', line: 2 });
    const r = await guard.checkBash(cmd);
    expect(r.decision).toBe('deny');
    expect(r.reason).toMatch(/bash rejects line 2/);
    expect(runs(cmd)).toContain('escaped');
  });

  it('runs nothing where the error is an unclosed construct on the only line (bash reports the line after it)', async () => {
    const cmd = 'for f in x; do touch ../../in-for done';
    expect(shellSyntax(BASH!, cmd)).toEqual({ kind: 'rejects', line: 2 });
    expect((await guard.checkBash(cmd)).decision).toBe('allow');
    expect(runs(cmd)).not.toContain('in-for');
  });

  it('judges the complete commands before an unclosed construct, and a here-document they hold whole', async () => {
    const cmd = 'touch ../../before-for\nfor f in x; do echo done';
    expect((await guard.checkBash(cmd)).decision).toBe('deny');
    expect(runs(cmd)).toContain('before-for');
    const heredoc = 'cat > ../../heredoc <<EOF\nhi\nEOF\necho <p>';
    expect((await guard.checkBash(heredoc)).decision).toBe('deny');
    expect(runs(heredoc)).toContain('heredoc');
  });

  it('the benign twin: lines before the rejected one that stay in the worktree are allowed', async () => {
    expect((await guard.checkBash('touch inside\necho <p>')).decision).toBe('allow');
  });

  it('runs nothing where the rejected line is inside a construct that began on the first line', async () => {
    const cmd = 'if true; then\n  touch ../../in-if <p>\nfi';
    expect(shellSyntax(BASH!, cmd)).toEqual({ kind: 'rejects', line: 2 });
    expect(shellSyntax(BASH!, 'if true; then').kind).toBe('rejects');
    expect((await guard.checkBash(cmd)).decision).toBe('allow');
    expect(runs(cmd)).not.toContain('in-if');
  });

  it('keeps asking where bash accepts what tree-sitter could not read, or where only one grammar (extglob) rejects it', async () => {
    // A markdown fence: bash reads it as command substitutions, so it may run.
    const fence = '```bash\ntouch ../../escaped\n```';
    expect(shellSyntax(BASH!, fence).kind).not.toBe('rejects');
    expect((await guard.checkBash(fence)).decision).not.toBe('allow');
    expect(shellSyntax(BASH!, 'echo a')).toEqual({ kind: 'accepts' });
    // Valid only with extglob (which a user's start-up files may set): it may run.
    expect(shellSyntax(BASH!, 'touch ../../!(x)')).toEqual({ kind: 'unknown' });
  });

  it('a construct tree-sitter splits (a reserved word reached as a command) is asked of bash too', async () => {
    // Run together on one line, `for` follows an assignment: bash reads no loop there and rejects `do`.
    const joined = 'x=0 for f in a; do touch ../../split-for; done';
    expect(shellSyntax(BASH!, joined)).toEqual({ kind: 'rejects', line: 1 });
    expect((await guard.checkBash(joined)).decision).toBe('allow');
    expect(runs(joined)).not.toContain('split-for');
    // Valid bash that tree-sitter splits the same way: its body runs, unread, so it stays asked.
    const negated = '! { touch ../../negated; }';
    expect(shellSyntax(BASH!, negated)).toEqual({ kind: 'accepts' });
    const r = await guard.checkBash(negated);
    expect(r.decision).toBe('ask');
    expect(r.findings.map((f) => f.rule)).toContain('BG0001');
    expect(runs(negated)).toContain('negated');
  });

  it('asks no shell but bash, and nothing for a command too long for one argument', () => {
    expect(shellSyntax('/bin/zsh', '<p>')).toEqual({ kind: 'unknown' });
    expect(shellSyntax(BASH!, `echo ${'x'.repeat(200_000)} <p>`)).toEqual({ kind: 'unknown' });
  });
});
