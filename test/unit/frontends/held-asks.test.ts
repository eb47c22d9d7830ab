/**
 * Which asks the kernel holds (src/frontends/held-asks.ts `unheld`), on plans as the enforcement
 * computes them: a missing control directory reserved by bubblewrap's mounts is held there and
 * named everywhere else; a control path no mount can reserve (`unreserved`) is named everywhere.
 */
import { describe, expect, it } from 'vitest';
import { heldAsk, unheld } from '../../../src/frontends/held-asks.js';
import { effectiveAccess, type SandboxPlan } from '../../../src/layers/sandbox/grants.js';
import type { Finding } from '../../../src/policy/policy.js';
import type { HookAnswer } from '../../../src/frontends/tool-call.js';

const wt = '/w/repo/.builders/b1';

function finding(rule: string, path: string | null, confidence: Finding['confidence'] = 'likely'): Finding {
  return { rule, name: rule === 'BG4001' ? 'unresolved-write' : 'tree-writer', severity: 'warning', confidence, message: 'm', path, range: { start: 0, end: 0 }, evidence: [], via: [], decision: 'ask' } as unknown as Finding;
}

/** A plan of the worktree with `.codex/` reserved (a tmpfs on it) and `.github/` made on the way to `.github/hooks/`. */
function plan(unreserved: string[] = []): SandboxPlan {
  return {
    worktree: wt,
    grants: [
      { path: '/', access: 'ro', why: 'base' },
      { path: wt, access: 'rw', why: 'the worktree' },
      { path: `${wt}/.codex`, access: 'ro', why: 'reserves', reserve: true },
      { path: `${wt}/.github`, access: 'rw', why: 'holds', pin: true, reserve: 'between' },
      { path: `${wt}/.github/hooks`, access: 'ro', why: 'reserves', reserve: true },
    ],
    unreserved,
  };
}

const covers = (p: SandboxPlan) => (path: string) => effectiveAccess(path, p.grants) === 'ro';

describe('unheld', () => {
  it('under bubblewrap, an unresolved write and a tree writer near a reserved control dir are held', () => {
    const p = plan();
    expect(unheld(finding('BG4001', null), p, covers(p), 'bwrap')).toBeNull();
    expect(unheld(finding('BG1005', `${wt}/.codex/hooks.json`), p, covers(p), 'bwrap')).toBeNull();
    expect(unheld(finding('BG1005', `${wt}/.github/hooks/pre-commit`), p, covers(p), 'bwrap')).toBeNull();
  });

  it('under Landlock or Seatbelt, a reserved path is named (no reservation is made there)', () => {
    const p = plan();
    for (const mechanism of ['landlock', 'seatbelt']) {
      expect(unheld(finding('BG4001', null), p, covers(p), mechanism)).toMatch(new RegExp(`${wt}/\\.codex \\(a control path that does not exist yet\\) is reserved only under bubblewrap's mounts \\(here: ${mechanism}\\)`));
      expect(unheld(finding('BG1005', `${wt}/.github/hooks/pre-commit`), p, covers(p), mechanism)).toMatch(/lies in \S+\/\.github\/hooks, a control path that does not exist yet/);
    }
  });

  it('a control path no mount can reserve is named under every mechanism; the worktree\'s own config is not', () => {
    const p = plan([`${wt}/.gemini/settings.json`]);
    expect(unheld(finding('BG4001', null), p, covers(p), 'bwrap')).toMatch(/\.gemini\/settings\.json \(a control file that does not exist yet\) cannot be held by the kernel/);
    expect(unheld(finding('BG1005', `${wt}/.gemini/settings.json`), p, covers(p), 'bwrap')).toMatch(/the kernel leaves \S+\/\.gemini\/settings\.json writable/);
    const own = plan([`${wt}/.bashguard.json`]);
    expect(unheld(finding('BG4001', null), own, covers(own), 'bwrap')).toBeNull();
  });

  it('what is certain, or about something no mechanism holds, is not held', () => {
    const p = plan();
    expect(unheld(finding('BG1005', `${wt}/.codex/x`, 'certain'), p, covers(p), 'bwrap')).toBe('it is certain');
    expect(unheld(finding('BG3004', null), p, covers(p), 'bwrap')).toMatch(/no OS mechanism holds what BG3004 is about/);
  });
});

describe('heldAsk', () => {
  const ask: HookAnswer = { decision: 'ask', reason: 'asked', findings: [finding('BG1005', `${wt}/.codex/hooks.json`)] };
  const allow = (mechanism: string): HookAnswer => ({ decision: 'allow', reason: 'runs enforced', findings: [], enforced: { command: 'wrapped', mechanism } });

  it('turns the ask into the enforced allow under bubblewrap, and keeps it under Landlock, saying why', () => {
    const p = plan();
    expect(heldAsk(ask, { answer: allow('bwrap'), plan: p, covers: covers(p) }).decision).toBe('allow');
    const ll = heldAsk(ask, { answer: allow('landlock'), plan: p, covers: covers(p) });
    expect(ll.decision).toBe('ask');
    expect(ll.reason).toMatch(/asked although the OS enforcement is in effect: \[BG1005\] .*reserved only under bubblewrap's mounts \(here: landlock\)/);
  });
});
