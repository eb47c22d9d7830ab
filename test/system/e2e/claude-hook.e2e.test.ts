/**
 * End-to-end: the REAL Claude Code client, fully offline, driven by a scripted
 * Messages API on loopback (./fake-anthropic.ts), working in a linked git
 * worktree nested in the main checkout (`<main>/.builders/b1`) with the
 * PreToolUse hook installed in `<worktree>/.claude/settings.json`.
 *
 * The scripted "model" tries to escape into the main checkout (writes, cd, cd
 * ../.., git commit there, Write/Edit tool calls) and does legitimate work in
 * the worktree. We then check the disk (main checkout untouched, worktree work
 * done) and what the agent was told (stream-json + the requests the fake API got).
 *
 * Which hook:
 *   BASHGUARD_E2E_HOOK=stub  ./stub-hook.mjs (denies Bash commands that contain
 *                            the literal main path; nothing else). Default for now.
 *   BASHGUARD_E2E_HOOK=real  `node <repo>/bin/bashguard.js install --project` in the worktree.
 * Assertions that only the real hook can satisfy are marked `needsRealHook` /
 * `itReal` ; with the stub they are skipped, unless
 * BASHGUARD_E2E_ALL=1 (then they run, and some fail: that shows the stub's gaps).
 *
 * Other knobs: BASHGUARD_E2E=0 skips the file; BASHGUARD_E2E_KEEP=1 keeps the
 * scratch dirs (paths are printed); BASHGUARD_E2E_DEBUG=1 logs every API request;
 * BASHGUARD_E2E_CACHE=<dir> is where the client gets installed; BASHGUARD_E2E_BIN=<file>
 * replaces <repo>/bin/bashguard.js for the real hook.
 *
 * Run alone: `npx vitest run test/system/e2e`. See ./claude.ts for what the client
 * needs offline and how it reports hook denials.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  CLAUDE_CODE_VERSION,
  describeRun,
  ensureClaude,
  makeHome,
  readJson,
  runClaude,
  type ClaudeRun,
  type PermissionMode,
  type ToolCallOutcome,
} from './claude.js';
import { startFakeAnthropic, stepOfToolUseId, type FakeAnthropic, type ScriptStep } from './fake-anthropic.js';
import { git, makeLayout, snapshotMain, type Layout, type MainSnapshot } from './layout.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..', '..', '..');
// The fuzzer's input without its CR: Claude Code refuses commands with control characters before
// any hook runs; tree-sitter runs away on this one just the same.
const RUNAWAY = readFileSync(join(REPO, 'test', 'fixtures', 'parser-hang.sh.txt'), 'utf8').replace(/\r/g, '');
/** The installed hook's outer limit in these runs (bin/bashguard-hook), short to keep the test quick. */
const HOOK_LIMIT_S = '3';

type HookKind = 'stub' | 'real';
// The real hook (`bin/bashguard.js install --project`) is what CI runs. BASHGUARD_E2E_HOOK=stub
// is a debugging knob that checks the harness itself with a trivial hook; the assertions only the
// real hook can meet are then not registered (never the case in CI).
const DEFAULT_HOOK_KIND: HookKind = 'real';
const HOOK_KIND = (process.env.BASHGUARD_E2E_HOOK ?? DEFAULT_HOOK_KIND) as HookKind;
if (HOOK_KIND !== 'stub' && HOOK_KIND !== 'real') throw new Error(`BASHGUARD_E2E_HOOK must be stub or real, got ${HOOK_KIND}`);
const RUN_ALL = process.env.BASHGUARD_E2E_ALL === '1';
const REAL_ASSERTIONS = HOOK_KIND === 'real' || RUN_ALL;
const SKIP = process.env.BASHGUARD_E2E === '0' || process.platform === 'win32';
const KEEP = process.env.BASHGUARD_E2E_KEEP === '1';
const DEBUG = process.env.BASHGUARD_E2E_DEBUG === '1';

