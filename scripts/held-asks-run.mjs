#!/usr/bin/env node
// Asks with the OS enforcement in force vs off (issue 51: "asks on the shared agent command corpora
// fall"): decides every command of the shared agent command corpora as the hook does for Claude
// Code (src/frontends/decide.ts `decideCall`, the client runs a replaced command), from a real linked
// worktree, twice: with the user config's `"enforce": "off"` (the analyzer alone) and with the
// default (`auto`: bubblewrap or Landlock where it can start here). Prints per corpus the asks of
// each mode, how many of the enforced asks are tree-writer asks (BG1005: a tree writer near control
// files) and the denies. Where no mechanism can start here, the enforced column is the
// analyzer's again, and the script says so.
//
//   node scripts/held-asks-run.mjs                 # the table
//   node scripts/held-asks-run.mjs --limit 2000    # at most N commands per corpus
//   node scripts/held-asks-run.mjs --list          # also every ask left under enforcement, with its reason's last line
//
// decideCall is not part of the built API: it is bundled from src/ with esbuild into .tmp/ first.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { specsInOneModule } from './gen-commands.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const limit = Number(opt('--limit') ?? Infinity);
const list = args.includes('--list');

const candidates = [resolve(root, '../../shared/corpora/commands'), process.env.BASHGUARD_CORPORA ?? resolve(root, '..', 'shared', 'corpora', 'commands')];
const dir = candidates.find((d) => existsSync(join(d, 'tldr.txt')));
if (!dir) {
  console.log(`held-asks-run: skipped: no shared command corpora (looked in ${[...new Set(candidates)].join(', ')})`);
  process.exit(0);
}

const tmp = join(root, '.tmp', 'held-asks-run');
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });
const entry = join(tmp, 'entry.ts');
writeFileSync(entry, `export { decideCall } from '../../src/frontends/decide.js';\nexport { getParser } from '../../src/engine/parse/index.js';\n`);
await build({
  entryPoints: [entry],
  outfile: join(tmp, 'decide.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['tree-sitter', 'tree-sitter-bash', 'web-tree-sitter'],
  logLevel: 'warning',
  absWorkingDir: root,
  banner: { js: "import { createRequire as __bgCreateRequire } from 'node:module'; const require = __bgCreateRequire(import.meta.url);" },
  plugins: [specsInOneModule()],
});
const { decideCall, getParser } = await import(pathToFileURL(join(tmp, 'decide.mjs')).href);

const jsonl = (f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).cmd).filter((c) => typeof c === 'string');
const lines = (f) => readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => l.trim() !== '');
const corpora = [
  ['agent_intercode_bash', () => jsonl('agent_intercode_bash.jsonl')],
  ['agent_sweagent_demos', () => jsonl('agent_sweagent_demos.jsonl')],
  ['nl2bash', () => lines('nl2bash.cm')],
  ['tldr', () => lines('tldr.txt')],
];

// The layout of scripts/fp-run.mjs (docs/conventions.md), outside /tmp so HOME is not a scratch root;
// one HOME per mode, its trusted config saying which.
const base = join(tmp, 'layout');
const homeOf = { off: join(base, 'home/dev'), on: join(base, 'home/dev-enforced') };
const main = join(homeOf.off, 'repo');
mkdirSync(main, { recursive: true });
mkdirSync(join(homeOf.off, 'other'), { recursive: true });
mkdirSync(join(homeOf.off, '.config', 'bashguard'), { recursive: true });
writeFileSync(join(homeOf.off, '.config', 'bashguard', 'config.json'), '{"enforce": "off"}\n');
mkdirSync(homeOf.on, { recursive: true });
const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'x', GIT_AUTHOR_EMAIL: 'x@x', GIT_COMMITTER_NAME: 'x', GIT_COMMITTER_EMAIL: 'x@x', HOME: homeOf.off, GIT_CONFIG_NOSYSTEM: '1' };
const git = (cwd, ...a) => execFileSync('git', a, { cwd, stdio: 'pipe', env: gitEnv });
git(main, 'init', '-q', '-b', 'main');
writeFileSync(join(main, 'README.md'), 'x\n');
git(main, 'add', '.');
git(main, 'commit', '-qm', 'init');
for (const [path, branch] of [['.builders/b1', 'b1'], ['.builders/b2', 'b2'], ['.claude/worktrees/w3', 'w3']]) git(main, 'worktree', 'add', '-q', '-b', branch, path);
const cwd = join(main, '.builders/b1');

