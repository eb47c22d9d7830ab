/**
 * Every failure path of the hook answers as docs/limits.md ("Failure paths") says: closed where the
 * agent could have caused the failure, open only where it could not (issue #12 item 3). Most cases
 * go through `run(['hook'], io)`; the node and program cases run the installed command
 * (bin/bashguard-hook, built dist/ as `npm test` builds it).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync, cpSync, symlinkSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { memoryIO, runCli } from '../helpers/memory-io.js';
import { makeGitLayout, type GitLayout } from '../helpers/git-layout.js';
import { REPO_ROOT } from '../helpers/shared.js';
import { readDecisions } from '../../src/layers/log/decisions.js';

let layout: GitLayout;
let home: string;

beforeAll(() => {
  layout = makeGitLayout('bashguard-fail-');
  home = join(layout.root, 'home');
  mkdirSync(home);
});
afterAll(() => layout?.cleanup());

interface Answer {
  code: number;
  decision: 'allow' | 'ask' | 'deny';
  reason: string;
  stderr: string;
}

async function hook(stdin: string, env: Record<string, string> = {}, cwd = layout.outside): Promise<Answer> {
  const { code, out: text, err } = await runCli(['hook'], { stdin, env: { HOME: home, PATH: process.env.PATH, ...env }, cwd });
  if (text === '') return { code, decision: 'allow', reason: '', stderr: err };
  const h = (JSON.parse(text) as { hookSpecificOutput: { permissionDecision: 'ask' | 'deny'; permissionDecisionReason: string } }).hookSpecificOutput;
  return { code, decision: h.permissionDecision, reason: h.permissionDecisionReason, stderr: err };
}

const bash = (command: string, cwd: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: 'sess-1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd, ...extra });
const benign = () => bash('echo ok > notes.txt', layout.worktree);

describe('the client or a person caused it: open (allow), reason on stderr', () => {
  it('empty stdin', async () => {
    const a = await hook('');
    expect(a.decision).toBe('allow');
    expect(a.stderr).toMatch(/empty hook input/);
  });
  it('malformed JSON', async () => {
    const a = await hook('{"tool_name": ');
    expect(a.decision).toBe('allow');
    expect(a.stderr).toMatch(/not valid JSON/);
  });
  it('a session outside any checkout, with no project dir that is one', async () => {
    const a = await hook(bash(`echo x > ${layout.main}/README.md`, layout.outside));
    expect(a.decision).toBe('allow');
  });
});

describe('the agent could have caused it: closed', () => {
  it('the shell moved out of the worktree (cwd in the main checkout or /tmp): the project dir decides', async () => {
    const env = { CLAUDE_PROJECT_DIR: layout.worktree };
    const inMain = await hook(bash('echo x > README.md', layout.main), env);
    expect(inMain.decision).toBe('deny');
    expect(inMain.reason).toContain(`${layout.main}/README.md`);
    const inOutside = await hook(bash(`echo x > ${layout.main}/README.md`, layout.outside), env);
    expect(inOutside.decision).toBe('deny');
    // ... and a harmless command from there is still allowed.
    expect((await hook(bash('echo x > /tmp/bashguard-fail-scratch', layout.main), env)).decision).toBe('allow');
  });

  it('a session cwd that no longer exists (removed meanwhile) is resolved through its nearest ancestor', async () => {
    const gone = join(layout.worktree, 'removed', 'deeper');
    expect((await hook(bash(`echo x > ${layout.main}/README.md`, gone))).decision).toBe('deny');
    expect((await hook(bash('echo x > notes.txt', gone))).decision).toBe('allow');
  });

  describe('broken worktree git files', () => {
    let saved: string;
    const dotGit = () => join(layout.worktree, '.git');
    beforeAll(() => {
      saved = readFileSync(dotGit(), 'utf8');
    });
    afterEach(() => writeFileSync(dotGit(), saved));

    it('the worktree works before (control)', async () => {
      expect((await hook(benign())).decision).toBe('allow');
      expect((await hook(bash(`echo x > ${layout.main}/README.md`, layout.worktree))).decision).toBe('deny');
    });
    it('.git file deleted: deny (discovery would find the main checkout around it)', async () => {
      rmSync(dotGit());
      const a = await hook(benign());
      expect(a.decision).toBe('deny');
      expect(a.reason).toMatch(/registered as a linked worktree/);
    });
    it('.git file rewritten to garbage: deny', async () => {
      writeFileSync(dotGit(), 'not a gitfile\n');
      expect((await hook(benign())).decision).toBe('deny');
    });
    it('.git file pointing nowhere: deny', async () => {
      writeFileSync(dotGit(), `gitdir: ${layout.root}/nowhere\n`);
      expect((await hook(benign())).decision).toBe('deny');
    });
    it(".git file pointing at the main repository's .git: deny", async () => {
      writeFileSync(dotGit(), `gitdir: ${layout.main}/.git\n`);
      const a = await hook(benign());
      expect(a.decision).toBe('deny');
    });
    it("writing the worktree's .git file or its admin dir's gitdir: BG1005", async () => {
      const a = await hook(bash('echo "gitdir: /x" > .git', layout.worktree));
      expect(a.decision).toBe('deny');
      expect(a.reason).toContain('BG1005');
      const admin = join(layout.main, '.git', 'worktrees', 'b1', 'gitdir');
      const b = await hook(bash(`echo /x > ${admin}`, layout.worktree));
      expect(b.decision).toBe('deny');
      expect(b.reason).toContain('BG1005');
    });
  });

  it("invalid worktree .bashguard.json: deny; unreadable one: deny", async () => {
    const cfg = join(layout.worktree, '.bashguard.json');
    try {
      writeFileSync(cfg, '{"rules": ');
      const a = await hook(benign());
      expect(a.decision).toBe('deny');
      expect(a.reason).toContain(cfg);
      writeFileSync(cfg, '{}');
      chmodSync(cfg, 0o000);
      if (process.getuid?.() !== 0) {
        // root reads a mode-000 file; the EISDIR case below covers "unreadable" for root too.
        expect((await hook(benign())).decision).toBe('deny');
      }
      rmSync(cfg);
      mkdirSync(cfg);
      expect((await hook(benign())).decision).toBe('deny');
    } finally {
      rmSync(cfg, { recursive: true, force: true });
    }
  });

  it('a worktree .bashguard.json that only tries to loosen: ignored, the guard holds, notice on stderr', async () => {
    const cfg = join(layout.worktree, '.bashguard.json');
    try {
      writeFileSync(cfg, JSON.stringify({ rules: { BG1002: 'off', BG2001: 'off' }, decisions: { certain: 'allow' }, writeRoots: [layout.main] }));
      const a = await hook(bash(`cd ../.. && git commit -am x && echo x > README.md`, layout.worktree));
      expect(a.decision).toBe('deny');
      expect(a.stderr).toMatch(/may only tighten/);
    } finally {
      rmSync(cfg, { force: true });
    }
  });
});

describe('bashguard itself cannot analyze: ask (deny with "unanalyzable": "deny")', () => {
  const withParser = async (getParser: () => Promise<never>) => {
    const m = memoryIO({ stdin: benign(), env: { HOME: home, XDG_STATE_HOME: join(layout.root, 'state-parser') }, cwd: layout.outside });
    const { runHook } = await import('../../src/frontends/hook/hook.js');
    expect(await runHook(m.io, { exitCode: false, getParser })).toBe(0);
    return JSON.parse(m.out()).hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string };
  };
  it('the parser cannot load (neither native nor WASM)', async () => {
    const h = await withParser(() => Promise.reject(new Error('cannot load tree-sitter-bash.wasm')));
    expect(h.permissionDecision).toBe('ask');
    expect(h.permissionDecisionReason).toContain('cannot load tree-sitter-bash.wasm');
  });
  it('an internal error', async () => {
    const h = await withParser(() => {
      throw new TypeError('x is undefined');
    });
    expect(h.permissionDecision).toBe('ask');
    expect(h.permissionDecisionReason).toMatch(/internal error: x is undefined/);
  });
});

describe("a person's file: ask", () => {
  it("invalid main-checkout .bashguard.json (the agent cannot write it)", async () => {
    const cfg = join(layout.main, '.bashguard.json');
    try {
      writeFileSync(cfg, '{"rules": ');
      const a = await hook(benign());
      expect(a.decision).toBe('ask');
      expect(a.reason).toContain(cfg);
    } finally {
      rmSync(cfg, { force: true });
    }
  });
});

describe('the decision log', () => {
  it('records each non-allow decision with session, tool, command, rules and the attended flags; allow is not logged', async () => {
    const state = join(layout.root, 'state-log');
    const env = { XDG_STATE_HOME: state, CLAUDE_CODE_ENTRYPOINT: 'sdk-cli', CLAUDE_CODE_SESSION_ATTENDED: '0' };
    await hook(benign(), env);
    expect(readDecisions(env).records).toHaveLength(0);
    await hook(bash(`echo x > ${layout.main}/README.md`, layout.worktree), env);
    const { records } = readDecisions(env);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ session: 'sess-1', cwd: layout.worktree, tool: 'Bash', command: `echo x > ${layout.main}/README.md`, decision: 'deny', rules: ['BG1002'], entrypoint: 'sdk-cli', attended: '0' });
  });
  it('a log that cannot be written never changes the answer; the error goes to stderr', async () => {
    const blocker = join(layout.root, 'state-file');
    writeFileSync(blocker, 'not a directory');
    const a = await hook(bash(`echo x > ${layout.main}/README.md`, layout.worktree), { XDG_STATE_HOME: blocker });
    expect(a.decision).toBe('deny');
    expect(a.stderr).toMatch(/cannot write the decision log/);
  });
  it('the log directory is protected', async () => {
    const state = join(layout.root, 'state-prot');
    const a = await hook(bash(`rm -rf ${state}/bashguard`, layout.worktree), { XDG_STATE_HOME: state });
    expect(a.decision).toBe('deny');
    expect(a.reason).toContain('BG1005');
  });
});

describe('the installed command (bin/bashguard-hook)', () => {
  const SUPERVISOR = join(REPO_ROOT, 'bin', 'bashguard-hook');
  const runScript = (script: string, env: Record<string, string>, args: string[] = []) =>
    spawnSync(script, args, { input: bash(`echo x > ${layout.main}/README.md`, layout.worktree), env: { HOME: home, ...env }, encoding: 'utf8', timeout: 60_000 });
  const nodeDir = join(process.execPath, '..');

  it('a recorded node that is gone: another node on PATH is used', () => {
    const r = runScript(SUPERVISOR, { BASHGUARD_NODE: '/nonexistent/node', PATH: `${nodeDir}:/usr/bin:/bin` });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toContain('README.md');
  });

  it('no node anywhere: deny in the protocol, naming `bashguard install` (exit 2 with --exit-code)', () => {
    // A HOME and PATH without node; /usr/bin/node and /usr/local/bin/node would still be found.
    const found = ['/usr/bin/node', '/usr/local/bin/node', '/opt/homebrew/bin/node'].filter((p) => existsSync(p));
    if (found.length > 0) {
      // Copy the script into a scratch dir with a fake node list to still test the deny path.
      const dir = join(layout.root, 'nonode');
      mkdirSync(dir, { recursive: true });
      const text = readFileSync(SUPERVISOR, 'utf8').replace('/opt/homebrew/bin/node /usr/local/bin/node /usr/bin/node', '/nonexistent/a');
      expect(text).not.toContain('/usr/bin/node');
      writeFileSync(join(dir, 'bashguard-hook'), text, { mode: 0o755 });
      symlinkOrCopy(join(REPO_ROOT, 'bin', 'bashguard.js'), join(dir, 'bashguard.js'));
      return check(join(dir, 'bashguard-hook'));
    }
    return check(SUPERVISOR);

    function check(script: string) {
      // A PATH with only the tools the script uses, none of them node.
      const tools = join(layout.root, 'tools');
      mkdirSync(tools, { recursive: true });
      for (const t of ['tr', 'cat', 'timeout']) {
        const where = spawnSync('sh', ['-c', `command -v ${t}`], { encoding: 'utf8' }).stdout.trim();
        if (where && !existsSync(join(tools, t))) symlinkSync(where, join(tools, t));
      }
      const r = runScript(script, { BASHGUARD_NODE: '/nonexistent/node', PATH: tools });
      expect(r.status).toBe(0);
      const h = JSON.parse(r.stdout).hookSpecificOutput;
      expect(h.permissionDecision).toBe('deny');
      expect(h.permissionDecisionReason).toContain('bashguard install');
      expect(h.permissionDecisionReason.split('\n')).toHaveLength(1);
      const e = runScript(script, { BASHGUARD_NODE: '/nonexistent/node', PATH: tools }, ['--exit-code']);
      expect(e.status).toBe(2);
      expect(e.stderr).toContain('bashguard install');
    }
  });

  it('a node that crashes (exit 1): deny, not a non-blocking error', () => {
    const fake = join(layout.root, 'crashing-node');
    writeFileSync(fake, '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const r = runScript(SUPERVISOR, { BASHGUARD_NODE: fake, PATH: process.env.PATH ?? '/usr/bin:/bin' });
    expect(r.status).toBe(0);
    const h = JSON.parse(r.stdout).hookSpecificOutput;
    expect(h.permissionDecision).toBe('deny');
    expect(h.permissionDecisionReason).toMatch(/exit status 1.*bashguard install/);
  });
});

function symlinkOrCopy(from: string, to: string): void {
  try {
    symlinkSync(from, to);
  } catch {
    cpSync(from, to);
  }
}
void renameSync;
