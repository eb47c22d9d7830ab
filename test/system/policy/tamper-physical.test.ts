/**
 * Tamper mechanisms of issue #38 that the analyzer's physical view must stop, each run through the
 * real hook (bin/bashguard-hook, the command `bashguard install` writes) against a real layout,
 * each with a benign twin that must stay allowed: a `.claude` that is a symlink to a directory the
 * agent owns, `/proc/<pid>/cwd` and `/proc/<pid>/root`, hard links to control files written
 * through, an unknown name under a control directory, a config named by the environment in a place
 * the agent can write, and FIFOs wherever the hook reads a file (the hook and its fallback must
 * answer, and leave no process behind). The contracts the command knowledge feeds
 * (WriteEffect.hardLinkSource, WriteEffect.treeWrite) are checked on the policy directly.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { REPO_ROOT, cannotRun } from '../../helpers/shared.js';
import { bwrapHere } from '../../helpers/bwrap.js';
import { openWorkspace } from '../../../src/policy/workspace/index.js';
import { evaluate } from '../../../src/policy/policy.js';
import { toolWriteEffect } from '../../../src/policy/workspace/workspace.js';

const SUPERVISOR = join(REPO_ROOT, 'bin', 'bashguard-hook');
const CLI = join(REPO_ROOT, 'bin', 'bashguard.js');
const LIMIT_S = 4;

let L: GitLayout;
let home: string;
let scratch: string;
let own: string;

beforeAll(() => {
  L = makeGitLayout('bashguard-tamper-');
  home = join(L.root, 'home');
  mkdirSync(join(home, '.claude', 'hooks'), { recursive: true });
  mkdirSync(join(home, '.config', 'bashguard'), { recursive: true });
  writeFileSync(join(home, '.claude', 'settings.json'), '{}\n');
  writeFileSync(join(home, '.claude', 'hooks', 'bashguard-hook-abc.cjs'), '#!/usr/bin/env node\n');
  writeFileSync(join(home, '.config', 'bashguard', 'config.json'), '{}\n');
  // The agent's scratch dir on the layout's own file system (TMPDIR), so hard links can reach it.
  scratch = join(L.root, 'scratch');
  own = join(scratch, 'own');
  mkdirSync(own, { recursive: true });
});
afterAll(() => L.cleanup());

interface Answer {
  decision: string;
  reason: string;
  stderr: string;
  /** Processes of the hook's process group still alive after it answered. */
  left: number;
}

/** Runs the supervisor in a process group of its own, then counts (and ends) what it left behind. */
/** util-linux's setsid (Linux): without it the hook runs in the test's process group, and what it leaves is not counted. */
const SETSID = spawnSync('setsid', ['true']).status === 0;

function hook(input: Record<string, unknown>, env: Record<string, string> = {}): Answer {
  const r = spawnSync(SETSID ? 'setsid' : '/bin/sh', SETSID ? ['/bin/sh', SUPERVISOR] : [SUPERVISOR], {
    input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 't', cwd: L.worktree, ...input }),
    env: { PATH: process.env.PATH, HOME: home, TMPDIR: scratch, BASHGUARD_NODE: process.execPath, BASHGUARD_HOOK_TIMEOUT: String(LIMIT_S), ...env },
    cwd: L.worktree,
    encoding: 'utf8',
    timeout: 60_000,
  });
  let left = 0;
  if (SETSID) try {
    left = execFileSync('ps', ['-o', 'pid=', '-g', String(r.pid)], { encoding: 'utf8' }).trim().split(/\s+/).filter(Boolean).length;
  } catch {
    // none left (ps exits 1)
  }
  if (left > 0) {
    try {
      process.kill(-r.pid!, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  if (r.error) return { decision: `no answer (${r.error.message})`, reason: '', stderr: r.stderr ?? '', left };
  const out = r.stdout.trim() ? (JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } }).hookSpecificOutput : null;
  return { decision: out?.permissionDecision ?? 'allow', reason: out?.permissionDecisionReason ?? '', stderr: r.stderr, left };
}

const bash = (command: string, env?: Record<string, string>) => hook({ tool_name: 'Bash', tool_input: { command } }, env);
const writeTool = (file_path: string) => hook({ tool_name: 'Write', tool_input: { file_path, content: '{}' } });

