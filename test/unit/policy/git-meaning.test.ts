/**
 * The policy judges a git effect by what it writes (its `writes`), never by git's arguments:
 * the same effect with arguments that say something else decides the same, and each kind of
 * state lands on its rule. Standard scenario: this worktree b1 (branch b1), main checked out in
 * the main checkout, b2 in a sibling.
 */
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../src/policy/policy.js';
import { HOLE, type GitEffect, type GitWrite } from '../../../src/engine/effects/types.js';
import { memoryFs, standardPolicy, MAIN, WORKTREE } from '../../../src/policy/scenario/standard.js';

const range = { start: 0, end: 5, line: 1, column: 1, endLine: 1, endColumn: 6 };

function effect(writes: GitWrite[], over: Partial<GitEffect> = {}): GitEffect {
  return { kind: 'git', subcommand: 'x', args: [], access: 'unknown', dir: WORKTREE, gitDir: null, workTree: null, confidence: 'certain', via: [], range, evidence: [], text: 'git x', writes, ...over };
}
function judge(e: GitEffect): { decision: string; rules: string[] } {
  const ctx = standardPolicy(memoryFs())!;
  const v = evaluate([e], ctx);
  return { decision: v.decision, rules: [...new Set(v.findings.map((f) => f.rule))].sort() };
}

describe('the policy decides git from meaning', () => {
  it('an effect that writes nothing is allowed, whatever its arguments say', () => {
    expect(judge(effect([], { subcommand: 'config', args: ['core.hooksPath', '/tmp/h'], access: 'hooks' }))).toEqual({ decision: 'allow', rules: [] });
    expect(judge(effect([], { subcommand: 'clean', args: ['-fdx'] })).decision).toBe('allow');
  });

  it('each kind of shared state lands on its rule', () => {
    expect(judge(effect([{ state: 'config' }])).rules).toEqual(['BG3001']);
    expect(judge(effect([{ state: 'hooks' }])).rules).toEqual(['BG3002']);
    expect(judge(effect([{ state: 'worktrees' }])).rules).toEqual(['BG3004']);
    expect(judge(effect([{ state: 'refs', spaces: ['tags'], what: 'tags' }])).rules).toEqual(['BG3003']);
    expect(judge(effect([{ state: 'unknown' }])).rules).toEqual(['BG2002']);
  });

  it("this worktree's own branch, HEAD, index and new objects are inside the line", () => {
    const own: GitWrite[] = [{ state: 'checkout', parts: ['files', 'index', 'head'] }, { state: 'branch', name: 'b1', switches: false }, { state: 'objects' }];
    expect(judge(effect(own))).toEqual({ decision: 'allow', rules: [] });
  });

  it('other branches: shared, or another checkout moved; a branch switched to is this checkout\'s own', () => {
    expect(judge(effect([{ state: 'branch', name: 'feature', switches: false }])).rules).toEqual(['BG3003']);
    expect(judge(effect([{ state: 'branch', name: 'main', switches: false }])).rules).toEqual(['BG2001', 'BG3003']);
    expect(judge(effect([{ state: 'branch', name: 'feature', switches: true }])).rules).toEqual([]);
    expect(judge(effect([{ state: 'branch', name: 'main', switches: true }])).rules).toEqual(['BG2001']);
    // A new branch it checks out: git refuses a name that exists, so no other checkout's moves.
    expect(judge(effect([{ state: 'branch', name: HOLE, switches: true, creates: true }])).rules).toEqual([]);
    expect(judge(effect([{ state: 'branch', name: HOLE, switches: true }])).rules).toEqual(['BG3003']);
    const unknown = judge(effect([{ state: 'branch', name: HOLE, switches: false, confidence: 'possible' }]));
    expect(unknown).toEqual({ decision: 'ask', rules: ['BG3003'] });
  });

  it("the checkout's state is judged by which checkout the effect acts on", () => {
    const change: GitWrite[] = [{ state: 'checkout', parts: ['index'] }];
    expect(judge(effect(change)).decision).toBe('allow');
    expect(judge(effect(change, { dir: MAIN }))).toEqual({ decision: 'deny', rules: ['BG2001'] });
    // A repository that cannot be determined may be another checkout; under a scratch dir it cannot.
    expect(judge(effect(change, { dir: null }))).toEqual({ decision: 'ask', rules: ['BG2001'] });
    expect(judge(effect(change, { dir: `/tmp/${HOLE}` })).decision).toBe('allow');
  });
});
