#!/usr/bin/env node
// The hook's start-up as CPU time, against `node -e 0`: on a shared machine whose load moves the
// wall clock by more than the differences looked for, the CPU time a process and its children
// spend (`perf stat -e task-clock`) moves much less. Interleaved rounds, medians, ratios.
//
//   node bench/cpu-ratio.mjs [--rounds=N] [--against=DIR]
//
// Subjects, each the installed hook (the exec form `bashguard install --user` writes for Claude
// Code, spawned without a shell) in a throw-away main checkout + linked worktree, minimal env:
// - `allow`: an allowed Bash call under the default config (the OS enforcement's wrapper built);
// - `deny`: a call into the main checkout;
// - `allow, enforce off`: the allowed call with `"enforce": "off"` in the user config (no wrapper).
// With --against=DIR (another built checkout of bashguard) the same subjects for it, interleaved.
// Each subject's code cache is written by two runs first, as the first hook calls on a machine do.
import { cpSync, mkdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeLayout } from './lib.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const ROUNDS = Number(opt('rounds', '30'));
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) {
  process.stderr.write(`cpu-ratio: --rounds takes a whole number, 1 or more (got ${opt('rounds')})\n`);
  process.exit(2);
}
const ROOTS = [resolve(dirname(fileURLToPath(import.meta.url)), '..'), ...(opt('against') ? [resolve(opt('against'))] : [])];
if (spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', '--', 'true']).status !== 0) {
  process.stderr.write('cpu-ratio: needs `perf stat -e task-clock` (Debian/Ubuntu: apt-get install linux-perf)\n');
  process.exit(2);
}

const { base, wt, home } = makeLayout('bashguard-cpu-ratio-');
process.on('exit', () => rmSync(base, { recursive: true, force: true }));
const homeOff = join(base, 'home-off');
mkdirSync(join(homeOff, '.config', 'bashguard'), { recursive: true });
writeFileSync(join(homeOff, '.config', 'bashguard', 'config.json'), '{"enforce":"off"}\n');
const ENV = { PATH: process.env.PATH, HOME: home, TMPDIR: tmpdir(), USER: process.env.USER ?? 'bench' };

/** The installed hook of the checkout at `root` (a launcher in a HOME of its own), as argv. */
function installed(root, i) {
  const h = join(base, `install-${i}`);
  mkdirSync(h);
  execFileSync(process.execPath, [join(root, 'bin', 'bashguard.js'), 'install', '--user', '--hook-form', 'direct'], { cwd: wt, env: { ...ENV, HOME: h }, stdio: 'ignore' });
  const hook = JSON.parse(readFileSync(join(h, '.claude', 'settings.json'), 'utf8')).hooks.PreToolUse.flatMap((e) => e.hooks).find((x) => /bashguard/.test(x.command));
  return [hook.command, ...(hook.args ?? [])];
}

const event = (command) => JSON.stringify({ session_id: 'bench', transcript_path: '/dev/null', cwd: wt, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
const ALLOW = event('git status && npm test -- --run 2>&1 | tail -20');
const DENY = event('cd ../main && echo done > notes.txt');

/** CPU milliseconds of one run (the process and its children). */
function cpu(argv, input = '', env = ENV) {
  const r = spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', '--', ...argv], { input, env, cwd: wt });
  const line = r.stderr.toString().split('\n').find((l) => l.includes('task-clock'));
  return Number(line.split(',')[0]);
}

// Each checkout with a HOME of its own: two versions sharing one would overwrite each other's
// kept facts (the enforcement's plan, named by worktree and HOME) on every call.
const subjects = ROOTS.flatMap((root, i) => {
  const argv = installed(root, i);
  const tag = i === 0 ? 'this checkout' : root;
  const own = (h) => {
    const dir = `${h}-${i}`;
    cpSync(h, dir, { recursive: true });
    return { ...ENV, HOME: dir };
  };
  return [
    { label: `${tag}: allow`, argv, input: ALLOW, env: own(home) },
    { label: `${tag}: deny`, argv, input: DENY, env: own(home) },
    { label: `${tag}: allow, enforce off`, argv, input: ALLOW, env: own(homeOff) },
  ];
});
for (const s of subjects) for (let k = 0; k < 2; k++) cpu(s.argv, s.input, s.env);
const baseline = [];
for (const s of subjects) s.ms = [];
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 ? [...subjects].reverse() : subjects;
  for (const s of order) {
    baseline.push(cpu([process.execPath, '-e', '0']));
    s.ms.push(cpu(s.argv, s.input, s.env));
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const b = median(baseline);
console.log(`CPU time (perf task-clock), medians of ${ROUNDS} interleaved rounds; node -e 0: ${b.toFixed(1)} ms`);
for (const s of subjects) console.log(`${s.label}: ${median(s.ms).toFixed(1)} ms, ${(median(s.ms) / b).toFixed(2)}x`);
