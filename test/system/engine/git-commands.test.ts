/**
 * git as a closed world (issue #39): every command the installed git ships (its builtins and the
 * programs in its exec path, helpers included) is classified by git.ts, so none of them is read
 * as an unknown git command. Skips, saying why, where git is not installed.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cannotRun } from '../../helpers/shared.js';
import { gitAccess } from '../../../src/engine/commands/git.js';

function shipped(): { names: string[]; version: string } | { skip: string } {
  try {
    const version = execFileSync('git', ['--version'], { encoding: 'utf8' }).trim();
    const listed = execFileSync('git', ['--list-cmds=builtins,main'], { encoding: 'utf8' }).split('\n').filter(Boolean);
    const execPath = execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim();
    // Programs in the exec path: git-NAME runs as `git NAME` (mergetools/ and the like are not commands).
    const inExecPath = readdirSync(execPath).filter((f) => f.startsWith('git-')).map((f) => f.slice(4));
    return { names: [...new Set([...listed, ...inExecPath])].sort(), version };
  } catch (e) {
    return { skip: `git is not installed or does not answer --list-cmds (${(e as Error).message.split('\n')[0]})` };
  }
}

describe('git: every command git ships is classified', () => {
  const s = shipped();

  it('no name of `git --list-cmds=builtins,main` or of the exec path is unknown', (ctx) => {
    if ('skip' in s) return ctx.skip(cannotRun(s.skip));
    expect(s.names.length).toBeGreaterThan(50);
    const unknown = s.names.filter((n) => gitAccess(n, []) === 'unknown');
    expect(unknown, `${s.version}: unclassified`).toEqual([]);
  });
});