function withClaudeLink<T>(fn: () => T): T {
  symlinkSync(own, join(L.worktree, '.claude'));
  try {
    return fn();
  } finally {
    rmSync(join(L.worktree, '.claude'));
  }
}

describe('a .claude that is a symlink to a directory the agent owns', () => {
  it('writing the settings through it, or its physical image directly, is BG1005 (Bash and the Write tool)', () => {
    withClaudeLink(() => {
      const viaLink = bash(`echo '{"disableAllHooks":true}' > .claude/settings.local.json`);
      expect(viaLink.decision).toBe('deny');
      expect(viaLink.reason).toContain('BG1005');
      expect(viaLink.reason).toContain(join(own, 'settings.local.json'));
      expect(writeTool(join(L.worktree, '.claude', 'settings.local.json')).decision).toBe('deny');
      const image = bash(`echo '{"env":{"BASHGUARD_CONFIG":"${own}/c.json"}}' > ${own}/settings.local.json`);
      expect(image.decision).toBe('deny');
      expect(image.reason).toMatch(/resolves there through a symlink/);
      // Benign twin: another file in the agent's directory.
      expect(bash(`echo notes > ${own}/notes.txt`).decision).toBe('allow');
    });
  });

  it('creating `.claude` as a symlink, or moving a directory there, is BG1005; a symlink under another name is not', () => {
    const r = bash(`ln -s ${own} .claude`);
    expect(r.decision).toBe('deny');
    expect(r.reason).toContain('BG1005');
    expect(bash(`mv ${own} .claude`).decision).toBe('deny');
    expect(bash(`ln -s ${own} notes-link`).decision).toBe('allow');
  });
});

describe('/proc/<pid>/cwd and /proc/<pid>/root', () => {
  it('a write through /proc/self/cwd after `cd ../..` is not allowed (the shell cwd is not the hook\'s)', () => {
    const r = bash('cd ../.. && echo x > /proc/self/cwd/README.md');
    expect(r.decision).not.toBe('allow');
    expect(r.reason).toMatch(/cwd in \/proc/);
    expect(writeTool('/proc/self/cwd/../../README.md').decision).toBe('deny');
  });

  it('/proc/1/root/<main>/README.md is the main checkout; /proc/self/root/<worktree>/f is the worktree', () => {
    const r = bash(`echo x > /proc/1/root${L.main}/README.md`);
    expect(r.decision).toBe('deny');
    expect(r.reason).toContain('BG1002');
    expect(bash(`echo x > /proc/self/root${L.worktree}/notes.txt`).decision).toBe('allow');
  });
});

