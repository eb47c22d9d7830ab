/**
 * The README's "what each layer catches that the others miss", made executable on a real
 * repository: where one layer has a documented gap, another one closes it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cannotRun } from '../../helpers/shared.js';
import { layoutBase, makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { openWorkspace } from '../../../src/policy/workspace/index.js';
import { gitEnv } from '../../../src/layers/env/index.js';
import { bwrapAvailable, runSandboxed } from '../../../src/layers/sandbox/index.js';
import { audit, saveBaseline } from '../../../src/layers/audit/index.js';
import { getParser, type BashParser } from '../../../src/engine/parse/index.js';
import { cleanEnv, git } from '../../helpers/layers.js';
import { execFileSync } from 'node:child_process';

let L: GitLayout;
let parser: BashParser;
let state: string;
beforeAll(async () => {
  L = makeGitLayout('bashguard-layers-');
  state = mkdtempSync(join(layoutBase(), 'bashguard-layers-state-'));
  parser = await getParser();
});
afterAll(() => {
  L?.cleanup();
  if (state) rmSync(state, { recursive: true, force: true });
});

const avail = bwrapAvailable(process.env);
if (!avail.ok) cannotRun(`the sandbox row: ${avail.reason}`);

describe('layers cover each other\'s gaps', () => {
  (avail.ok ? it : it.skip)('sandbox: shared refs are writable by design (seed 002); the hook stops it first, the audit reports it after', () => {
    const env = cleanEnv({ XDG_STATE_HOME: state });
    const ws = openWorkspace(L.worktree, { env });
    saveBaseline(ws, env);
    const command = 'git update-ref refs/heads/main HEAD';
    expect(ws.check(parser, command).verdict.findings.map((f) => f.rule)).toContain('BG3003');
    const main = git(L.main, ['rev-parse', 'main']);
    git(L.worktree, ['commit', '--allow-empty', '-q', '-m', 'b1 work']);
    const r = runSandboxed(ws, ['sh', '-c', command], { env, cwd: L.worktree, stdio: 'pipe' });
    expect(r.status).toBe(0); // the gap: inside the sandbox this works
    expect(git(L.main, ['rev-parse', 'main'])).not.toBe(main);
    const report = audit(ws, { env });
    expect(report.findings.map((f) => `${f.kind} ${f.path}`)).toEqual(['ref refs/heads/main']);
  });

  it('env: pins git only; a non-git write from the main checkout\'s dir still lands there, and the hook denies it', () => {
    const env = { ...cleanEnv(), ...gitEnv(openWorkspace(L.worktree, { env: cleanEnv() })) };
    const command = `cd ${L.main} && touch env-gap.txt`;
    execFileSync('bash', ['-c', command], { env });
    expect(existsSync(join(L.main, 'env-gap.txt'))).toBe(true);
    expect(openWorkspace(L.worktree, { env }).check(parser, command).verdict.decision).toBe('deny');
  });
});
