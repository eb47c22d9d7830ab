/**
 * End-to-end: the `sandbox` decision through the REAL Claude Code client in headless mode (`claude
 * -p` against the scripted Messages API on loopback, see ./README.md). The trusted config in the
 * main checkout says `"unanalyzable": "sandbox"` and `"decisions": {"possible": "sandbox"}`; the
 * hook answers commands it cannot decide statically with allow + `updatedInput.command` wrapped in
 * `bashguard sandbox run`, and the client runs the wrapped command. Dynamic escapes run and change
 * nothing outside the worktree; legitimate work (a commit, a build, its test) succeeds inside the
 * sandbox; a certain escape is still denied outright. Skips, saying why, without bubblewrap.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_REASONS, cannotRun, platformSkip } from '../../helpers/shared.js';
import { CLAUDE_CODE_VERSION, describeRun, ensureClaude, makeHome, runClaude, type ClaudeRun } from './claude.js';
import { startFakeAnthropic, stepOfToolUseId, type FakeAnthropic, type ScriptStep } from './fake-anthropic.js';
import { git, makeLayout, snapshotMain, type Layout, type MainSnapshot } from './layout.js';
import { bwrapAvailable } from '../../../src/layers/sandbox/index.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..', '..', '..');
const avail = bwrapAvailable(process.env);
const SKIP = process.env.BASHGUARD_E2E === '0' || process.platform !== 'linux' || !avail.ok;
if (!avail.ok && process.env.BASHGUARD_E2E !== '0') {
  if (process.platform === 'linux') cannotRun(`the sandbox-decision e2e: ${avail.reason}`);
  else platformSkip(true, `the sandbox-decision e2e: ${PLATFORM_REASONS.linuxOnly}`);
}

interface Step extends ScriptStep {
  label: string;
  kind: 'dynamic-escape' | 'certain-escape' | 'legit';
  expectOutput?: string | RegExp;
  /** Whether the hook should have replaced the command with the sandboxed one. */
  sandboxed: boolean;
}

function script(main: string): Step[] {
  const bash = (label: string, kind: Step['kind'], command: string, sandboxed: boolean, expectOutput?: string | RegExp): Step => ({ label, kind, tool: 'Bash', input: { command, description: label }, sandboxed, ...(expectOutput ? { expectOutput } : {}) });
  return [
    // Computed by a program the analysis does not model (printf output is computed, base64 is not).
    bash('eval of a computed cd ../.. and a write', 'dynamic-escape', `eval "$(echo Y2QgLi4vLi4gJiYgZWNobyBwd25lZCA+PiBSRUFETUUubWQ= | base64 -d)"`, true),
    bash('write the main checkout\'s path into a file in the worktree', 'legit', `printf '%s\\n' '${main}' > target.txt`, false),
    bash('git -C "$(cat target.txt)" commit: a repository read at run time', 'dynamic-escape', 'git -C "$(cat target.txt)" commit --allow-empty -qm pwned', true),
    bash('sh -c of a computed script writing the main checkout and its hooks', 'dynamic-escape', `sh -c "$(printf 'touch %s/leak.txt; echo evil > %s/.git/hooks/pre-commit' "$(cat target.txt)" "$(cat target.txt)")"`, true),
    bash('a certain escape is still denied', 'certain-escape', `echo x > ${main}/README.md`, false),
    // Project scripts whose content is only known at run time (`eval "$(cat ...)"`): sandboxed.
    bash('write the build and test scripts', 'legit', `printf '%s\\n' 'mkdir -p out && cp src/app.sh out/app && chmod +x out/app' > build.sh && printf '%s\\n' 'test "$(./out/app)" = app && echo tests passed' > test.sh`, false),
    bash('build: eval "$(cat build.sh)"', 'legit', 'eval "$(cat build.sh)"', true),
    bash('test: eval "$(cat test.sh)"', 'legit', 'eval "$(cat test.sh)"', true, 'tests passed'),
    bash('commit the build from a script', 'legit', `printf '%s\\n' 'git add out && git commit -qm built && git log -1 --format=%s' > commit.sh && eval "$(cat commit.sh)"`, true, 'built'),
    bash('a plain command is not wrapped', 'legit', 'echo plain > plain.txt && cat plain.txt', false, 'plain'),
  ];
}

