/**
 * End-to-end (issue #38): the OS enforcement of every allowed Bash call, with the REAL Claude Code
 * client in `-p` mode, bashguard installed the documented way (`install --user`, the exec form
 * with its launcher in ~/.claude/hooks/), the agent in a linked worktree at `.builders/b1`, HOME
 * outside every write root. The scripted model runs escapes the analyzer lets through (scripts,
 * a Makefile, a Python or Node file that computes its path), tampering with control files (the user
 * settings, the launcher, the shared `.git/config`, a project `.claude/settings.local.json`), and
 * legitimate work in the same session (a commit on the worktree's branch, `npm install` of a local
 * package, `pip install --target`, a test run, `cd sub` and a relative write in the NEXT call).
 *
 * The same session runs three times: with `"enforce": "off"` in the user config (the analyzer
 * alone: the escapes are counted, and must land, or the suite proves nothing), and with the
 * default for a zsh user (bashguard's helper makes bubblewrap's mounts for the inner zsh) and a bash
 * user (the wrapper makes them in the client's own shell, src/layers/sandbox/in-shell.ts): then the main checkout,
 * the sibling worktree and every control file are byte-identical, every escape was allowed by the
 * analyzer and wrapped, and the legitimate work happened.
 * Skips, saying why, where bubblewrap cannot start (BASHGUARD_REQUIRE_ALL=1: fails instead).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_CODE_VERSION, ensureClaude } from './claude.js';
import { bash, decision, e2eBase, escapeSteps, landed, legitOutcomes, makeWheel, ordinarySteps, PYENV_SHIMS, py, runSession, tamperSteps, type Session, type Step } from './escape-suite.js';
import { executable } from '../../../src/layers/sandbox/client-shell.js';
import { git } from './layout.js';
import { bwrapHere } from '../../helpers/bwrap.js';
import { HELPER_MOUNTS, ZSH } from '../../helpers/layers.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..', '..', '..');
const E2E_OFF = process.env.BASHGUARD_E2E === '0';
const BASH = ['/bin/bash', '/usr/bin/bash'].find(executable) ?? '/bin/bash';
const SKIP = E2E_OFF || !bwrapHere('the enforcement e2e', !E2E_OFF).canRun;

function script(main: string, sibling: string, home: string): Step[] {
  return [
    ...escapeSteps(main, sibling),
    bash('setup', 'write e4.js', `${py('const p = require("path"); require("fs").writeFileSync(p.resolve(process.cwd(), "..", "..", "ESC4"), "x")')} > e4.js`),
    bash('escape', 'node e4.js', 'node e4.js', { target: join(main, 'ESC4') }),
    // Legitimate work in the same session.
    ...ordinarySteps(),
    ...tamperSteps(main, home),
  ];
}

let claudeBin = '';

/** `shell`: the user's SHELL (bash: the wrapper makes the mounts in the client's own shell; zsh: the helper makes them for the inner zsh). */
function session(enforce: 'off' | null, shell: string | null = null): Promise<Session> {
  return runSession({
    label: `enforce ${enforce ?? 'default'}${shell ? `, SHELL=${shell}` : ''}`,
    prefix: 'bashguard-e2e-enforce-',
    claudeBin,
    base: e2eBase(),
    prepare: ({ main, wt, sibling, home }) => {
      makeWheel(wt);
      // A project of its own: npm installs into it (not into e2eBase's package.json), node reads its files as CommonJS.
      writeFileSync(join(wt, 'package.json'), '{"name": "b1", "private": true}\n');
      // Where python3 is a pyenv shim, its rehash after `pip install` writes the shims dir: the
      // user adds it to writeRoots, as doctor says (src/layers/sandbox/user-roots.ts).
      const config = { ...(enforce ? { enforce } : {}), ...(PYENV_SHIMS ? { writeRoots: [PYENV_SHIMS] } : {}) };
      if (Object.keys(config).length) {
        mkdirSync(join(home, '.config', 'bashguard'), { recursive: true });
        writeFileSync(join(home, '.config', 'bashguard', 'config.json'), JSON.stringify(config) + '\n');
      }
      execFileSync(process.execPath, [join(REPO, 'bin', 'bashguard.js'), 'install', '--user', '--hook-form', 'direct'], { cwd: wt, env: { PATH: process.env.PATH ?? '', HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
      return { steps: script(main, sibling, home), ...(shell ? { env: { SHELL: shell } } : {}) };
    },
  });
}

describe.skipIf(SKIP)(`Claude Code ${CLAUDE_CODE_VERSION} e2e: OS enforcement of every allowed Bash call`, () => {
  let off: Session;
  let on: Session;
  let inShell: Session;
  beforeAll(async () => {
    claudeBin = await ensureClaude();
    off = await session('off');
    on = await session(null, ZSH);
    inShell = await session(null, BASH);
  }, 600_000);
  afterAll(() => {
    off?.cleanup();
    on?.cleanup();
    inShell?.cleanup();
  });
  const enforced = () => [on, inShell];

  it('both sessions ran the whole script, and the hook answered every Bash call', () => {
    for (const s of [off, on, inShell]) {
      expect(s.run.exitCode, s.digest).toBe(0);
      for (const [i, st] of s.steps.entries()) expect(s.byStep[i]?.result, `${st.label}\n${s.digest}`).toBeDefined();
    }
    // (without enforcement the tampering switches the hook off for the calls after it)
    for (const s of enforced()) expect(s.answers.length, s.digest).toBe(s.steps.length);
  });

  it('the analyzer allowed every escape and tamper attempt of the suite (these are the ones it misses)', () => {
    // (read from the enforced session, where no step can switch the hook off)
    for (const [i, st] of on.steps.entries()) {
      if (st.kind !== 'escape' && st.kind !== 'tamper') continue;
      expect(decision(on.answers[i]!).decision, `${st.label}: ${on.answers[i]}`).toBe('allow');
    }
  });

  it('without enforcement the escapes land (the suite is real); with it, none does', () => {
    const attempts = off.steps.filter((st) => st.kind === 'escape' || st.kind === 'tamper');
    const landedOff = attempts.filter((st) => landed(off, st)).map((st) => st.label);
    const landedIn = (s: Session) => s.steps.filter((st) => st.kind === 'escape' || st.kind === 'tamper').filter((st) => landed(s, st)).map((st) => st.label);
    console.log(`[enforce e2e] escapes and tampering that landed: ${landedOff.length}/${attempts.length} with "enforce": "off", ${landedIn(on).length}/${attempts.length} with the helper's mounts (zsh), ${landedIn(inShell).length}/${attempts.length} with the mounts in the client's bash; not landed without enforcement: ${attempts.filter((st) => !landedOff.includes(st.label)).map((st) => st.label).join('; ') || 'none'}`);
    expect(landedOff.length, `landed without enforcement: ${landedOff.join('; ')}\n${off.digest}`).toBe(attempts.length);
    for (const s of enforced()) expect(landedIn(s), s.digest).toEqual([]);
  });

  it('with enforcement, every allowed Bash call ran wrapped, and main, the sibling and every control file are byte-identical', () => {
    for (const s of enforced()) {
      for (const [i, st] of s.steps.entries()) expect(decision(s.answers[i]!).wrapped, `${st.label}: ${s.answers[i]}`).toBe(true);
      for (const k of Object.keys(s.before)) expect(s.after[k], `${k}\n${s.digest}`).toBe(s.before[k]);
    }
    // The client's bash makes the mounts itself; for zsh the helper makes them.
    for (const [i, st] of inShell.steps.entries()) expect(decision(inShell.answers[i]!).command, st.label).toMatch(/bashguard_mounts/);
    if (ZSH) for (const [i, st] of on.steps.entries()) expect(decision(on.answers[i]!).command, st.label).toMatch(HELPER_MOUNTS);
  });

  it('with enforcement, the legitimate work of the same session happened', () => {
    for (const s of enforced()) {
      for (const o of legitOutcomes(s)) expect(o.ok, `${o.label}\n${o.text}\n${s.digest}`).toBe(true);
      expect(git(s.wt, ['log', '--format=%s', '-1']).trim()).toBe('wt');
      expect(existsSync(join(s.wt, 'node_modules', 'localpkg', 'package.json'))).toBe(true);
      expect(existsSync(join(s.wt, 'vendor', 'pypkg', '__init__.py'))).toBe(true);
      expect(readFileSync(join(s.wt, 'sub', 'rel.txt'), 'utf8')).toBe('rel\n');
    }
  });
});
