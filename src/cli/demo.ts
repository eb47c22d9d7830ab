/**
 * `bashguard demo`: builds a scratch repository with a worktree nested at `.builders/b1`, then
 * runs real agent escapes and legitimate commands through the same engine the hook uses.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IO } from './io.js';
import { getParser } from '../parse/index.js';
import { openWorkspace } from '../workspace/index.js';
import { formatDecision, style } from './format.js';
import { displayPath } from '../interpret/paths.js';
import { UsageError } from './io.js';

export async function runDemo(io: IO): Promise<number> {
  const s = style(io.isTTY && !io.env.NO_COLOR);
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-demo-')));
  const main = join(base, 'repo');
  const wt = join(main, '.builders', 'b1');
  try {
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'user.name=demo', '-c', 'user.email=demo@example.com', ...args], { cwd, stdio: 'ignore' });
    mkdirSync(main, { recursive: true });
    writeFileSync(join(main, 'README.md'), '# demo\n');
    try {
      git(main, 'init', '-q');
      git(main, 'add', '.');
      git(main, 'commit', '-q', '-m', 'init');
      git(main, 'worktree', 'add', '-q', '-b', 'b1', wt);
    } catch (err) {
      throw new UsageError(`demo needs git on PATH (${(err as Error).message.split('\n')[0]})`);
    }
    const parser = await getParser();
    io.stdout(`${s.bold('bashguard demo')}: main checkout ${main}\n                worktree      ${wt} (the agent's cwd)\n\n`);
    const commands = [
      `echo fix >> ${main}/README.md`,
      'cd ../.. && git commit -am "wip"',
      `git -C ${main} reset --hard`,
      'cd .. && cd .. && sed -i s/demo/oops/ README.md',
      `bash -c 'cp README.md ${main}/copy.md'`,
      `echo fix >> README.md && git commit -am wip`,
      `git -C ${main} log --oneline -1 && cat ${main}/README.md`,
      'echo scratch > /tmp/notes.txt',
    ];
    let caught = 0;
    for (const cmd of commands) {
      const { verdict } = openWorkspace(wt, { env: io.env }).check(parser, cmd);
      if (verdict.decision !== 'allow') caught++;
      io.stdout(`${formatDecision(verdict.decision, s).padEnd(io.isTTY ? 14 : 5)}  $ ${cmd}\n`);
      for (const f of verdict.findings) io.stdout(s.dim(`         ${f.rule} ${f.name}: ${displayPath(f.message)}\n`));
    }
    const edit = openWorkspace(wt, { env: io.env }).judgeWrite(join(main, 'README.md'), { tool: 'Write' });
    io.stdout(`${formatDecision(edit.verdict.decision, s).padEnd(io.isTTY ? 14 : 5)}  Write ${join(main, 'README.md')}\n`);
    if (edit.verdict.decision !== 'allow') caught++;
    io.stdout(`\n${caught} of ${commands.length + 1} calls stopped; the last three commands are legitimate and pass.\n`);
    return 0;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
