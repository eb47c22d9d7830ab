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
import type { IO } from '../io.js';
import { getParser } from '../../engine/parse/index.js';
import { openWorkspace } from '../../policy/workspace/index.js';
import { formatDecision, style } from './format.js';
import { errnoText, UsageError } from '../io.js';
import type { Decision } from '../../policy/config.js';

/** One terminal screen: every line fits 80 columns, and the whole demo 24 lines. */
const WIDTH = 80;
/** Columns of the command on a call's line (longer commands get a line of their own). */
const CMD_COLUMNS = 41;

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

/** The demo's scratch repository: a main checkout with unsaved work, a linked worktree, scratch. */
interface DemoLayout {
  base: string;
  scratchDir: string;
  main: string;
  wt: string;
  pristine: string;
  home: string;
  env: Record<string, string>;
  git(cwd: string, ...args: string[]): string;
}

function demoLayout(io: IO, base: string, scratchDir: string): DemoLayout {
  const main = join(base, 'repo');
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
  return { base, scratchDir, main, wt: join(main, '.builders', 'b1'), pristine: join(base, 'pristine'), home, env, git };
}

/** Makes the repository, its worktree and the pristine copy each call is restored from. */
function buildDemoRepo(l: DemoLayout): void {
  const { main, wt, home, git } = l;
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
  if (spawnSync('bash', ['-c', 'exit 0'], { env: l.env }).status !== 0) throw new UsageError('demo needs bash on PATH to run the commands');
  execFileSync('cp', ['-a', main, l.pristine]);
}

function restoreDemo(l: DemoLayout): void {
  rmSync(l.main, { recursive: true, force: true });
  execFileSync('cp', ['-a', l.pristine, l.main]);
  for (const f of readdirSync(l.scratchDir)) rmSync(join(l.scratchDir, f), { recursive: true, force: true });
}

/** Every file's hash (the repository, HOME's surroundings, scratch) and both checkouts' HEAD and index. */
function snapshot(l: DemoLayout): State {
  const { main, wt, pristine, home } = l;
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
  walk(l.base);
  walk(l.scratchDir);
  const gitState = new Map<string, string>();
  for (const [name, dir] of [['main checkout', main], ['worktree', wt]] as const) {
    gitState.set(`${name}: HEAD`, l.git(dir, 'log', '-1', '--format=%h %s'));
    gitState.set(`${name}: index`, l.git(dir, 'diff', '--cached', '--name-only'));
  }
  return { files, git: gitState };
}

/** What changed, as short phrases; `outside`: something outside the worktree and scratch. */
function changes(l: DemoLayout, a: State, b: State): { text: string[]; outside: boolean } {
  const { main, wt, scratchDir } = l;
  const where = (p: string) =>
    p.startsWith(wt + '/') ? `<wt>/${relative(wt, p)}` : p.startsWith(main + '/') ? `<main>/${relative(main, p)}` : p.startsWith(scratchDir + '/') ? `<tmp>/${relative(scratchDir, p)}` : p;
  const text: string[] = [];
  let outside = false;
  for (const [p, h] of b.files) {
    if (a.files.get(p) === h) continue;
    text.push(where(p));
    if (where(p).startsWith('<main>')) outside = true;
  }
  for (const p of a.files.keys()) {
    if (b.files.has(p)) continue;
    text.push(`-${where(p)}`);
    if (where(p).startsWith('<main>')) outside = true;
  }
  for (const [k, v] of b.git) {
    if (a.git.get(k) === v) continue;
    const label = k.endsWith('HEAD') ? `${k.startsWith('main') ? '<main>' : '<wt>'} HEAD` : `${k.startsWith('main') ? '<main>' : '<wt>'} index`;
    text.push(label);
    if (k.startsWith('main')) outside = true;
  }
  return { text, outside };
}

export async function runDemo(io: IO): Promise<number> {
  let base: string;
  let scratchDir: string;
  try {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-demo-')));
    // The agent's scratch space: a separate temporary directory (the one holding the repository is
    // part of the checkout's surroundings, not scratch).
    scratchDir = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-demo-scratch-')));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new UsageError(`demo: cannot create a scratch directory in ${tmpdir()} (${errnoText(e)}; set TMPDIR to a writable directory)`);
  }
  try {
    const l = demoLayout(io, base, scratchDir);
    buildDemoRepo(l);
    return await runDemoCalls(io, l);
  } finally {
    rmSync(base, { recursive: true, force: true });
    rmSync(scratchDir, { recursive: true, force: true });
  }
}