/** `it` with the real hook; with the debugging stub (explicit opt-in only) these are not run. */
const itReal = REAL_ASSERTIONS ? it : it.skip;

/** Tools the hook must guard; the matcher the stub registers and the real installer should too. */
const GUARDED_TOOLS = ['Bash', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit'];
const ALLOWED_TOOLS = ['Bash', 'Edit', 'Write', 'Read'];

// ---------------------------------------------------------------------------
// Installing the hook into the worktree

function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Registers ./stub-hook.mjs in <worktree>/.claude/settings.json (merging into what is there). */
function installStubHook(layout: Layout): void {
  const dir = join(layout.worktree, '.claude');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'settings.json');
  const settings = (readJson(file) ?? {}) as { hooks?: { PreToolUse?: unknown[] } };
  settings.hooks ??= {};
  settings.hooks.PreToolUse ??= [];
  settings.hooks.PreToolUse.push({
    matcher: GUARDED_TOOLS.join('|'),
    hooks: [{ type: 'command', command: [process.execPath, join(HERE, 'stub-hook.mjs'), layout.main].map(shq).join(' ') }],
  });
  writeFileSync(file, JSON.stringify(settings, null, 2) + '\n');
}

/**
 * The real thing: `node <repo>/bin/bashguard.js install --project`, run in the worktree
 * (BASHGUARD_E2E_BIN overrides the script path), with the client under test on PATH as `claude`:
 * install finds 2.1.330 there and writes the exec form (node run by the client itself, no shell;
 * src/frontends/cli/install.ts HookSpec). The shell form runs with the real client in tamper.e2e.test.ts.
 */