describe('hard links to protected files, written through', () => {
  const cases: [string, () => string, string][] = [
    ['the user settings', () => join(home, '.claude', 'settings.json'), 'BG1005'],
    ['the exec-form launcher', () => join(home, '.claude', 'hooks', 'bashguard-hook-abc.cjs'), 'BG1005'],
    ['the user config', () => join(home, '.config', 'bashguard', 'config.json'), 'BG1005'],
    ['the shared .git/config', () => join(L.main, '.git', 'config'), 'BG3001'],
  ];
  it.each(cases)('%s: `>`, `>>` and the Write tool through the link are denied', (_name, src, rule) => {
    const link = join(scratch, `hl-${rule}-${Math.random().toString(36).slice(2)}`);
    linkSync(src(), link);
    try {
      for (const r of [bash(`echo x > ${link}`), bash(`echo x >> ${link}`)]) {
        expect(r.decision).toBe('deny');
        expect(r.reason).toContain(rule);
        expect(r.reason).toContain('hard link');
      }
      // (src/frontends/decide.ts words a Write tool's reason itself; the decision is the policy's)
      expect(writeTool(link).decision).toBe('deny');
    } finally {
      rmSync(link);
    }
  });

  it('a hard link to a main checkout file in the worktree: not allowed (ask); a file with one link: allowed', () => {
    const link = join(L.worktree, 'linked-readme');
    linkSync(join(L.main, 'README.md'), link);
    try {
      const r = bash('echo x > linked-readme');
      expect(r.decision).toBe('ask');
      expect(r.reason).toMatch(/shares its inode/);
    } finally {
      rmSync(link);
    }
    writeFileSync(join(L.worktree, 'plain'), 'x');
    expect(bash('echo x > plain').decision).toBe('allow');
    rmSync(join(L.worktree, 'plain'));
  });

  it('a hard link made and written in one command is denied (the link is a write to its source); reading through it is allowed', () => {
    const r = bash(`ln ${join(home, '.claude', 'settings.json')} ${scratch}/same && echo '{}' > ${scratch}/same`);
    expect(r.decision).toBe('deny');
    expect(r.reason).toMatch(/hard link to .*settings\.json/);
    writeFileSync(join(L.worktree, 'notes'), 'x');
    expect(bash('ln notes notes2 && cat notes2').decision).toBe('allow');
    rmSync(join(L.worktree, 'notes'));
  });

  it('benign twin: two hard-linked scratch files on another file system than the checkouts', (ctx) => {
    const base = [tmpdir(), '/var/tmp', '/dev/shm'].find((d) => existsSync(d) && statSync(d).dev !== statSync(L.main).dev);
    if (!base) return ctx.skip(cannotRun(`the hard-link twin: no scratch directory (${tmpdir()}, /var/tmp, /dev/shm) on another file system than the checkouts (${L.main})`));
    const other = realpathSync(mkdtempSync(join(base, 'bg-tamper-')));
    try {
      writeFileSync(join(other, 'a'), 'x');
      linkSync(join(other, 'a'), join(other, 'b'));
      expect(bash(`echo x > ${join(other, 'b')}`).decision).toBe('allow');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('an unknown name under a control directory', () => {
  beforeAll(() => mkdirSync(join(L.worktree, '.claude'), { recursive: true }));
  afterAll(() => rmSync(join(L.worktree, '.claude'), { recursive: true, force: true }));

  it('`$UNSET` asks (or, where the enforcement keeps .claude/ read-only, runs under it), a glob matching an existing settings file denies; twins outside control dirs or not matching are allowed', () => {
    writeFileSync(join(L.worktree, '.claude', 'settings.local.json'), '{}');
    const unset = bash(`echo '{}' > .claude/$UNSET`);
    // (issue 51 item 5: what the analyzer cannot decide runs under the kernel where it holds)
    expect(unset.decision).toBe(bwrapHere('the enforcement of an undecided call', false).canRun ? 'allow' : 'ask');
    if (unset.decision === 'allow') expect(unset.reason).toMatch(/runs under the OS enforcement instead of asking/);
    expect(unset.reason).toContain('BG1005');
    const glob = bash('cp /dev/null .claude/*.json');
    expect(glob.decision).toBe('deny');
    expect(glob.reason).toContain('settings.local.json');
    mkdirSync(join(L.worktree, 'notes'), { recursive: true });
    expect(bash('echo x > notes/$UNSET').decision).toBe('allow');
    expect(bash('cp /dev/null .claude/*.md').decision).toBe('allow');
  });
});

describe('a config the environment names in a place the agent can write', () => {
  it('BASHGUARD_CONFIG and XDG_CONFIG_HOME there are ignored (with a note on stderr): the loosening does not apply', () => {
    const evil = join(scratch, 'evil.json');
    writeFileSync(evil, JSON.stringify({ rules: { BG1002: 'off', BG1001: 'off' } }));
    const r = bash('echo x > ../../README.md', { BASHGUARD_CONFIG: evil });
    expect(r.decision).toBe('deny');
    expect(r.stderr).toMatch(/BASHGUARD_CONFIG=.* ignored: .* lies in the scratch directory/);
    mkdirSync(join(scratch, 'xdg', 'bashguard'), { recursive: true });
    writeFileSync(join(scratch, 'xdg', 'bashguard', 'config.json'), JSON.stringify({ rules: { BG1002: 'off' } }));
    expect(bash('echo x > ../../README.md', { XDG_CONFIG_HOME: join(scratch, 'xdg') }).decision).toBe('deny');
    // Twin: the same file outside every write root is trusted.
    const safe = join(L.root, 'orchestrator.json');
    writeFileSync(safe, JSON.stringify({ rules: { BG1002: 'off', BG1001: 'off' } }));
    expect(bash('echo x > ../../README.md', { BASHGUARD_CONFIG: safe }).decision).toBe('allow');
  });
});

describe('a FIFO wherever the hook reads a file: an answer, a one-line reason, nothing left running', () => {
  const fifo = (p: string) => {
    rmSync(p, { force: true });
    mkdirSync(join(p, '..'), { recursive: true });
    execFileSync('mkfifo', [p]);
  };
  const cases: [string, () => string, string, (() => Record<string, string>)?][] = [
    ['the decision log', () => join(home, '.local', 'state', 'bashguard', 'decisions.jsonl'), 'deny'],
    ["the worktree's .bashguard.json", () => join(L.worktree, '.bashguard.json'), 'deny'],
    ["the main checkout's .bashguard.json", () => join(L.main, '.bashguard.json'), 'ask'],
    ['the user config', () => join(home, '.config', 'bashguard', 'config.json'), 'ask'],
    ['the file BASHGUARD_CONFIG names', () => join(L.root, 'cfg-fifo.json'), 'ask', () => ({ BASHGUARD_CONFIG: join(L.root, 'cfg-fifo.json') })],
  ];
  it.each(cases)('%s', (_name, path, want, env) => {
    const p = path();
    const saved = (() => {
      try {
        return readFileSync(p);
      } catch {
        return null;
      }
    })();
    fifo(p);
    try {
      const r = bash('echo x > ../../README.md', env?.());
      expect(r.decision).toBe(want);
      expect(r.left).toBe(0);
      if (want === 'ask') expect(r.reason).toMatch(/a FIFO, not a regular file/);
      if (p.endsWith('decisions.jsonl')) expect(r.stderr).toMatch(/cannot write the decision log .*not a regular file/);
      expect(r.reason.split('\n')[0]!.length).toBeGreaterThan(0);
    } finally {
      rmSync(p, { force: true });
      if (saved) writeFileSync(p, saved);
    }
  });

  it("the time limit's fallback (`hook --unfinished`) answers with a FIFO at a config file", () => {
    const p = join(L.main, '.bashguard.json');
    fifo(p);
    try {
      const r = spawnSync(process.execPath, [CLI, 'hook', '--unfinished', '2'], {
        input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: L.worktree }),
        env: { PATH: process.env.PATH, HOME: home },
        cwd: L.worktree,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(r.error).toBeUndefined();
      expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).not.toBe('allow');
    } finally {
      rmSync(p, { force: true });
    }
  });
});

describe('the contracts the command knowledge feeds (src/engine/effects/types.ts)', () => {
  const effect = (path: string, extra: Record<string, unknown>) => ({ ...toolWriteEffect(path, path, 'test'), ...extra });

  it('hardLinkSource: `ln <user settings> <scratch>` is a write to the user settings; from a plain file it is not', () => {
    const ws = openWorkspace(L.worktree, { env: { HOME: home, TMPDIR: scratch } });
    const ctx = ws.policy()!;
    const bad = evaluate([effect(join(scratch, 'x'), { op: 'link', hardLinkSource: join(home, '.claude', 'settings.json') })], ctx);
    expect(bad.decision).toBe('deny');
    expect(bad.findings.map((f) => f.rule)).toEqual(['BG1005']);
    const fine = evaluate([effect(join(scratch, 'x'), { op: 'link', hardLinkSource: join(scratch, 'plain') })], ctx);
    expect(fine.decision).toBe('allow');
  });

  it('treeWrite: unknown names over a directory holding control files asks; known names decide', () => {
    const ws = openWorkspace(L.worktree, { env: { HOME: home, TMPDIR: scratch } });
    const ctx = ws.policy()!;
    const unknown = evaluate([effect(L.worktree, { op: 'extract', subtree: true, treeWrite: {} })], ctx);
    expect(unknown.decision).toBe('ask');
    expect(unknown.findings[0]!.rule).toBe('BG1005');
    expect(evaluate([effect(L.worktree, { op: 'extract', subtree: true, treeWrite: { names: ['src/a.ts', 'README.md'] } })], ctx).decision).toBe('allow');
    const named = evaluate([effect(L.worktree, { op: 'extract', subtree: true, treeWrite: { names: ['.claude/settings.local.json'] } })], ctx);
    expect(named.decision).toBe('deny');
    // Into a directory that holds no control file: nothing to say.
    expect(evaluate([effect(join(L.worktree, 'src'), { op: 'extract', subtree: true, treeWrite: {} })], ctx).decision).toBe('allow');
  });
});