const parser = await getParser();
const notices = new Set();
const ctxOf = (mode) => ({
  stderr: (t) => notices.add(`${mode}: ${t.trim()}`),
  env: { HOME: homeOf[mode], TMPDIR: '/tmp', USER: 'dev', PATH: process.env.PATH, SHELL: '/bin/bash' },
  cwd,
  getParser: async () => parser,
  enforce: true,
  client: 'claude',
});
const ctx = { off: ctxOf('off'), on: ctxOf('on') };
// A tree-writer ask: BG1005 for a command that writes names not known statically (or moves an
// entry) at an ancestor of a control file (src/policy/policy.ts placesTree).
const treeWriter = (f) => f.decision === 'ask' && f.rule === 'BG1005' && /writes a tree (of names )?not known statically|moves an entry to/.test(f.message);

const rows = [];
const listed = [];
/** Why each ask left under enforcement stays (the finding no mechanism holds), over all corpora. */
const reasons = new Map();
let enforcedSeen = false;
for (const [name, load] of corpora) {
  let cmds = load();
  if (cmds.length > limit) cmds = cmds.slice(0, limit);
  const n = { off: { ask: 0, deny: 0, treeWriter: 0 }, on: { ask: 0, deny: 0, treeWriter: 0, held: 0 } };
  for (const command of cmds) {
    const answers = {};
    for (const mode of ['off', 'on']) {
      let a;
      try {
        a = await decideCall({ kind: 'bash', command, cwd, id: `${name}` }, ctx[mode]);
      } catch (err) {
        a = { decision: 'ask', reason: `error: ${err.message}`, findings: [] };
      }
      const d = a === null ? 'allow' : a.decision === 'sandbox' ? 'ask' : a.decision;
      answers[mode] = { d, a };
      if (d === 'ask' || d === 'deny') n[mode][d]++;
      if (mode === 'on' && a?.enforced) enforcedSeen = true;
    }
    const on = answers.on;
    for (const mode of ['off', 'on']) if (answers[mode].d === 'ask' && (answers[mode].a.findings ?? []).some(treeWriter)) n[mode].treeWriter++;
    if (answers.off.d === 'ask' && on.d === 'allow') n.on.held++;
    if (on.d === 'ask') {
      const m = /\(asked although the OS enforcement is in effect: \[(BG\d+)\] (.*)\)$/.exec(on.a.reason.split('\n').pop() ?? '');
      const why = m ? `${m[1]}: ${m[2].replace(/\/\S+/g, '<path>')}` : (on.a.reason.split('\n').pop() ?? '').replace(/\/\S+/g, '<path>').slice(0, 160);
      reasons.set(why, (reasons.get(why) ?? 0) + 1);
    }
    if (list && on.d === 'ask') listed.push(`${name}\t${command.replace(/\n/g, '\\n').slice(0, 160)}\n\t\t${on.a.reason.split('\n').pop().slice(0, 240)}`);
  }
  rows.push([name, cmds.length, n]);
}
rmSync(base, { recursive: true, force: true });

const pct = (a, b) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(2)}%`);
console.log(`corpora: ${dir}   worktree: <base>/home/dev/repo/.builders/b1   decideCall as for Claude Code (the client runs a replaced command)`);
if (!enforcedSeen) console.log('NOTE: no call ran under the OS enforcement here (no bubblewrap or Landlock that can start): the "enforced" columns are the analyzer\'s decisions again.');
const head = ['corpus'.padEnd(22), 'commands'.padStart(8), 'ask off'.padStart(8), 'ask on'.padStart(8), 'ask% off'.padStart(9), 'ask% on'.padStart(8), 'held'.padStart(6), 'tw off'.padStart(7), 'tw on'.padStart(6), 'deny off'.padStart(9), 'deny on'.padStart(8)];
console.log(head.join(' '));
for (const [name, total, n] of rows) {
  console.log([name.padEnd(22), String(total).padStart(8), String(n.off.ask).padStart(8), String(n.on.ask).padStart(8), pct(n.off.ask, total).padStart(9), pct(n.on.ask, total).padStart(8), String(n.on.held).padStart(6), String(n.off.treeWriter).padStart(7), String(n.on.treeWriter).padStart(6), String(n.off.deny).padStart(9), String(n.on.deny).padStart(8)].join(' '));
}
console.log('(held: asked with "enforce": "off", allowed under the enforcement; tw: tree-writer asks (off / under enforcement): BG1005 for names not known statically near a control file)');
console.log('\nasks left under enforcement, by the finding no mechanism holds (all corpora):');
for (const [why, k] of [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${String(k).padStart(6)}  ${why.slice(0, 200)}`);
if (notices.size) console.log(`\nnotices:\n${[...notices].slice(0, 10).join('\n')}`);
if (listed.length) console.log('\n' + listed.join('\n'));