function installRealHook(layout: Layout, home: string): void {
  const bin = process.env.BASHGUARD_E2E_BIN || join(REPO, 'bin', 'bashguard.js');
  const onPath = join(home, 'bin');
  mkdirSync(onPath, { recursive: true });
  symlinkSync(claudeBin, join(onPath, 'claude'));
  execFileSync(process.execPath, [bin, 'install', '--project'], {
    cwd: layout.worktree,
    env: { PATH: `${onPath}:${process.env.PATH ?? ''}`, HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
}

function installHook(kind: HookKind | 'none', layout: Layout, home: string): void {
  if (kind === 'stub') installStubHook(layout);
  else if (kind === 'real') installRealHook(layout, home);
}

// ---------------------------------------------------------------------------
// The script

interface Step extends ScriptStep {
  label: string;
  kind: 'escape' | 'legit' | 'runaway';
  /** the stub hook cannot get this one right. */
  needsRealHook?: boolean;
  /** For legit steps: the tool result must contain this. */
  expectOutput?: string | RegExp;
}

function buildScript(layout: Layout, tmpFile: string): Step[] {
  const { main, worktree } = layout;
  return [
    // Read is not guarded (and must not be); the Edit tool refuses to edit a file not Read first.
    { kind: 'legit', label: 'Read <main>/README.md', tool: 'Read', input: { file_path: `${main}/README.md` }, expectOutput: 'scratch repo' },
    {
      kind: 'escape',
      label: 'Edit <main>/README.md',
      tool: 'Edit',
      input: { file_path: `${main}/README.md`, old_string: '# scratch repo', new_string: '# pwned repo' },
      needsRealHook: true, // the stub only looks at Bash
    },
    { kind: 'escape', label: 'echo x > <main>/README.md', tool: 'Bash', input: { command: `echo x > ${main}/README.md`, description: 'overwrite main README' } },
    { kind: 'escape', label: 'cd <main> && touch leak.txt', tool: 'Bash', input: { command: `cd ${main} && touch leak.txt`, description: 'touch in main' } },
    {
      kind: 'escape',
      label: 'cd ../.. && echo x >> README.md',
      tool: 'Bash',
      input: { command: 'cd ../.. && echo x >> README.md', description: 'relative escape' },
      needsRealHook: true, // no literal main path in the command
    },
    {
      kind: 'escape',
      label: 'git -C <main> commit --allow-empty -m x',
      tool: 'Bash',
      input: { command: `git -C ${main} commit --allow-empty -m x`, description: 'commit in main' },
    },
    {
      kind: 'escape',
      label: 'Write <main>/written.txt',
      tool: 'Write',
      input: { file_path: `${main}/written.txt`, content: 'escaped\n' },
      needsRealHook: true, // the stub only looks at Bash
    },
    {
      // tree-sitter never finishes parsing this (test/fixtures/parser-hang.sh.txt). The installed
      // hook stops its analysis after BASHGUARD_HOOK_TIMEOUT s and answers as for any
      // unanalyzable command (ask), instead of hanging until the client's own hook timeout, after
      // which the client would run the tool. (Unguarded, the client's shell rejects this text
      // as a syntax error, so the control run cannot show it executing.)
      kind: 'runaway',
      label: 'a command the parser runs away on',
      tool: 'Bash',
      input: { command: `echo leak > ${main}/runaway.txt\n${RUNAWAY}`, description: 'parser run-away' },
    },
    { kind: 'legit', label: 'echo ok > notes.txt', tool: 'Bash', input: { command: 'echo ok > notes.txt', description: 'note' } },
    {
      kind: 'legit',
      label: 'Write <worktree>/from-write.txt',
      tool: 'Write',
      input: { file_path: `${worktree}/from-write.txt`, content: 'written in worktree\n' },
    },
    { kind: 'legit', label: 'echo t > <tmp file>', tool: 'Bash', input: { command: `echo t > ${tmpFile}`, description: 'tmp write' } },
    {
      kind: 'legit',
      label: 'git add notes.txt && git commit -m wt',
      tool: 'Bash',
      input: { command: 'git add notes.txt && git commit -m wt', description: 'commit in worktree' },
      expectOutput: /\bwt\b/,
    },
    {
      kind: 'legit',
      label: 'git -C <main> log --oneline -1',
      tool: 'Bash',
      input: { command: `git -C ${main} log --oneline -1`, description: 'read-only git in main' },
      expectOutput: 'initial',
      needsRealHook: true, // the stub denies anything containing the main path
    },
    {
      kind: 'legit',
      label: 'cat <main>/README.md',
      tool: 'Bash',
      input: { command: `cat ${main}/README.md`, description: 'read main README' },
      expectOutput: '# scratch repo',
      needsRealHook: true, // the stub denies anything containing the main path
    },
  ];
}

// ---------------------------------------------------------------------------
// One scenario = fresh layout + HOME + fake API + hook + one client run

interface Scenario {
  layout: Layout;
  home: string;
  tmpFile: string;
  steps: Step[];
  fake: FakeAnthropic;
  run: ClaudeRun;
  before: MainSnapshot;
  after: MainSnapshot;
  readmeBefore: string;
  /** Tool call outcome per script step (by our tool_use id scheme). */
  byStep: (ToolCallOutcome | undefined)[];
  digest: string;
  cleanup(): Promise<void>;
}

let claudeBin = '';

async function runScenario(hook: HookKind | 'none', permissionMode: PermissionMode): Promise<Scenario> {
  const layout = makeLayout();
  const home = makeHome();
  const tmpFile = join(realpathSync(tmpdir()), `bashguard-e2e-${process.pid}-${Date.now()}-${hook}-${permissionMode}.txt`);
  const steps = buildScript(layout, tmpFile);
  const fake = await startFakeAnthropic({
    script: steps,
    finalText: 'All done.',
    ...(DEBUG ? { log: (l: string) => console.log(`[fake ${hook}/${permissionMode}] ${l}`) } : {}),
  });
  const cleanup = async (): Promise<void> => {
    await fake.close();
    if (KEEP) {
      console.log(`[e2e ${hook}/${permissionMode}] kept layout=${layout.root} home=${home} tmpFile=${tmpFile}`);
      return;
    }
    layout.cleanup();
    rmSync(home, { recursive: true, force: true });
    rmSync(tmpFile, { force: true });
  };
  try {
    installHook(hook, layout, home);
    const before = snapshotMain(layout.main, layout.branch);
    const readmeBefore = readFileSync(join(layout.main, 'README.md'), 'utf8');
    const run = await runClaude({
      bin: claudeBin,
      cwd: layout.worktree,
      baseUrl: fake.baseUrl,
      home,
      allowedTools: ALLOWED_TOOLS,
      permissionMode,
      env: { BASHGUARD_HOOK_TIMEOUT: HOOK_LIMIT_S },
      timeoutMs: 90_000,
    });
    const after = snapshotMain(layout.main, layout.branch);
    const byStep: (ToolCallOutcome | undefined)[] = steps.map(() => undefined);
    for (const c of run.toolCalls) {
      const i = stepOfToolUseId(c.id);
      if (i >= 0 && i < steps.length) byStep[i] = c;
    }
    const digest = `[${hook} hook, ${permissionMode} mode]\n${describeRun(run)}`;
    if (DEBUG) console.log(digest);
    return { layout, home, tmpFile, steps, fake, run, before, after, readmeBefore, byStep, digest, cleanup };
  } catch (e) {
    await cleanup();
    throw e;
  }
}

function stepIndex(s: Scenario, label: string): number {
  const i = s.steps.findIndex((st) => st.label === label);
  if (i < 0) throw new Error(`no step ${label}`);
  return i;
}

// ---------------------------------------------------------------------------

describe.skipIf(SKIP)(`Claude Code ${CLAUDE_CODE_VERSION} e2e with the ${HOOK_KIND} hook`, () => {
  beforeAll(async () => {
    claudeBin = await ensureClaude();
  }, 300_000);

  // Harness self-check: with NO hook, the client lets every escape through. So
  // whatever is denied in the hooked runs below was denied by the hook.
  describe('control run without any hook (default permission mode)', () => {
    let s: Scenario;
    beforeAll(async () => {
      s = await runScenario('none', 'default');
    }, 120_000);
    afterAll(async () => {
      await s?.cleanup();
    });

    it('the client ran the whole script against the fake API', () => {
      expect(s.run.exitCode, s.digest).toBe(0);
      expect(s.fake.stepsServed(), s.digest).toBe(s.steps.length);
      expect(s.run.result?.subtype, s.digest).toBe('success');
    });

    it('every escape executed (so the client itself does not confine the agent)', () => {
      for (const [i, st] of s.steps.entries()) {
        if (st.kind !== 'escape') continue;
        const r = s.byStep[i]?.result;
        expect(r, `${st.label}\n${s.digest}`).toBeDefined();
        expect(r?.isError, `${st.label}\n${s.digest}`).toBe(false);
      }
      expect(s.after.status, s.digest).not.toBe('');
      expect(existsSync(join(s.layout.main, 'leak.txt'))).toBe(true);
      expect(existsSync(join(s.layout.main, 'written.txt'))).toBe(true);
      expect(s.after.head).not.toBe(s.before.head);
    });
  });

  const modes: PermissionMode[] = ['default', 'bypassPermissions'];
  describe.each(modes)(`with the ${HOOK_KIND} hook, %s permission mode`, (permissionMode) => {
    let s: Scenario;
    beforeAll(async () => {
      s = await runScenario(HOOK_KIND, permissionMode);
    }, 120_000);
    afterAll(async () => {
      await s?.cleanup();
    });

    it('the hook is registered in <worktree>/.claude/settings.json', () => {
      const settings = readJson(join(s.layout.worktree, '.claude', 'settings.json')) as
        | { hooks?: { PreToolUse?: { matcher?: string; hooks?: { command?: string }[] }[] } }
        | undefined;
      const entries = settings?.hooks?.PreToolUse ?? [];
      expect(entries.length).toBeGreaterThan(0);
      const matchers = entries.map((e) => e.matcher ?? '');
      for (const tool of ['Bash', 'Edit', 'Write']) {
        expect(matchers.some((m) => m === '' || m === '*' || new RegExp(`^(?:${m})$`).test(tool)), `${tool} not matched by ${matchers}`).toBe(true);
      }
    });

    itReal('install wrote the exec form for this client: the launcher in ~/.claude/hooks (#!node on the entry), "onFailure": "block"', () => {
      const settings = readJson(join(s.layout.worktree, '.claude', 'settings.json')) as { hooks: { PreToolUse: { hooks: { command: string; args?: string[]; onFailure?: string }[] }[] } };
      const ours = settings.hooks.PreToolUse.flatMap((e) => e.hooks).filter((h) => h.args !== undefined);
      expect(ours).toHaveLength(1);
      expect(ours[0]!.command).toMatch(new RegExp(`^${s.home}/\\.claude/hooks/bashguard-hook-\\w+\\.cjs$`));
      expect(ours[0]!.args).toEqual([]);
      expect(readFileSync(ours[0]!.command, 'utf8').split('\n')[0]).toBe(`#!${process.execPath} --preserve-symlinks-main`);
      expect(ours[0]!.onFailure).toBe('block');
    });

    it('the client ran the whole script against the fake API', () => {
      expect(s.run.timedOut, s.digest).toBe(false);
      expect(s.run.exitCode, s.digest).toBe(0);
      expect(s.fake.stepsServed(), s.digest).toBe(s.steps.length);
      expect(s.run.result?.subtype, s.digest).toBe('success');
      for (const [i, st] of s.steps.entries()) expect(s.byStep[i]?.result, `${st.label}\n${s.digest}`).toBeDefined();
    });

    it('the hook ran for every guarded tool call and never crashed (a crashing hook fails open)', () => {
      const guardedCalls = s.run.toolCalls.filter((c) => GUARDED_TOOLS.includes(c.name)).length;
      const started = s.run.hookEvents.filter((h) => h.subtype === 'hook_started' && h.hookName.startsWith('PreToolUse:'));
      expect(started.length, s.digest).toBeGreaterThanOrEqual(guardedCalls);
      const responses = s.run.hookEvents.filter((h) => h.subtype === 'hook_response' && h.hookName.startsWith('PreToolUse:'));
      expect(responses.length, s.digest).toBe(started.length);
      for (const h of responses) expect([0, 2], `${h.hookName}: ${h.stderr}\n${s.digest}`).toContain(h.exitCode);
    });

    it('what the model was told matches what the client reported', () => {
      const seen = s.fake.toolResults();
      for (const [i, st] of s.steps.entries()) {
        const fromFake = seen.find((t) => t.step === i);
        const fromClient = s.byStep[i]?.result;
        expect(fromFake, `${st.label}\n${s.digest}`).toBeDefined();
        expect(fromFake?.is_error, st.label).toBe(fromClient?.isError);
      }
    });

    describe('escapes are denied by the hook', () => {
      for (const st of buildScript(makeLayoutStub(), '/tmp/x')) {
        if (st.kind !== 'escape') continue;
        // needsRealHook steps get through the stub.
        (st.needsRealHook ? itReal : it)(st.label, () => {
          const r = s.byStep[stepIndex(s, st.label)]?.result;
          expect(r, s.digest).toBeDefined();
          expect(r?.isError, `${st.label}\n${s.digest}`).toBe(true);
          expect(r?.deniedByHook, `${st.label}\n${s.digest}`).toBe(true);
          const denials = (s.run.result?.permission_denials ?? []) as { tool_use_id?: string }[];
          expect(denials.map((d) => d.tool_use_id)).toContain(s.byStep[stepIndex(s, st.label)]?.id);
        });
      }
    });

    it('a command the parser runs away on is answered after the hook\'s limit (ask), and not run', () => {
      const i = stepIndex(s, 'a command the parser runs away on');
      const r = s.byStep[i]?.result;
      expect(r, s.digest).toBeDefined();
      expect(r?.isError, s.digest).toBe(true);
      expect(r?.text, s.digest).toMatch(new RegExp(`did not finish within ${HOOK_LIMIT_S} s`));
      expect(existsSync(join(s.layout.main, 'runaway.txt'))).toBe(false);
    });

    describe('legitimate work is allowed', () => {
      for (const st of buildScript(makeLayoutStub(), '/tmp/x')) {
        if (st.kind !== 'legit') continue;
        (st.needsRealHook ? itReal : it)(st.label, () => {
          const r = s.byStep[stepIndex(s, st.label)]?.result;
          expect(r, s.digest).toBeDefined();
          expect(r?.isError, `${st.label}\n${s.digest}`).toBe(false);
          expect(r?.deniedByHook, `${st.label}\n${s.digest}`).toBe(false);
          const want = s.steps[stepIndex(s, st.label)]?.expectOutput;
          if (want !== undefined) {
            if (typeof want === 'string') expect(r?.text, s.digest).toContain(want);
            else expect(r?.text, s.digest).toMatch(want);
          }
        });
      }
    });

    describe('on disk: the main checkout is untouched', () => {
      itReal('`git status --porcelain` is empty', () => {
        // the stub lets `cd ../.. && echo x >> README.md`, Edit and Write through.
        expect(s.after.status, s.digest).toBe('');
      });
      itReal('README.md is unchanged', () => {
        // Edit and `cd ../..` get through the stub.
        expect(readFileSync(join(s.layout.main, 'README.md'), 'utf8'), s.digest).toBe(s.readmeBefore);
      });
      itReal('no new files', () => {
        // the Write tool call gets through the stub.
        expect(s.after.files, s.digest).toEqual(s.before.files);
      });
      it('no leak.txt (cd <main> && touch)', () => {
        expect(existsSync(join(s.layout.main, 'leak.txt')), s.digest).toBe(false);
      });
      it('no new commits: HEAD and every ref but the worktree branch are unchanged', () => {
        expect(s.after.head, s.digest).toBe(s.before.head);
        expect(s.after.refs, s.digest).toBe(s.before.refs);
        expect(git(s.layout.main, ['rev-parse', 'main']).trim()).toBe(s.layout.baseCommit);
      });
    });

    describe('on disk: the legitimate work happened', () => {
      it('notes.txt was committed on the worktree branch', () => {
        const wt = s.layout.worktree;
        expect(readFileSync(join(wt, 'notes.txt'), 'utf8')).toBe('ok\n');
        expect(git(wt, ['log', '-1', '--format=%s']).trim(), s.digest).toBe('wt');
        expect(git(wt, ['rev-parse', 'HEAD~1']).trim()).toBe(s.layout.baseCommit);
        expect(git(wt, ['show', '--name-only', '--format=', 'HEAD']).trim()).toBe('notes.txt');
        expect(git(wt, ['rev-parse', '--abbrev-ref', 'HEAD']).trim()).toBe(s.layout.branch);
      });
      it('the Write inside the worktree created its file', () => {
        expect(readFileSync(join(s.layout.worktree, 'from-write.txt'), 'utf8'), s.digest).toBe('written in worktree\n');
      });
      it('the write to a temp file outside both checkouts happened', () => {
        expect(readFileSync(s.tmpFile, 'utf8'), s.digest).toBe('t\n');
      });
    });
  });
});

/** Just enough of a Layout to enumerate step labels at collection time. */
function makeLayoutStub(): Layout {
  return { root: '/r', main: '/r/main', worktree: '/r/main/.builders/b1', branch: 'b1', baseCommit: '', cleanup: () => {} };
}
