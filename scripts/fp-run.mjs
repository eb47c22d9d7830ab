#!/usr/bin/env node
// False-positive run: decides every command of the shared agent command corpora
// (../shared/corpora/commands or $BASHGUARD_CORPORA) as the hook would, from a real linked
// worktree (a throwaway `git init` + `git worktree add` layout, not under a scratch root), and
// prints allow/ask/deny counts and rates per corpus. Needs `npm run build` (uses dist/api.js).
//
//   node scripts/fp-run.mjs                 # the table
//   node scripts/fp-run.mjs --list deny     # also every deny (and --list ask) with its first finding
//   node scripts/fp-run.mjs --limit 2000    # at most N commands per corpus
//
// Without the corpora it says so and exits 0.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const lists = args.flatMap((a, i) => (a === '--list' ? [args[i + 1]] : []));
const limit = Number(opt('--limit') ?? Infinity);

const corporaDir = process.env.BASHGUARD_CORPORA ?? resolve(root, '..', 'shared', 'corpora', 'commands');
const candidates = [resolve(root, '../../shared/corpora/commands'), corporaDir];
const dir = candidates.find((d) => existsSync(join(d, 'tldr.txt')));
if (!dir) {
  console.log(`fp-run: skipped: no shared command corpora (looked in ${[...new Set(candidates)].join(', ')})`);
  process.exit(0);
}
if (!existsSync(join(root, 'dist/api.js'))) {
  console.log('fp-run: skipped: dist/api.js missing (run `npm run build`)');
  process.exit(0);
}
const api = await import(pathToFileURL(join(root, 'dist/api.js')).href);

const jsonl = (f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).cmd).filter((c) => typeof c === 'string');
const lines = (f) => readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => l.trim() !== '');
const corpora = [
  ['agent_intercode_bash', () => jsonl('agent_intercode_bash.jsonl')],
  ['agent_sweagent_demos', () => jsonl('agent_sweagent_demos.jsonl')],
  ['nl2bash', () => lines('nl2bash.cm')],
  ['tldr', () => lines('tldr.txt')],
];

// A real layout like docs/conventions.md, outside /tmp so $HOME is not a scratch root.
const base = resolve(opt('--base') ?? join(root, '.tmp', 'fp-layout'));
rmSync(base, { recursive: true, force: true });
const home = join(base, 'home/dev');
const main = join(home, 'repo');
mkdirSync(main, { recursive: true });
mkdirSync(join(home, 'other'), { recursive: true });
const git = (cwd, ...a) => execFileSync('git', a, { cwd, stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_NAME: 'x', GIT_AUTHOR_EMAIL: 'x@x', GIT_COMMITTER_NAME: 'x', GIT_COMMITTER_EMAIL: 'x@x', HOME: home } });
git(main, 'init', '-q', '-b', 'main');
writeFileSync(join(main, 'README.md'), 'x\n');
git(main, 'add', '.');
git(main, 'commit', '-qm', 'init');
for (const [path, branch] of [['.builders/b1', 'b1'], ['.builders/b2', 'b2'], ['.claude/worktrees/w3', 'w3']]) git(main, 'worktree', 'add', '-q', '-b', branch, path);
const cwd = join(main, '.builders/b1');

const parser = await api.getParser();
const env = { HOME: home, TMPDIR: '/tmp', USER: 'dev', PATH: process.env.PATH };
// The hook's own decision through the library's guard (in process), which answers as the hook
// does before the OS enforcement wraps an allowed call (older builds: a Workspace, checkCommand).
const guard = api.createGuard ? api.createGuard({ worktree: cwd, env, isolation: 'none' }) : null;
const workspace = !guard && api.openWorkspace ? api.openWorkspace(cwd, { env }) : null;
const rows = [];
const listed = [];
for (const [name, load] of corpora) {
  let cmds = load();
  if (cmds.length > limit) cmds = cmds.slice(0, limit);
  const n = { allow: 0, ask: 0, deny: 0 };
  for (const cmd of cmds) {
    let decision;
    let first = '';
    try {
      if (guard) {
        const r = await guard.checkBash(cmd);
        decision = r.decision;
        const f = r.findings[0];
        if (f) first = `${f.rule} ${f.confidence}: ${f.message}`;
      } else {
        const r = workspace ? workspace.check(parser, cmd) : api.checkCommand(parser, cmd, cwd, { env });
        decision = r.verdict.decision;
        const f = r.verdict.findings.find((x) => x.decision === decision);
        if (f) first = `${f.rule} ${f.confidence}: ${f.message}`;
      }
    } catch (err) {
      decision = 'ask';
      first = `error: ${err.message}`;
    }
    n[decision] = (n[decision] ?? 0) + 1;
    if (lists.includes(decision)) listed.push(`${name}\t${decision}\t${cmd.replace(/\n/g, '\\n').slice(0, 200)}\n\t\t${first.replaceAll(base, '<base>').slice(0, 240)}`);
  }
  rows.push([name, cmds.length, n]);
}
guard?.close?.();
rmSync(base, { recursive: true, force: true });

const pct = (a, b) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(2)}%`);
console.log(`corpora: ${dir}   worktree: <base>/home/dev/repo/.builders/b1`);
console.log(['corpus'.padEnd(22), 'commands'.padStart(8), 'allow'.padStart(7), 'ask'.padStart(6), 'deny'.padStart(6), 'ask%'.padStart(7), 'deny%'.padStart(7)].join(' '));
for (const [name, total, n] of rows) {
  console.log([name.padEnd(22), String(total).padStart(8), String(n.allow).padStart(7), String(n.ask).padStart(6), String(n.deny).padStart(6), pct(n.ask, total).padStart(7), pct(n.deny, total).padStart(7)].join(' '));
}
if (listed.length) console.log('\n' + listed.join('\n'));
