#!/usr/bin/env node
// How often bashguard says "cannot parse" (BG0001) on shell code that bash accepts.
//
//   node scripts/measure-parse.mjs [--api dist/api.js] [--json] [--no-scripts] [--no-commands]
//
// - commands: every command of ../shared/corpora/commands/*.{jsonl,cm,txt} (or $BASHGUARD_SHARED):
//   how many get a BG0001 problem, and of those how many `bash -n` accepts (bash -n is run only on
//   the ones with BG0001; the corpora README gives how many bash accepts in all).
// - scripts: this machine's shell scripts (`grep -rlI '^#!.*sh' /usr/bin /usr/sbin /usr/share
//   /usr/lib/git-core`): files with BG0001 that `bash -n` accepts, and how many BG0001 problems
//   the worst file gets.
// `--api` measures another build (e.g. one of an older commit) with the same script. Without the
// shared corpora the command part is skipped with a message; without bash the whole run is.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const apiPath = resolve(opt('--api') ?? join(root, 'dist', 'api.js'));
const asJson = args.includes('--json');
const doScripts = !args.includes('--no-scripts');
const doCommands = !args.includes('--no-commands');

if (spawnSync('bash', ['-c', 'exit 0']).status !== 0) {
  console.log('skipped: bash is not available to confirm what it accepts');
  process.exit(0);
}
if (!existsSync(apiPath)) {
  console.log(`skipped: ${apiPath} not found (run npm run build)`);
  process.exit(0);
}
const api = await import(pathToFileURL(apiPath).href);
const parser = await api.getParser();
const CWD = '/tmp/bashguard-measure/wt';

function bg0001(source) {
  const r = api.analyzeWith(parser, source, { cwd: CWD, env: { HOME: '/tmp/bashguard-measure/home' } });
  return r.effects.filter((e) => e.kind === 'problem' && e.category === 'syntax');
}

const bashAccepts = (source) => !source.includes('\0') && spawnSync('bash', ['-n', '-c', source], { stdio: 'ignore', timeout: 10_000 }).status === 0;

const result = { api: apiPath, backend: parser.backend, commands: null, scripts: null };

if (doCommands) {
  const shared = process.env.BASHGUARD_SHARED ?? join(root, '..', 'shared');
  const dir = join(shared, 'corpora', 'commands');
  if (!existsSync(dir)) {
    result.commands = { skipped: `no shared corpora at ${dir} (set BASHGUARD_SHARED)` };
  } else {
    result.commands = {};
    for (const name of readdirSync(dir).sort()) {
      let cmds;
      if (name.endsWith('.jsonl')) {
        cmds = readFileSync(join(dir, name), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l).cmd).filter((c) => typeof c === 'string');
      } else if (name.endsWith('.cm') || name.endsWith('.txt')) {
        cmds = readFileSync(join(dir, name), 'utf8').split('\n').filter((l) => l.trim() !== '');
      } else continue;
      let flagged = 0;
      let flaggedAccepted = 0;
      let nestedOnly = 0;
      const examples = [];
      for (const c of cmds) {
        const ps = bg0001(c);
        if (ps.length === 0) continue;
        flagged++;
        if (bashAccepts(c)) {
          flaggedAccepted++;
          // Only inside code the command runs (`sh -c '...'`, `eval`): bash -n does not read it.
          if (ps.every((p) => p.via.length > 0)) nestedOnly++;
          else if (examples.length < 10) examples.push(c.length > 100 ? c.slice(0, 100) + '…' : c);
        }
      }
      result.commands[name] = { commands: cmds.length, bg0001: flagged, bg0001BashAccepts: flaggedAccepted, nestedOnly, examples };
    }
  }
}

if (doScripts) {
  let files = [];
  try {
    const dirs = ['/usr/bin', '/usr/sbin', '/usr/share', '/usr/lib/git-core'].filter((d) => existsSync(d));
    files = execFileSync('grep', ['-rlI', '^#!.*sh', ...dirs], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] }).split('\n').filter(Boolean);
  } catch (e) {
    files = (e.stdout ?? '').split('\n').filter(Boolean);
  }
  // Only files whose first line is the shebang (grep matches anywhere).
  files = files.filter((f) => {
    try {
      return /^#!.*sh/.test(readFileSync(f, 'utf8').split('\n', 1)[0]);
    } catch {
      return false;
    }
  }).sort();
  let flagged = 0;
  let flaggedAccepted = 0;
  let problems = 0;
  let worst = { file: null, problems: 0 };
  let lineOne = 0;
  const examples = [];
  for (const f of files) {
    const src = readFileSync(f, 'utf8');
    const ps = bg0001(src);
    if (ps.length === 0) continue;
    flagged++;
    if (spawnSync('bash', ['-n', f], { stdio: 'ignore', timeout: 10_000 }).status !== 0) continue;
    flaggedAccepted++;
    problems += ps.length;
    if (ps.length > worst.problems) worst = { file: f, problems: ps.length };
    // A problem reported at 1:1 of a file whose first line is only the shebang: not where it is.
    if (ps.some((p) => p.range.line === 1)) lineOne++;
    if (examples.length < 15) examples.push(`${f}:${ps[0].range.line}: ${ps[0].reason}`);
  }
  result.scripts = { files: files.length, bg0001: flagged, bg0001BashAccepts: flaggedAccepted, problemsInAccepted: problems, worst, reportedAtLine1: lineOne, examples };
}

if (asJson) console.log(JSON.stringify(result, null, 2));
else {
  console.log(`bashguard BG0001 on code bash accepts (${result.backend} backend, ${apiPath})`);
  if (result.commands?.skipped) console.log(`commands: skipped: ${result.commands.skipped}`);
  else if (result.commands) {
    for (const [name, r] of Object.entries(result.commands)) {
      console.log(`  ${name}: ${r.commands} commands, BG0001 on ${r.bg0001}, of which bash -n accepts ${r.bg0001BashAccepts} (${r.nestedOnly} only in nested code bash -n does not read)`);
      for (const e of r.examples) console.log(`    ${e}`);
    }
  }
  if (result.scripts) {
    const s = result.scripts;
    console.log(`  scripts: ${s.files} files, BG0001 on ${s.bg0001}, of which bash -n accepts ${s.bg0001BashAccepts} (${s.problemsInAccepted} problems; worst ${s.worst.problems} in ${s.worst.file}; ${s.reportedAtLine1} at line 1)`);
    for (const e of s.examples) console.log(`    ${e}`);
  }
}
