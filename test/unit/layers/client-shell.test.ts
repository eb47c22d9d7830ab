/**
 * The shell the enforcement's wrapper assumes Claude Code runs (src/layers/sandbox/client-shell.ts):
 * the order of 2.1.330's shipped cli, on a scratch PATH of fake shells so the machine's own do not decide.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clientShell, executable } from '../../../src/layers/sandbox/client-shell.js';
import { nativeIO } from '../../../src/runtime/index.js';

const dir = mkdtempSync(join(tmpdir(), 'bashguard-client-shell-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fake = (path: string) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
};
const bin = join(dir, 'bin');
const zsh = fake(join(bin, 'zsh'));
const bash = fake(join(bin, 'bash'));
const other = fake(join(dir, 'opt', 'bash-5.2'));
const systemZsh = ['/bin/zsh', '/usr/bin/zsh', '/usr/local/bin/zsh', '/opt/homebrew/bin/zsh'].find(executable);
const systemBash = ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash', '/opt/homebrew/bin/bash'].find(executable);

describe("clientShell: Claude Code's choice", () => {
  it('CLAUDE_CODE_SHELL, then SHELL, where they name bash or zsh and can run', () => {
    expect(clientShell({ CLAUDE_CODE_SHELL: other, SHELL: zsh, PATH: bin })).toBe(other);
    expect(clientShell({ SHELL: other, PATH: bin })).toBe(other);
    expect(clientShell({ CLAUDE_CODE_SHELL: join(dir, 'missing-bash'), SHELL: zsh, PATH: bin })).toBe(zsh);
    // (a fish user: SHELL names neither, so the search decides, zsh first)
    expect(clientShell({ SHELL: '/usr/bin/fish', PATH: bin })).toBe(zsh);
  });

  it('with SHELL unset or not bash, zsh on PATH comes first; with SHELL=.../bash, bash', () => {
    expect(clientShell({ PATH: bin })).toBe(zsh);
    expect(clientShell({ SHELL: '/nonexistent/bash', PATH: bin })).toBe(bash);
  });

  it("Codex: bash where SHELL is unset (it runs the model's `bash -lc`), else as SHELL says", () => {
    expect(clientShell({ PATH: bin }, 'codex')).toBe(executable('/bin/bash') ? '/bin/bash' : bash);
    expect(clientShell({ SHELL: zsh, PATH: bin }, 'codex')).toBe(zsh);
  });

  it('without PATH, the usual directories in the same order', () => {
    expect(clientShell({})).toBe(systemZsh ?? systemBash ?? '/bin/bash');
    expect(clientShell({ SHELL: '/nonexistent/bash' })).toBe(systemBash ?? systemZsh ?? '/bin/bash');
  });
});

describe('executable', () => {
  it('the same answers with the addon loaded (which answers missing names itself) as access(2) gives', () => {
    const plain = join(dir, 'plain');
    writeFileSync(plain, '#!/bin/sh\n');
    chmodSync(plain, 0o644);
    const cases = [zsh, join(dir, 'missing'), join(plain, 'below-a-file'), join(dir, 'no', 'such', 'dir', 'bash')];
    const before = cases.map(executable);
    const io = nativeIO(true);
    expect(cases.map(executable)).toEqual(before);
    expect(before).toEqual([true, false, false, false]);
    // (root may execute a file without an x bit only where some x bit is set: none here)
    expect(executable(plain)).toBe(false);
    if (io) expect(io.statKind(join(dir, 'missing'), true)).toBeLessThan(0);
  });
});
