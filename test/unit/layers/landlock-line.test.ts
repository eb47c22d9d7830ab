/**
 * The line Landlock holds in the worktree (src/layers/sandbox/landlock-line.ts), and what the
 * decisions make of it (src/frontends/held-asks.ts): the worktree's own control files leave the
 * plan for its `unheld` list, everything else read-only stays, and an ask about a path the plan
 * no longer holds is never turned into the enforced allow.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { landlockLine, landlockLineSaid } from '../../../src/layers/sandbox/landlock-line.js';
import { effectiveAccess, planCovers, type SandboxPlan } from '../../../src/layers/sandbox/grants.js';
import { heldAsk, unheld } from '../../../src/frontends/held-asks.js';
import type { Workspace } from '../../../src/policy/workspace/index.js';
import type { Finding } from '../../../src/policy/policy.js';
import { DEFAULT_CONFIG, parseConfigLayer } from '../../../src/policy/config.js';
import { tighten } from '../../../src/policy/workspace/index.js';

const d = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-llline-')));
afterAll(() => rmSync(d, { recursive: true, force: true }));
const W = join(d, 'wt');
mkdirSync(join(W, 'nested'), { recursive: true });
mkdirSync(join(W, 'tools', 'pkg'), { recursive: true });
mkdirSync(join(W, '.codex'), { recursive: true });
writeFileSync(join(W, '.git'), 'gitdir: elsewhere\n');

const ws = {
  regions: [
    { kind: 'protected', root: join(W, '.git'), why: 'the .git file' },
    { kind: 'protected', root: join(W, '.claude', 'settings.json'), why: 'client settings' },
    { kind: 'protected', root: join(W, '.codex', 'hooks.json'), why: 'client hooks' },
    { kind: 'protected', root: join(W, '.bashguard.json'), why: 'own config' },
    { kind: 'protected', root: join(d, 'home', '.claude.json'), why: 'outside the worktree' },
  ],
} as unknown as Workspace;

/** The plan bubblewrap would get for that worktree (./grants.ts's shape). */
function plan(): SandboxPlan {
  return {
    worktree: W,
    grants: [
      { path: '/', access: 'ro', why: 'everything outside the write roots' },
      { path: W, access: 'rw', why: 'the worktree' },
      { path: join(W, '.git'), access: 'ro', why: 'the .git file' },
      { path: join(W, '.claude'), access: 'ro', why: 'reserves .claude/settings.json', reserve: true, holds: join(W, '.claude', 'settings.json') },
      { path: join(W, '.codex'), access: 'ro', why: 'holds .codex/hooks.json', holds: join(W, '.codex', 'hooks.json') },
      { path: join(W, 'nested'), access: 'ro', why: 'a sibling worktree' },
      { path: join(W, 'tools'), access: 'rw', why: `holds ${join(W, 'tools', 'pkg')}`, pin: true },
      { path: join(W, 'tools', 'pkg'), access: 'ro', why: 'the installed bashguard package' },
    ],
    unreserved: [join(W, '.bashguard.json'), join(d, 'home', '.claude.json')],
  };
}

const finding = (over: Partial<Finding>): Finding => ({ rule: 'BG1005', name: 'write-to-protected-file', severity: 'error', confidence: 'possible', message: 'm', path: null, range: { start: 0, end: 1 } as never, evidence: [], via: [], decision: 'ask', ...over });

