/**
 * `bashguard prompt` on a real repository: the worktree root, the byte-identical main checkout,
 * the rooting rules for Write/Edit and Bash, and the rule lines from the rule catalog (one source
 * with the hook's reasons and docs/rules.md), localized to this workspace's paths.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { openWorkspace } from '../../../src/policy/workspace/index.js';
import { promptGuidance, type PromptGuidance } from '../../../src/layers/prompt/index.js';
import { RULES, ruleById } from '../../../src/policy/rules/catalog.js';
import { MAIN } from '../../../src/policy/scenario/standard.js';
import { cleanEnv, cli } from '../../helpers/layers.js';

let L: GitLayout;
beforeAll(() => {
  L = makeGitLayout('bashguard-prompt-');
});
afterAll(() => L?.cleanup());

describe('bashguard prompt', () => {
  it('names the worktree, the byte-identical main checkout, and how to root paths', async () => {
    const r = await cli(['prompt'], L.worktree);
    expect(r.code).toBe(0);
    const t = r.stdout;
    expect(t).toContain(`You work in the git worktree ${L.worktree}, on branch b1.`);
    expect(t).toContain(`A byte-identical main checkout exists at ${L.main}.`);
    expect(t).toMatch(/wrong-rooted read succeeds silently/);
    expect(t).toContain(`every absolute path must start with ${L.worktree}/`);
    expect(t).toMatch(/Bash: use paths relative to the worktree/);
    expect(t).toContain(L.sibling);
    // The rule texts are the catalog's, with the example paths replaced by this workspace's.
    expect(t).toContain(`- BG1002 write-to-main-checkout: ${ruleById('BG1002').summary}`);
    expect(t).toContain(`(\`${L.worktree}/...\`)`);
    expect(t).not.toContain(MAIN + '/');
  });

  it('lists the rules that can stop a call, from the catalog and the trusted configuration', () => {
    writeFileSync(join(L.main, '.bashguard.json'), JSON.stringify({ rules: { BG3004: 'off', BG2002: 'info' } }));
    try {
      const g = promptGuidance(openWorkspace(L.worktree, { env: cleanEnv() }));
      const ids = g.rules.map((r) => r.id);
      expect(ids).not.toContain('BG3004');
      expect(ids).not.toContain('BG2002');
      expect(ids).not.toContain('BG4003'); // info by default: never blocks
      expect(ids).not.toContain('BG0003'); // lint directives are not about the agent
      for (const r of g.rules) expect(r.summary).toBe(ruleById(r.id).summary.split(MAIN).join(L.main));
      const blocking = RULES.filter((r) => /^BG[1-3]/.test(r.id) && r.severity !== 'info' && !['BG3004', 'BG2002'].includes(r.id)).map((r) => r.id);
      for (const id of blocking) expect(ids).toContain(id);
    } finally {
      writeFileSync(join(L.main, '.bashguard.json'), '{}');
    }
  });

  it('says when undecidable commands run in the sandbox', () => {
    expect(promptGuidance(openWorkspace(L.worktree, { env: cleanEnv() })).text).not.toMatch(/runs in a sandbox/);
    writeFileSync(join(L.main, '.bashguard.json'), JSON.stringify({ unanalyzable: 'sandbox' }));
    try {
      expect(promptGuidance(openWorkspace(L.worktree, { env: cleanEnv() })).text).toMatch(/cannot read statically runs in a sandbox instead/);
    } finally {
      writeFileSync(join(L.main, '.bashguard.json'), '{}');
    }
  });

  it('json format, a plain checkout, and outside a checkout', async () => {
    const j = JSON.parse((await cli(['prompt', '--format', 'json'], L.worktree)).stdout) as PromptGuidance;
    expect(j.worktree).toBe(L.worktree);
    expect(j.main).toBe(L.main);
    expect(j.branch).toBe('b1');
    expect(j.text).toContain(L.worktree);
    const plain = await cli(['prompt'], L.main);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toMatch(/byte-identical/);
    const out = await cli(['prompt'], L.outside);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^bashguard: .*not inside a git checkout/);
  });
});
