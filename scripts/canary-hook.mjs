// The hook's half of the canary (scripts/canary-lib.mjs): each case's text (an agent's command, then
// a write to /etc on a line of its own) decided as the hook decides it (the library's guard runs
// the hook's judge, in process), from a linked worktree of a throwaway repository outside the
// scratch roots. Needs `npm run build` (dist/api.js).
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO } from './canary-lib.mjs';

/** Returns [{ corpus, cmd, decision, first }] in the order of `cases`. `checkout`: whose dist/ decides (default this one). */
export async function hookCanaries(cases, { checkout = REPO } = {}) {
  const api = await import(pathToFileURL(join(checkout, 'dist', 'api.js')).href);
  // Under $HOME, not /tmp or /dev/shm: a scratch root around the layout would hide climbs out of it.
  const at = [homedir()].find((d) => {
    try {
      accessSync(d, constants.W_OK);
      return true;
    } catch {
      return false;
    }
  });
  const base = realpathSync(mkdtempSync(join(at ?? homedir(), 'bg-canary-hook-')));
  try {
    const home = join(base, 'home/dev');
    const main = join(home, 'repo');
    mkdirSync(main, { recursive: true });
    const env = { HOME: home, TMPDIR: '/tmp', USER: 'dev', PATH: process.env.PATH };
    const git = (...a) => execFileSync('git', a, { cwd: main, stdio: 'pipe', env: { ...env, GIT_AUTHOR_NAME: 'x', GIT_AUTHOR_EMAIL: 'x@x', GIT_COMMITTER_NAME: 'x', GIT_COMMITTER_EMAIL: 'x@x', GIT_CONFIG_NOSYSTEM: '1' } });
    git('init', '-q', '-b', 'main');
    writeFileSync(join(main, 'README.md'), 'x\n');
    git('add', '.');
    git('commit', '-qm', 'init');
    git('worktree', 'add', '-q', '-b', 'b1', '.builders/b1');
    const guard = api.createGuard({ worktree: join(main, '.builders/b1'), env, isolation: 'none' });
    const out = [];
    try {
      for (const c of cases) {
        let decision;
        let first = '';
        try {
          const r = await guard.checkBash(c.text);
          decision = r.decision;
          if (r.findings[0]) first = `${r.findings[0].rule}: ${r.findings[0].message}`;
        } catch (err) {
          decision = 'error';
          first = err.message;
        }
        out.push({ corpus: c.corpus, cmd: c.cmd, decision, first });
      }
    } finally {
      guard.close?.();
    }
    return out;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