describe('landlockLine', () => {
  const p = landlockLine(plan(), ws);

  it("leaves the worktree's own control files to the analyzer: out of the grants and the unreserved, into unheld", () => {
    expect((p.unheld ?? []).map((u) => u.path).sort()).toEqual([join(W, '.bashguard.json'), join(W, '.claude'), join(W, '.codex'), join(W, '.git')].sort());
    for (const u of p.unheld ?? []) expect(u.why).toMatch(/under Landlock the worktree is granted whole/);
    for (const c of ['.git', '.claude/settings.json', '.codex/hooks.json', 'notes.md']) expect(effectiveAccess(join(W, c), p.grants), c).toBe('rw');
    expect(p.unreserved).toEqual([join(d, 'home', '.claude.json')]);
  });

  it('keeps everything else read-only inside the worktree (a nested checkout, the installed package) and the pin that holds it', () => {
    expect(effectiveAccess(join(W, 'nested', 'x'), p.grants)).toBe('ro');
    expect(effectiveAccess(join(W, 'tools', 'pkg', 'x'), p.grants)).toBe('ro');
    expect(p.grants.some((g) => g.pin && g.path === join(W, 'tools'))).toBe(true);
    expect(effectiveAccess('/etc/passwd', p.grants)).toBe('ro');
  });

  it('changes nothing where the worktree holds none of the analyzer\'s control files', () => {
    const bare = { regions: [] } as unknown as Workspace;
    expect(landlockLine(plan(), bare)).toEqual(plan());
    expect(landlockLineSaid(plan())).toMatch(/new entries beside a protected path are refused/);
    expect(landlockLineSaid(p)).toMatch(/the worktree whole, new top-level entries included: its own control files are the analyzer's to decide/);
  });
});

describe('decisions under that line (held-asks)', () => {
  const p = landlockLine(plan(), ws);
  const covers = (x: string) => planCovers(p, x);

  it('a possible write to a control file of the worktree is not held: the ask says the kernel leaves it writable, and why', () => {
    expect(unheld(finding({ path: join(W, '.claude', 'settings.json') }), p, covers)).toMatch(/the kernel leaves \S+settings\.json writable \(.*granted whole/);
    expect(unheld(finding({ path: join(W, '.git') }), p, covers)).toMatch(/the kernel leaves \S+\.git writable/);
    // (the bubblewrap plan holds the same paths: the ask may become the enforced allow there)
    expect(unheld(finding({ path: join(W, '.git') }), plan(), (x) => planCovers(plan(), x))).toBeNull();
  });

  it('an unresolved write target is not held where a control path is unheld; the own config alone opens nothing', () => {
    // (with nothing unreserved outside the worktree, only the unheld list can keep the ask)
    expect(unheld(finding({ rule: 'BG4001', name: 'unresolved-write-target' }), { ...p, unreserved: [] }, covers)).toMatch(/lands somewhere unknown, and the kernel does not hold \S+/);
    // (code bashguard cannot read, like an unknown program, may write them too)
    expect(unheld(finding({ rule: 'BG0001', name: 'parse-error' }), { ...p, unreserved: [] }, covers)).toMatch(/cannot read what runs, and the kernel does not hold \S+/);
    const onlyOwn: SandboxPlan = { ...p, unheld: [{ path: join(W, '.bashguard.json'), why: 'x' }], unreserved: [] };
    expect(unheld(finding({ rule: 'BG4001', name: 'unresolved-write-target' }), onlyOwn, covers)).toBeNull();
  });

  it('heldAsk keeps the ask (never the enforced allow) for an unheld control file', () => {
    const ask = { decision: 'ask' as const, reason: 'asks', findings: [finding({ path: join(W, '.claude', 'settings.json') })] };
    const enforced = { answer: { decision: 'allow' as const, reason: 'runs under Landlock', findings: [], enforced: { command: 'x', mechanism: 'landlock' as const } }, plan: p, covers };
    const r = heldAsk(ask as never, enforced as never);
    expect(r.decision).toBe('ask');
    expect(r.reason).toMatch(/asked although the OS enforcement is in effect: \[BG1005\]/);
  });
});

describe('the landlockWorktree setting', () => {
  it('is "held" by default; a trusted file may choose "whole"; the worktree file may only tighten to "held"', () => {
    expect(DEFAULT_CONFIG.landlockWorktree).toBe('held');
    expect(parseConfigLayer('{"landlockWorktree":"whole"}', '/u.json', '/').landlockWorktree).toBe('whole');
    expect(() => parseConfigLayer('{"landlockWorktree":"open"}', '/u.json', '/')).toThrow(/landlockWorktree: must be "whole" or "held"/);
    const notices: string[] = [];
    expect(tighten(DEFAULT_CONFIG, parseConfigLayer('{"landlockWorktree":"whole"}', '/w/.bashguard.json', '/w'), notices).landlockWorktree).toBe('held');
    expect(notices.join('\n')).toMatch(/landlockWorktree: whole/);
    const whole = { ...DEFAULT_CONFIG, landlockWorktree: 'whole' as const };
    expect(tighten(whole, parseConfigLayer('{"landlockWorktree":"held"}', '/w/.bashguard.json', '/w'), []).landlockWorktree).toBe('held');
  });
});
