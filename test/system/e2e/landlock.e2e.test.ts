/**
 * End-to-end (issue #38): the Landlock enforcement (`"enforce": "landlock"`) with the REAL Claude
 * Code client in `-p` mode, bashguard installed the documented way (`install --user`), the agent
 * in a linked worktree at `.builders/b1`, HOME outside every write root. Where the client's shell
 * is bash, the hook's wrapper confines that very shell (native/landlock-builtin.c) and the command
 * runs in it as unwrapped: a function of the user's startup files, which reaches only the client's own
 * shell (through its shell snapshot), runs; the client then writes its cwd file as usual, so a
 * `cd` carries over to the next call.
 *
 * The same escapes and tampering as enforce.e2e.test.ts, their files written under `scripts/` (a
 * new top-level entry of the worktree is refused under Landlock: docs/limits.md), and the
 * legitimate work of the same session (a commit on the worktree's branch, `cd sub` then a relative
 * write, `npm install` and a test run there). Two sessions: `"enforce": "off"` (every escape must
 * land, or the suite proves nothing) and `"landlock"` (none may; every allowed Bash call wrapped,
 * in the client's shell; the legitimate work done).
 * Skips, saying why, where Landlock cannot be used (BASHGUARD_REQUIRE_ALL=1: fails instead).
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_REASONS, cannotRun, platformSkip } from '../../helpers/shared.js';
import { CLAUDE_CODE_VERSION, ensureClaude } from './claude.js';
import { bash, cdSteps, decision, escapeSteps, landed, legitOutcomes, py, runSession, tamperSteps, type Session, type Step } from './escape-suite.js';
import { git } from './layout.js';
import { landlockAvailable, landlockBuiltin } from '../../../src/layers/sandbox/probes.js';
import { executable } from '../../../src/layers/sandbox/client-shell.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..', '..', '..');
const E2E_OFF = process.env.BASHGUARD_E2E === '0';

function landlockHere(): boolean {
  if (E2E_OFF) return false;
  const home = mkdtempSync(join(tmpdir(), 'bashguard-e2e-llprobe-'));
  try {
    const a = landlockAvailable({ HOME: home, PATH: process.env.PATH });
    const why = !a.ok ? a.why : !landlockBuiltin(a.helper!) ? 'the Landlock builtin (build/Release/bashguard-landlock.so) is not installed' : null;
    if (why && process.platform === 'linux') cannotRun(`the Landlock e2e: ${why}`);
    else if (why) platformSkip(true, `the Landlock e2e: ${PLATFORM_REASONS.linuxOnly}`);
    return why === null;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
const SKIP = E2E_OFF || !landlockHere();

const BASH = ['/bin/bash', '/usr/bin/bash'].find(executable) ?? '/bin/bash';
const GREETING = 'hello from the user startup files';
const ROOT_INSTALL = 'npm install at the worktree root (node_modules a new top-level entry)';

function script(main: string, sibling: string, home: string, wt: string): Step[] {
  // Absolute: the calls after `cd sub` run them too.
  const at = `${wt}/scripts/`;
  return [
    ...escapeSteps(main, sibling, at),
    bash('legit', "a function of the user's startup files (only the client's own shell has it)", 'bg_greet'),
    bash('legit', 'commit on the worktree branch', 'echo ok >> README.md && git add README.md && git commit -qm wt && git log --format=%s -1', { expectOutput: /\bwt\b/ }),
    ...cdSteps(),
    bash('legit', 'npm install of a local package (in sub)', 'npm install ../localpkg --offline --no-audit --no-fund --loglevel=error && node -e "console.log(require(\'localpkg\').v)"', { expectOutput: 'local-v1' }),
    bash('legit', 'a test run (in sub)', `${py('const t = require("node:test"); const a = require("node:assert"); t.test("adds", () => a.strictEqual(1 + 1, 2));')} > sum.test.js && node --test sum.test.js`, { expectOutput: /pass 1/ }),
    // A known limit of the default line (docs/limits.md, src/layers/sandbox/landlock-line.ts): no new
    // top-level entry of the worktree under Landlock's "held" line, so an install that creates
    // `node_modules` at the root fails there ("landlockWorktree": "whole" lets it run, and leaves the
    // worktree's control files, the t4 tamper's target, to the analyzer).
    bash('setup', ROOT_INSTALL, `(cd ${wt} && npm install ./localpkg --offline --no-audit --no-fund --loglevel=error && node -e "console.log(require('localpkg').v)")`, { expectOutput: 'local-v1' }),
    ...tamperSteps(main, home, [], at),
  ].map((st) => (st.label.startsWith("a function of the user's") ? { ...st, expectOutput: GREETING } : st));
}

let claudeBin = '';

function session(enforce: 'off' | 'landlock'): Promise<Session> {
  return runSession({
    label: `landlock e2e, enforce ${enforce}`,
    prefix: 'bashguard-e2e-landlock-',
    claudeBin,
    prepare: ({ main, wt, sibling, home }) => {
      mkdirSync(join(wt, 'scripts'));
      mkdirSync(join(wt, 'sub'));
      // (Claude Code takes the user's functions into its shell snapshot from an interactive bash,
      // which reads ~/.bashrc; without a snapshot it runs a login shell, which reads ~/.bash_profile)
      for (const f of ['.bashrc', '.bash_profile']) appendFileSync(join(home, f), `bg_greet() { echo '${GREETING}'; }\n`);
      mkdirSync(join(home, '.config', 'bashguard'), { recursive: true });
      writeFileSync(join(home, '.config', 'bashguard', 'config.json'), JSON.stringify({ enforce }) + '\n');
      execFileSync(process.execPath, [join(REPO, 'bin', 'bashguard.js'), 'install', '--user', '--hook-form', 'direct'], { cwd: wt, env: { PATH: process.env.PATH ?? '', HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
      // (a bash user: Claude Code takes zsh first where SHELL does not name bash)
      return { steps: script(main, sibling, home, wt), env: { SHELL: BASH } };
    },
  });
}

describe.skipIf(SKIP)(`Claude Code ${CLAUDE_CODE_VERSION} e2e: Landlock in the client's own shell`, () => {
  let off: Session;
  let on: Session;
  beforeAll(async () => {
    claudeBin = await ensureClaude();
    off = await session('off');
    on = await session('landlock');
  }, 600_000);
  afterAll(() => {
    off?.cleanup();
    on?.cleanup();
  });

  it('both sessions ran the whole script, and the hook answered every Bash call', () => {
    for (const s of [off, on]) {
      expect(s.run.exitCode, s.digest).toBe(0);
      for (const [i, st] of s.steps.entries()) expect(s.byStep[i]?.result, `${st.label}\n${s.digest}`).toBeDefined();
    }
    expect(on.answers.length, on.digest).toBe(on.steps.length);
  });

  it('without enforcement the escapes land (the suite is real); under Landlock none does, and main, the sibling and every control file are byte-identical', () => {
    const attempts = (s: Session) => s.steps.filter((st) => st.kind === 'escape' || st.kind === 'tamper');
    const landedOff = attempts(off).filter((st) => landed(off, st)).map((st) => st.label);
    const landedOn = attempts(on).filter((st) => landed(on, st)).map((st) => st.label);
    console.log(`[landlock e2e] escapes and tampering that landed: ${landedOff.length}/${attempts(off).length} with "enforce": "off", ${landedOn.length}/${attempts(on).length} under Landlock`);
    expect(landedOff, off.digest).toEqual(attempts(off).map((st) => st.label));
    expect(landedOn, on.digest).toEqual([]);
    for (const k of Object.keys(on.before)) expect(on.after[k], `${k}\n${on.digest}`).toBe(on.before[k]);
  });

  it("every Bash call was allowed with the wrapper that confines the client's own shell", () => {
    for (const [i, st] of on.steps.entries()) {
      const d = decision(on.answers[i]!);
      expect(d.decision, `${st.label}: ${on.answers[i]}`).toBe('allow');
      expect(d.command, st.label).toMatch(/^__bg_c=[\s\S]*; if builtin enable -f \S+\/bashguard-landlock\.so bashguard_landlock /);
    }
  });

  it("the legitimate work of the same session happened, in the client's shell (a function of the user's startup files ran, a cd carried over)", () => {
    for (const o of legitOutcomes(on)) expect(o.ok, `${o.label}\n${o.text}\n${on.digest}`).toBe(true);
    expect(git(on.wt, ['log', '--format=%s', '-1']).trim()).toBe('wt');
    expect(readFileSync(join(on.wt, 'sub', 'rel.txt'), 'utf8')).toBe('rel\n');
    expect(existsSync(join(on.wt, 'sub', 'node_modules', 'localpkg', 'package.json'))).toBe(true);
  });

  it('without enforcement, npm install at the worktree root runs', () => {
    const i = off.steps.findIndex((st) => st.label === ROOT_INSTALL);
    expect(off.byStep[i]?.result?.text, off.digest).toContain('local-v1');
  });

  // Issue 51 ("ordinary work runs unchanged"), not met under Landlock's default line: EACCES on mkdir node_modules.
  it.fails('under Landlock, npm install at the worktree root runs (LANDS: issue 51, ordinary work refused under Landlock)', () => {
    const i = on.steps.findIndex((st) => st.label === ROOT_INSTALL);
    expect(on.byStep[i]?.result?.isError, on.digest).toBe(false);
    expect(on.byStep[i]?.result?.text).toContain('local-v1');
  });
});
