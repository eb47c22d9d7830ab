/**
 * `bashguard demo`: builds a scratch repository with a worktree nested at `.builders/b1`, decides
 * on each command the way the hook would, then RUNS it for real in that scratch layout and shows
 * what changed, so every claim is checked: an escape the guard stopped is shown landing in the main
 * checkout, a command it let through is shown staying inside the worktree. The layout is restored
 * from a pristine copy after every command, so each runs on the same state. Nothing outside the
 * scratch directory is touched (scratch files go under it too).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { IO } from '../frontends/io.js';
import { getParser } from '../parse/index.js';
import { openWorkspace } from '../workspace/index.js';
import { formatDecision, style } from './format.js';
import { displayPath } from '../interpret/paths.js';
import { UsageError } from '../frontends/io.js';
import type { Decision } from '../policy/config.js';

const WIDTH = 100;

/** Word-wraps `text` to WIDTH columns; continuation lines get `indent`. */
export function wrap(text: string, indent: string, first = indent): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(' ')) {
    if (!empty && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = indent + word;
    } else line += (empty ? '' : ' ') + word;
    empty = false;
  }
  lines.push(line);
  return lines;
}

interface State {
  files: Map<string, string>;
  git: Map<string, string>;
}

export async function runDemo(io: IO): Promise<number> {
  const s = style(io.isTTY && !io.env.NO_COLOR);
  let base: string;
  let scratchDir: string;
  try {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-demo-')));
    // The agent's scratch space: a separate temporary directory (the one holding the repository is
    // part of the checkout's surroundings, not scratch).
    scratchDir = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-demo-scratch-')));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new UsageError(`demo: cannot create a scratch directory in ${tmpdir()} (${e.code ?? e.message}; set TMPDIR to a writable directory)`);
  }
  const main = join(base, 'repo');
  const wt = join(main, '.builders', 'b1');
  const pristine = join(base, 'pristine');
  const home = join(base, 'home');
  // The commands run with a private HOME and git identity; no user or system git config applies.
  const env: Record<string, string> = {
    PATH: io.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: base,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
    GIT_AUTHOR_NAME: 'demo',
    GIT_AUTHOR_EMAIL: 'demo@example.com',
    GIT_COMMITTER_NAME: 'demo',
    GIT_COMMITTER_EMAIL: 'demo@example.com',
    LC_ALL: 'C',
  };
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'ignore'], encoding: 'utf8' }).trim();
  try {
    mkdirSync(main, { recursive: true });
    mkdirSync(home);
    writeFileSync(join(home, '.gitconfig'), '');
    writeFileSync(join(main, 'README.md'), '# demo\n');
    try {
      git(main, 'init', '-q');
      git(main, 'add', '.');
      git(main, 'commit', '-q', '-m', 'init');
      writeFileSync(join(main, '.git', 'info', 'exclude'), '.builders/\n');
      git(main, 'worktree', 'add', '-q', '-b', 'b1', wt);
      // The person's own uncommitted work in the main checkout: what an escape destroys or sweeps up.
      writeFileSync(join(main, 'README.md'), '# demo\n\nunsaved notes in the main checkout\n');
    } catch (err) {
      throw new UsageError(`demo needs git on PATH (${(err as Error).message.split('\n')[0]})`);
    }
    if (spawnSync('bash', ['-c', 'exit 0'], { env }).status !== 0) throw new UsageError('demo needs bash on PATH to run the commands');
    execFileSync('cp', ['-a', main, pristine]);
    const restore = () => {
      rmSync(main, { recursive: true, force: true });
      execFileSync('cp', ['-a', pristine, main]);
      for (const f of readdirSync(scratchDir)) rmSync(join(scratchDir, f), { recursive: true, force: true });
    };

    const snapshot = (): State => {
      const files = new Map<string, string>();
      const walk = (dir: string) => {
        for (const name of readdirSync(dir)) {
          const p = join(dir, name);
          if (p === pristine || p === home || p === join(main, '.git') || name === '.git') continue;
          const st = lstatSync(p);
          if (st.isDirectory()) walk(p);
          else files.set(p, createHash('sha1').update(st.isFile() ? readFileSync(p) : Buffer.from('link')).digest('hex'));
        }
      };
      walk(base);
      walk(scratchDir);
      const gitState = new Map<string, string>();
      for (const [name, dir] of [['main checkout', main], ['worktree', wt]] as const) {
        gitState.set(`${name}: HEAD`, git(dir, 'log', '-1', '--format=%h %s'));
        gitState.set(`${name}: index`, git(dir, 'diff', '--cached', '--name-only'));
      }
      return { files, git: gitState };
    };
    const where = (p: string) =>
      p.startsWith(wt + '/') ? `worktree ${relative(wt, p)}` : p.startsWith(main + '/') ? `MAIN CHECKOUT ${relative(main, p)}` : p.startsWith(scratchDir + '/') ? `scratch file ${relative(scratchDir, p)}` : `file ${p}`;
    /** What changed, as short phrases; `outside`: something outside the worktree and scratch. */
    const changes = (a: State, b: State): { text: string[]; outside: boolean } => {
      const text: string[] = [];
      let outside = false;
      for (const [p, h] of b.files) {
        if (a.files.get(p) === h) continue;
        text.push(`${where(p)} ${a.files.has(p) ? 'modified' : 'created'}`);
        if (where(p).startsWith('MAIN')) outside = true;
      }
      for (const p of a.files.keys()) {
        if (b.files.has(p)) continue;
        text.push(`${where(p)} deleted`);
        if (where(p).startsWith('MAIN')) outside = true;
      }
      for (const [k, v] of b.git) {
        if (a.git.get(k) === v) continue;
        const label = k.endsWith('HEAD') ? `${k.startsWith('main') ? 'MAIN CHECKOUT' : 'worktree'} HEAD now "${v}"` : `${k} changed`;
        text.push(label);
        if (k.startsWith('main')) outside = true;
      }
      return { text, outside };
    };

    const parser = await getParser();
    const out = (line: string) => io.stdout(line + '\n');
    out(`${s.bold('bashguard demo')}: a scratch repository with a worktree nested inside it`);
    out(`  main checkout  ${main} (with uncommitted work in README.md)`);
    out(`  worktree       ${wt} (the agent's cwd)`);
    for (const l of wrap(
      'Each call is decided the way the hook decides it, then run for real in this scratch layout to ' +
        'show what it would have done (the layout is restored after each one).',
      '',
    )) out(l);
    out('');

    const commands = [
      `echo fix >> ${main}/README.md`,
      'cd ../.. && git commit -qam "wip"',
      `git -C ${main} reset -q --hard`,
      'cd .. && cd .. && sed -i s/demo/oops/ README.md',
      `bash -c 'cp README.md ${main}/copy.md'`,
      'top=$(git -C ../.. rev-parse --show-toplevel) && echo fix >> "$top/README.md"',
      'echo fix >> README.md && git commit -qam wip',
      `git -C ${main} log --oneline -1 && cat ${main}/README.md`,
      `echo notes > ${scratchDir}/notes.txt`,
    ];
    const tally = { escaped: 0, stopped: 0, missed: 0, inside: 0, blockedInside: 0 };
    const counts: Record<Decision, number> = { allow: 0, ask: 0, deny: 0, sandbox: 0 };
    const guardDoes = (d: Decision) => (d === 'deny' ? 'denies it' : d === 'ask' ? 'asks first' : d === 'sandbox' ? 'sandboxes it' : 'allows it');
    const report = (decision: Decision, shown: string, findings: string[], before: State, run: () => string | null) => {
      counts[decision]++;
      const label = formatDecision(decision, s);
      const pad = ' '.repeat(Math.max(0, 6 - decision.length));
      for (const l of wrap(shown, '         ', `${label}${pad} `)) out(l);
      for (const f of findings) for (const l of wrap(displayPath(f), '           ', '         ')) out(s.dim(l));
      const failure = run();
      const { text, outside } = changes(before, snapshot());
      const what = text.length ? text.join(', ') : 'nothing changed';
      let verdict: string;
      if (outside) {
        tally.escaped++;
        if (decision === 'allow') {
          tally.missed++;
          verdict = 'MISSED: a real escape, and the guard allows it';
        } else {
          tally.stopped++;
          verdict = `a real escape, and the guard ${guardDoes(decision)}`;
        }
      } else {
        tally.inside++;
        if (decision !== 'allow') tally.blockedInside++;
        verdict = decision === 'allow' ? 'stays inside, allowed' : `stays inside, yet the guard ${guardDoes(decision)}`;
      }
      const ran = failure ? `run for real (${failure}): ` : 'run for real: ';
      for (const l of wrap(`${ran}${what}; ${verdict}`, '           ', '         -> ')) out(l);
      restore();
    };

    for (const cmd of commands) {
      const { verdict } = openWorkspace(wt, { env: io.env }).check(parser, cmd);
      const findings = verdict.findings.filter((f) => f.decision !== 'allow').map((f) => `${f.rule} ${f.name}: ${f.message}`);
      report(verdict.decision, `$ ${cmd}`, findings, snapshot(), () => {
        const r = spawnSync('bash', ['-c', cmd], { cwd: wt, env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', timeout: 10_000 });
        return r.status === 0 ? null : `exit ${r.status ?? r.signal}: ${(r.stderr ?? '').trim().split('\n')[0]}`;
      });
    }
    const target = join(main, 'README.md');
    const edit = openWorkspace(wt, { env: io.env }).judgeWrite(target, { tool: 'Write' });
    report(edit.verdict.decision, `Write tool: ${target}`, edit.verdict.findings.map((f) => `${f.rule} ${f.name}: ${f.message}`), snapshot(), () => {
      writeFileSync(target, '# rewritten by the agent\n');
      return null;
    });

    const total = commands.length + 1;
    out('');
    const summary =
      `${total} calls, each run for real: ${tally.escaped} changed the main checkout, and the guard stopped ` +
      `${tally.stopped} of them (${counts.deny} denied, ${counts.ask} asked in all); of the ${tally.inside} that stayed ` +
      `inside the worktree or scratch, ${tally.inside - tally.blockedInside} were allowed.` +
      (tally.missed ? ` ${tally.missed} escape(s) were MISSED.` : '');
    for (const l of wrap(summary, '')) out(l);
    return tally.missed > 0 ? 1 : 0;
  } finally {
    rmSync(base, { recursive: true, force: true });
    rmSync(scratchDir, { recursive: true, force: true });
  }
}