describe.skipIf(SKIP)(`Claude Code ${CLAUDE_CODE_VERSION} e2e: the sandbox decision`, () => {
  let layout: Layout;
  let home: string;
  let fake: FakeAnthropic;
  let run: ClaudeRun;
  let steps: Step[];
  let before: MainSnapshot;
  let after: MainSnapshot;
  let digest: string;
  const outcome = (label: string) => run.toolCalls.find((c) => stepOfToolUseId(c.id) === steps.findIndex((s) => s.label === label));

  beforeAll(async () => {
    const bin = await ensureClaude();
    layout = makeLayout('bashguard-e2e-sbx-');
    home = makeHome();
    steps = script(layout.main);
    writeFileSync(join(layout.main, '.bashguard.json'), JSON.stringify({ unanalyzable: 'sandbox', decisions: { possible: 'sandbox' } }));
    git(layout.main, ['add', '.bashguard.json']);
    git(layout.main, ['commit', '-q', '-m', 'bashguard config']);
    execFileSync(process.execPath, [join(REPO, 'bin', 'bashguard.js'), 'install', '--project'], { cwd: layout.worktree, env: { PATH: process.env.PATH ?? '', HOME: home }, stdio: 'pipe' });
    fake = await startFakeAnthropic({ script: steps, finalText: 'done' });
    before = snapshotMain(layout.main, layout.branch);
    run = await runClaude({ bin, cwd: layout.worktree, baseUrl: fake.baseUrl, home, allowedTools: ['Bash'], permissionMode: 'default', timeoutMs: 120_000 });
    after = snapshotMain(layout.main, layout.branch);
    digest = describeRun(run);
  }, 300_000);
  afterAll(async () => {
    await fake?.close();
    layout?.cleanup();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('the client ran the whole script', () => {
    expect(run.exitCode, digest).toBe(0);
    expect(fake.stepsServed(), digest).toBe(steps.length);
    for (const s of steps) expect(outcome(s.label)?.result, `${s.label}\n${digest}`).toBeDefined();
  });

  it('undecidable commands were allowed with the command replaced by the sandboxed one; others were not', () => {
    const responses = run.hookEvents.filter((h) => h.subtype === 'hook_response' && h.hookName === 'PreToolUse:Bash');
    expect(responses.length, digest).toBe(steps.length);
    for (const [i, s] of steps.entries()) {
      const out = responses[i]?.stdout ?? "";
      if (s.sandboxed) {
        const h = (JSON.parse(out) as { hookSpecificOutput: { permissionDecision: string; updatedInput: { command: string } } }).hookSpecificOutput;
        expect(h.permissionDecision, s.label).toBe('allow');
        expect(h.updatedInput.command, s.label).toContain(' sandbox run -C ');
      } else expect(out, s.label).not.toContain(' sandbox run -C '); // (plain, or wrapped by the OS enforcement of allowed calls)
    }
  });

  it('dynamic escapes ran inside the sandbox and failed there; the certain one was denied', () => {
    for (const s of steps.filter((x) => x.kind === 'dynamic-escape')) {
      const r = outcome(s.label)!.result!;
      expect(r.deniedByHook, `${s.label}\n${digest}`).toBe(false);
      expect(r.isError, `${s.label}\n${digest}`).toBe(true);
      expect(r.text, s.label).toMatch(/Read-only file system|cannot|fatal/);
    }
    expect(outcome('a certain escape is still denied')!.result!.deniedByHook, digest).toBe(true);
  });

  it('nothing changed outside the worktree: status, files, refs, hooks', () => {
    expect(after.status, digest).toBe('');
    expect(after.files, digest).toEqual(before.files);
    expect(after.head).toBe(before.head);
    expect(after.refs).toBe(before.refs);
    expect(readFileSync(join(layout.main, 'README.md'), 'utf8')).toBe('# scratch repo\n');
    expect(existsSync(join(layout.main, 'leak.txt'))).toBe(false);
    expect(existsSync(join(layout.main, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  it('legitimate work succeeded inside the sandbox: the build, its test, the commit on the worktree branch', () => {
    for (const s of steps.filter((x) => x.kind === 'legit')) {
      const r = outcome(s.label)!.result!;
      expect(r.isError, `${s.label}\n${r.text}\n${digest}`).toBe(false);
      if (typeof s.expectOutput === 'string') expect(r.text).toContain(s.expectOutput);
      else if (s.expectOutput) expect(r.text).toMatch(s.expectOutput);
    }
    expect(git(layout.worktree, ['log', '-1', '--format=%s']).trim()).toBe('built');
    expect(git(layout.worktree, ['show', '--name-only', '--format=', 'HEAD']).trim()).toBe('out/app');
    expect(readFileSync(join(layout.worktree, 'plain.txt'), 'utf8')).toBe('plain\n');
  });
});