/** Each call decided as the hook would, then run for real, with what it changed; the summary. */
async function runDemoCalls(io: IO, l: DemoLayout): Promise<number> {
  const { main, wt, scratchDir, env } = l;
  const s = style(io.isTTY && !io.env.NO_COLOR);
  const parser = await getParser();
  const out = (line: string) => io.stdout(line + '\n');
  // Paths shortened to names the header defines, so each call fits one line.
  const short = (text: string) => text.replaceAll(wt, '<wt>').replaceAll(main, '<main>').replaceAll(scratchDir, '<tmp>');
  out(`${s.bold('bashguard demo')}: each call is decided as the hook would, then run for real`);
  out(`  <main> = ${main}  (main checkout, unsaved work)`);
  out(`  <wt>   = <main>/.builders/b1  (a linked worktree: the agent's cwd)`);
  out(`  <tmp>  = ${scratchDir}  (scratch)`);
  out(s.dim(`${'decision  command'.padEnd(6 + CMD_COLUMNS + 1)}rule   what running it changed`));

  const commands = [
    `echo fix >> ${main}/README.md`,
    'cd ../.. && git commit -qam "wip"',
    `git -C ${main} reset -q --hard`,
    'cd ../.. && sed -i s/demo/oops/ README.md',
    `bash -c 'cp README.md ${main}/copy.md'`,
    't=$(git -C ../.. rev-parse --show-toplevel) && echo x >> "$t/README.md"',
    'echo fix >> README.md && git commit -qam wip',
    `git -C ${main} log --oneline -1 && cat ${main}/README.md`,
    `echo notes > ${scratchDir}/notes.txt`,
  ];
  const tally = { escaped: 0, stopped: 0, missed: 0, inside: 0, blockedInside: 0 };
  const counts: Record<Decision, number> = { allow: 0, ask: 0, deny: 0, sandbox: 0 };
  const report = (decision: Decision, shown: string, rules: string[], before: State, run: () => string | null) => {
    counts[decision]++;
    const failure = run();
    const { text, outside } = changes(l, before, snapshot(l));
    if (outside) {
      tally.escaped++;
      if (decision === 'allow') tally.missed++;
      else tally.stopped++;
    } else {
      tally.inside++;
      if (decision !== 'allow') tally.blockedInside++;
    }
    const rule = rules[0] ?? '-';
    const result = `${outside && decision === 'allow' ? 'MISSED ' : ''}${text.length ? text.join(', ') : 'nothing'}${failure ? ` (${failure})` : ''}`;
    const label = formatDecision(decision, s) + ' '.repeat(Math.max(0, 6 - decision.length));
    const cmd = short(shown);
    const tail = `${rule.padEnd(7)}${result}`;
    if (cmd.length <= CMD_COLUMNS && 6 + CMD_COLUMNS + 1 + tail.length <= WIDTH) out(`${label}${cmd.padEnd(CMD_COLUMNS)} ${s.dim(tail)}`);
    else {
      for (const l of wrap(cmd, '      ', label)) out(l);
      out(s.dim(`${' '.repeat(Math.max(6, Math.min(6 + CMD_COLUMNS + 1, WIDTH - tail.length)))}${tail}`));
    }
    restoreDemo(l);
  };

  for (const cmd of commands) {
    const { verdict } = openWorkspace(wt, { env: io.env }).check(parser, cmd);
    const rules = verdict.findings.filter((f) => f.decision !== 'allow').map((f) => f.rule);
    report(verdict.decision, cmd, rules, snapshot(l), () => {
      const r = spawnSync('bash', ['-c', cmd], { cwd: wt, env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', timeout: 10_000 });
      return r.status === 0 ? null : `exit ${r.status ?? r.signal}`;
    });
  }
  const target = join(main, 'README.md');
  const edit = openWorkspace(wt, { env: io.env }).judgeWrite(target, { tool: 'Write' });
  report(edit.verdict.decision, `Write tool: ${target}`, edit.verdict.findings.map((f) => f.rule), snapshot(l), () => {
    writeFileSync(target, '# rewritten by the agent\n');
    return null;
  });

  const total = commands.length + 1;
  out('');
  const summary =
    `${total} calls run for real: ${tally.escaped} changed <main>, bashguard stopped ${tally.stopped} ` +
    `(${counts.deny} denied, ${counts.ask} asked); ${tally.inside - tally.blockedInside} of the ${tally.inside} that stayed in ` +
    `<wt> or <tmp> were allowed.` +
    (tally.missed ? ` ${tally.missed} escape(s) MISSED.` : '') +
    " Why a call is stopped: `bashguard explain 'CMD'`.";
  for (const l of wrap(summary, '')) out(l);
  return tally.missed > 0 ? 1 : 0;
}
