/**
 * A FIFO where the trusted config is read: an error naming it, at once (a FIFO opened for reading
 * waits for a writer forever). A system test: making a FIFO takes mkfifo(1).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTrustedConfig } from '../../../src/policy/workspace/config.js';
import { layoutBase } from '../../helpers/git-layout.js';

describe('a config file the environment names', () => {
  const dir = realpathSync(mkdtempSync(join(layoutBase(), 'bg-config-fifo-')));
  const project = join(dir, 'repo');
  const worktree = join(project, '.builders', 'b1');
  mkdirSync(worktree, { recursive: true });
  mkdirSync(join(dir, 'safe'), { recursive: true });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a FIFO named by BASHGUARD_CONFIG outside the write roots is an error naming it, without blocking', () => {
    const fifo = join(dir, 'safe', 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    const env = { HOME: join(dir, 'home'), TMPDIR: join(dir, 'scratch'), BASHGUARD_CONFIG: fifo };
    expect(() => loadTrustedConfig({ env, projectRoot: project, worktreeRoot: worktree })).toThrow(/fifo\.json: a FIFO, not a regular file/);
  });
});
