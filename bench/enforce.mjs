#!/usr/bin/env node
/**
 * The per-call cost of the OS enforcement of allowed Bash calls (issue #38), beside the hook's own.
 *
 *   node bench/enforce.mjs [--rounds=N] [--out=FILE.json]
 *
 * A throw-away main checkout with a linked worktree and a sibling, HOME and the client's TMPDIR in a temp dir with
 * `~/.claude/settings.json`. Per round, interleaved (the order rotates every round, because the
 * machine is shared and noisy), each one process timed around spawnSync:
 * - `hook off`: `node bin/bashguard.js hook` on an allowed Bash call with `"enforce": "off"` in the
 *   user config (the analyzer alone: the answer is a plain allow);
 * - `hook on`: the same with the default (`auto`): the answer carries the wrapped command;
 * - `client plain`: the client's side of the call unwrapped, as Claude Code runs it: `bash -c`
 *   with `eval '<command>' && pwd -P >| <file>` (command: `true`);
 * - `client bwrap`: the same with the wrapped command the hook answered (under `auto`, with the
 *   client's shell bash: the plan's mounts made in that shell, src/layers/sandbox/in-shell.ts;
 *   else bubblewrap started by it; no node);
 * - `hook bwrap` and `client bwrap alone`: the same under `"enforce": "bwrap"` (bubblewrap always);
 * - `client sandbox run`: the same through `bashguard sandbox run` (a second node start: what the
 *   `sandbox` decision does), for comparison;
 * - `hook landlock` and `client landlock`: the hook with `"enforce": "landlock"` and the client's
 *   shell running the Landlock wrapper it answered (src/layers/sandbox/landlock.ts), where Landlock
 *   can be used here (else left out, and said why).
 * - `hook zsh`, `client zsh plain` and `client zsh`: the default for a zsh user (SHELL zsh: Claude
 *   Code runs the call in zsh; the helper makes the mounts for the inner zsh), where zsh is installed;
 * - `floor`: bwrap with the wrapper's namespaces, /dev and /proc but no grant, starting the same
 *   inner shell: what any per-call bubblewrap costs here (bwrap's wrapper's share above it is its
 *   mounts and its shell work).
 * Reported: p50 and p99 of each, and of the paired per-round deltas: the hook's own added cost
 * (on - off), the wrapper's (bwrap - plain), their sum (the per-call cost of enforcement), each
 * also as a ratio against the hook alone (`hook off`). Target: p50 added <= 5 ms on Linux.
 * `--against=DIR`: another checkout of bashguard (built) measured in the same rounds (its hook on
 * and off, its wrapper, and where its Landlock wrapper runs here, its hook under Landlock and that
 * wrapper), for a before/after comparison on a noisy machine.
 * Needs bubblewrap that can start here; says why and exits 0 otherwise.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, environment, pct, timeRun } from './lib.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')).map(([k, v]) => [k, v ?? '1']));
const ROUNDS = Number(args.rounds ?? (args.quick ? 15 : 40));
const NODE = process.execPath;
const BIN = join(ROOT, 'bin', 'bashguard.js');
const ZSH = ['/bin/zsh', '/usr/bin/zsh'].find((p) => {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}) ?? null;

function gitIn(cwd, argv) {
  execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', ...argv], { cwd, stdio: 'ignore' });
}

function quietTmp() {
  try {
    accessSync('/var/tmp', constants.W_OK);
    return '/var/tmp';
  } catch {
    return tmpdir();
  }
}

export function enforceBench(rounds = ROUNDS, against = args.against) {
  // Beside the user's files as a checkout is, not in a busy /tmp: Landlock's rules list every
  // directory that holds a protected path, and one that changes all the time is listed again on
  // every call (~1.7 ms for /tmp's ~600 entries on the project's CI machine). /var/tmp where it
  // is writable (it rarely changes), else the temp dir.
  const root = realpathSync(mkdtempSync(join(quietTmp(), 'bashguard-bench-enforce-')));
  try {
    // One layout per checkout measured: the hook makes reservations (empty control files) that
    // stay, which would change what the other checkout's hook computes.
    const layout = (name) => {
      const main = join(root, name, 'main');
      mkdirSync(main, { recursive: true });
      gitIn(main, ['init', '-q']);
      writeFileSync(join(main, 'README.md'), 'x\n');
      gitIn(main, ['add', '.']);
      gitIn(main, ['commit', '-qm', 'i']);
      const wt = join(main, '.builders', 'b1');
      gitIn(main, ['worktree', 'add', '-q', '-b', 'b1', wt]);
      gitIn(main, ['worktree', 'add', '-q', '-b', 'b2', join(main, '.builders', 'b2')]);
      const homeOn = join(root, name, 'home-on');
      const homeOff = join(root, name, 'home-off');
      for (const h of [homeOn, homeOff]) {
        mkdirSync(join(h, '.claude'), { recursive: true });
        writeFileSync(join(h, '.claude', 'settings.json'), '{}\n');
      }
      mkdirSync(join(homeOff, '.config', 'bashguard'), { recursive: true });
      writeFileSync(join(homeOff, '.config', 'bashguard', 'config.json'), '{"enforce":"off"}\n');
      const homeWith = (mode) => {
        const h = join(root, name, `home-${mode}`);
        mkdirSync(join(h, '.claude'), { recursive: true });
        writeFileSync(join(h, '.claude', 'settings.json'), '{}\n');
        mkdirSync(join(h, '.config', 'bashguard'), { recursive: true });
        writeFileSync(join(h, '.config', 'bashguard', 'config.json'), JSON.stringify({ enforce: mode }) + '\n');
        return h;
      };
      return { wt, homeOn, homeOff, homeLl: homeWith('landlock'), homeBw: homeWith('bwrap') };
    };
    // The client's temp dir holds no checkout (as a user's /tmp does not hold their projects): the
    // client writes its cwd file there after the command, so it must be writable whole.
    const clientTmp = join(root, 'tmp');
    mkdirSync(clientTmp);
    // (SHELL: the client's shell is bash, as the client side below runs it)
    const env = (home, shell = '/bin/bash') => ({ PATH: process.env.PATH, HOME: home, TMPDIR: clientTmp, USER: process.env.USER ?? 'bench', SHELL: shell });
    const command = 'true';
    const hookOf = (bin, lay) => {
      const event = JSON.stringify({ session_id: 'bench', cwd: lay.wt, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_bench' });
      // on: true (default config), false ("enforce": "off"), 'landlock' or 'bwrap' (that "enforce"), 'zsh' (the default for a zsh user).
      return (on) => timeRun([NODE, bin, 'hook'], { input: event, env: env(on === 'landlock' ? lay.homeLl : on === 'bwrap' ? lay.homeBw : on ? lay.homeOn : lay.homeOff, on === 'zsh' ? ZSH : undefined), cwd: lay.wt });
    };
    const A = layout('a');
    const B = against ? layout('b') : null;
    // `"enforce": "bwrap"` in a checkout of its own: its HOME is another registry of reservations,
    // and two registries in one worktree race (docs/limits.md: one's sweeper may remove a mount
    // point the other's call found there and is about to mount on).
    const Abw = layout('a-bwrap');
    const hookA = hookOf(BIN, A);
    const hookBw = hookOf(BIN, Abw);
    const hook = (on) => (on === 'bwrap' ? hookBw : hookA)(on);
    const hookB = B ? hookOf(join(against, 'bin', 'bashguard.js'), B) : null;
    // The wrapped command, once (the same text runs every round: each run gets its own cwd file).
    for (let i = 0; i < 2; i++) hook(true), hook(false), hookB?.(true), hookB?.(false); // warm the code caches
    const wrappedBy = (h) => {
      const on = h(true);
      if (!on.stdout.trim()) return { skipped: on.stderr.trim() || 'the hook did not wrap the command' };
      return { wrapped: JSON.parse(on.stdout).hookSpecificOutput.updatedInput.command };
    };
    const w = wrappedBy(hook);
    if (w.skipped) return { skipped: w.skipped };
    const wrapped = w.wrapped;
    // bwrap alone (`"enforce": "bwrap"`: never the mounts in the shell), for its own share.
    hook('bwrap');
    const wBw = wrappedBy(() => hook('bwrap'));
    if (wBw.skipped) return { skipped: wBw.skipped };
    const wB = hookB ? wrappedBy(hookB) : null;
    if (wB?.skipped) return { skipped: `${against}: ${wB.skipped}` };
    const cwdFile = join(clientTmp, 'cwd');
    const clientIn = (lay) => (cmd) => timeRun(['/bin/bash', '-c', `eval "$BG_CMD" && pwd -P >| "$BG_CWD"`], { env: { ...env(lay.homeOn), BG_CMD: cmd, BG_CWD: cwdFile }, cwd: lay.wt });
    const client = clientIn(A);
    if (process.env.BENCH_KEEP) {
      // (for profiling a wrapper by hand: the layout stays, and each wrapped command is beside it)
      writeFileSync(join(root, 'wrapped-default.sh'), wrapped);
      writeFileSync(join(root, 'wrapped-bwrap.sh'), wBw.wrapped);
      if (wB) writeFileSync(join(root, 'wrapped-against.sh'), wB.wrapped);
      process.stderr.write(`bench: BENCH_KEEP: the layout stays in ${root} (worktree ${A.wt}, HOME ${A.homeOn}, TMPDIR ${clientTmp})\n`);
    }
    const probe = client(wrapped);
    if (probe.status !== 0) return { skipped: `the wrapped command fails here (exit ${probe.status}): ${probe.stderr.trim().split('\n')[0]}` };
    const sandboxRun = `${NODE} ${BIN} sandbox run -C ${A.wt} -- bash -c ${command}`;
    // The floor: bwrap with the wrapper's namespaces, /dev and /proc and no grant, starting the
    // same inner shell (what any per-call bubblewrap costs before the first grant is bound).
    const bwrapBin = wrapped.match(/exec (\/\S*bwrap) /)?.[1] ?? 'bwrap';
    const asRoot = process.getuid?.() === 0;
    const floor = [bwrapBin, '--new-session', '--unshare-user', '--unshare-pid', ...(asRoot ? ['--cap-drop', 'ALL', '--bind', '/', '/', '--dev', '/dev'] : ['--dev-bind', '/', '/']), '--proc', '/proc', '--', '/bin/bash', '-c', 'true'].join(' ');
    const subjects = {
      floor: () => client(floor),
      hookOff: () => hook(false),
      hookOn: () => hook(true),
      plain: () => client(command),
      bwrap: () => client(wrapped),
      hookBwrap: () => hook('bwrap'),
      bwrapOnly: () => clientIn(Abw)(wBw.wrapped),
      sandboxRun: () => client(sandboxRun),
      ...(hookB ? { hookOffB: () => hookB(false), hookOnB: () => hookB(true), plainB: () => clientIn(B)(command), bwrapB: () => clientIn(B)(wB.wrapped) } : {}),
    };
    // Landlock, where it can be used here: the hook's answer under `"enforce": "landlock"`.
    hook('landlock');
    const ll = hook('landlock');
    const llWrapped = ll.stdout.trim() ? JSON.parse(ll.stdout).hookSpecificOutput.updatedInput?.command : null;
    const llProbe = llWrapped ? client(llWrapped) : null;
    const landlockSkipped = !llWrapped ? ll.stderr.trim() || (ll.stdout.trim() ? JSON.parse(ll.stdout).hookSpecificOutput.permissionDecisionReason : 'the hook did not wrap the command') : llProbe.status !== 0 ? `the Landlock wrapper fails here (exit ${llProbe.status}): ${llProbe.stderr.trim().split('\n')[0]}` : null;
    if (!landlockSkipped) {
      subjects.hookLandlock = () => hook('landlock');
      subjects.landlock = () => client(llWrapped);
    }
    // The other checkout's Landlock wrapper, where it has one that runs here.
    let llWrappedB = null;
    if (!landlockSkipped && hookB) {
      hookB('landlock');
      const o = hookB('landlock').stdout.trim();
      const w = o ? JSON.parse(o).hookSpecificOutput.updatedInput?.command : null;
      if (w && clientIn(B)(w).status === 0) {
        llWrappedB = w;
        subjects.hookLandlockB = () => hookB('landlock');
        subjects.landlockB = () => clientIn(B)(w);
      }
    }
    // A zsh user (Claude Code runs the call in zsh): the default wrapper, where zsh is installed.
    let zshWrapped = null;
    if (ZSH) {
      hook('zsh');
      const o = hook('zsh').stdout.trim();
      zshWrapped = o ? JSON.parse(o).hookSpecificOutput.updatedInput?.command ?? null : null;
      if (zshWrapped && process.env.BENCH_KEEP) writeFileSync(join(root, 'wrapped-zsh.sh'), zshWrapped);
      const inZsh = (cmd) => timeRun([ZSH, '-c', `eval "$BG_CMD" && pwd -P >| "$BG_CWD"`], { env: { ...env(A.homeOn, ZSH), BG_CMD: cmd, BG_CWD: cwdFile }, cwd: A.wt });
      if (zshWrapped && inZsh(zshWrapped).status === 0) {
        subjects.hookZsh = () => hook('zsh');
        subjects.plainZsh = () => inZsh(command);
        subjects.zsh = () => inZsh(zshWrapped);
        // The other checkout's answer for the same zsh user.
        const o = hookB ? (hookB('zsh'), hookB('zsh').stdout.trim()) : '';
        const wz = o ? JSON.parse(o).hookSpecificOutput.updatedInput?.command : null;
        const inZshB = (cmd) => timeRun([ZSH, '-c', `eval "$BG_CMD" && pwd -P >| "$BG_CWD"`], { env: { ...env(B.homeOn, ZSH), BG_CMD: cmd, BG_CWD: cwdFile }, cwd: B.wt });
        if (wz && inZshB(wz).status === 0) {
          subjects.hookZshB = () => hookB('zsh');
          subjects.plainZshB = () => inZshB(command);
          subjects.zshB = () => inZshB(wz);
        }
      } else zshWrapped = null;
    }
    const keys = Object.keys(subjects);
    const t = Object.fromEntries(keys.map((k) => [k, []]));
    for (let r = 0; r < rounds; r++) {
      const order = keys.map((_, i) => keys[(i + r) % keys.length]);
      for (const k of order) {
        const res = subjects[k]();
        if (res.status !== 0) throw new Error(`${k} failed (exit ${res.status}): ${res.stderr}`);
        t[k].push(res.ms);
      }
    }
    const paired = (a, b) => t[a].map((x, i) => x - t[b][i]);
    const deltas = { hook: paired('hookOn', 'hookOff'), wrapper: paired('bwrap', 'plain'), bwrapHook: paired('hookBwrap', 'hookOff'), bwrapWrapper: paired('bwrapOnly', 'plain'), floor: paired('floor', 'plain'), grants: paired('bwrapOnly', 'floor'), sandboxRun: paired('sandboxRun', 'plain') };
    deltas.total = deltas.hook.map((x, i) => x + deltas.wrapper[i]);
    deltas.bwrapTotal = deltas.bwrapHook.map((x, i) => x + deltas.bwrapWrapper[i]);
    if (!landlockSkipped) {
      deltas.landlockHook = paired('hookLandlock', 'hookOff');
      deltas.landlockWrapper = paired('landlock', 'plain');
      deltas.landlockTotal = deltas.landlockHook.map((x, i) => x + deltas.landlockWrapper[i]);
    }
    if (zshWrapped) {
      deltas.zshHook = paired('hookZsh', 'hookOff');
      deltas.zshWrapper = paired('zsh', 'plainZsh');
      deltas.zshTotal = deltas.zshHook.map((x, i) => x + deltas.zshWrapper[i]);
    }
    if (t.zshB) {
      deltas.zshHookB = paired('hookZshB', 'hookOffB');
      deltas.zshWrapperB = paired('zshB', 'plainZshB');
      deltas.zshTotalB = deltas.zshHookB.map((x, i) => x + deltas.zshWrapperB[i]);
    }
    if (llWrappedB) {
      deltas.landlockHookB = paired('hookLandlockB', 'hookOffB');
      deltas.landlockWrapperB = paired('landlockB', 'plainB');
      deltas.landlockTotalB = deltas.landlockHookB.map((x, i) => x + deltas.landlockWrapperB[i]);
    }
    if (hookB) {
      deltas.hookB = paired('hookOnB', 'hookOffB');
      deltas.wrapperB = paired('bwrapB', 'plainB');
      deltas.totalB = deltas.hookB.map((x, i) => x + deltas.wrapperB[i]);
    }
    const stat = (a) => ({ p50: pct(a, 50), p99: pct(a, 99) });
    const hookAlone = pct(t.hookOff, 50);
    return {
      rounds,
      argc: wrapped.length,
      inShell: wrapped.includes('bashguard_mounts'),
      argcBwrap: wBw.wrapped.length,
      ...(zshWrapped ? { zshBy: / --mounts /.test(zshWrapped) ? "bashguard's helper" : 'bubblewrap' } : {}),
      ...(landlockSkipped ? { landlockSkipped } : { landlockArgc: llWrapped.length }),
      ...(hookB ? { against, argcB: wB.wrapped.length } : {}),
      ...(llWrappedB ? { landlockArgcB: llWrappedB.length } : {}),
      times: Object.fromEntries(keys.map((k) => [k, stat(t[k])])),
      added: Object.fromEntries(Object.entries(deltas).map(([k, a]) => [k, { ...stat(a), ratioToHook: pct(a, 50) / hookAlone }])),
      target: { p50AddedMs: 5, pass: pct(deltas.total, 50) <= 5 },
    };
  } finally {
    if (!process.env.BENCH_KEEP) rmSync(root, { recursive: true, force: true });
  }
}

export function enforceReport(r) {
  if (r.skipped) return [`Enforcement: skipped (${r.skipped}).`];
  const f = (x) => `${x.toFixed(1)} ms`;
  const L = [
    `Per-call cost of enforcement, ${r.rounds} interleaved rounds (the default wrapper is ${r.argc} characters${r.inShell ? ", the mounts made in the client's shell" : ', bubblewrap'}; bwrap's alone ${r.argcBwrap}):`,
    '',
    '| subject | p50 | p99 |',
    '|---|---|---|',
    `| hook alone (\`"enforce": "off"\`) | ${f(r.times.hookOff.p50)} | ${f(r.times.hookOff.p99)} |`,
    `| hook computing the wrapper | ${f(r.times.hookOn.p50)} | ${f(r.times.hookOn.p99)} |`,
    `| client shell, command unwrapped | ${f(r.times.plain.p50)} | ${f(r.times.plain.p99)} |`,
    `| client shell, the default wrapper | ${f(r.times.bwrap.p50)} | ${f(r.times.bwrap.p99)} |`,
    `| hook computing bwrap's wrapper (\`"enforce": "bwrap"\`) | ${f(r.times.hookBwrap.p50)} | ${f(r.times.hookBwrap.p99)} |`,
    `| client shell, bwrap's wrapper | ${f(r.times.bwrapOnly.p50)} | ${f(r.times.bwrapOnly.p99)} |`,
    `| client shell, bwrap floor (namespaces, /dev, /proc, no grant) | ${f(r.times.floor.p50)} | ${f(r.times.floor.p99)} |`,
    `| client shell, \`bashguard sandbox run\` | ${f(r.times.sandboxRun.p50)} | ${f(r.times.sandboxRun.p99)} |`,
    '',
    '| added per call (paired per round) | p50 | p99 | p50 / hook alone |',
    '|---|---|---|---|',
    `| in the hook (on - off) | ${f(r.added.hook.p50)} | ${f(r.added.hook.p99)} | ${r.added.hook.ratioToHook.toFixed(2)} |`,
    `| the default wrapper (wrapped - unwrapped) | ${f(r.added.wrapper.p50)} | ${f(r.added.wrapper.p99)} | ${r.added.wrapper.ratioToHook.toFixed(2)} |`,
    `| **enforcement total** | **${f(r.added.total.p50)}** | ${f(r.added.total.p99)} | ${r.added.total.ratioToHook.toFixed(2)} |`,
    `| bwrap alone: in the hook | ${f(r.added.bwrapHook.p50)} | ${f(r.added.bwrapHook.p99)} | ${r.added.bwrapHook.ratioToHook.toFixed(2)} |`,
    `| bwrap alone: its wrapper | ${f(r.added.bwrapWrapper.p50)} | ${f(r.added.bwrapWrapper.p99)} | ${r.added.bwrapWrapper.ratioToHook.toFixed(2)} |`,
    `| bwrap alone: **total** | **${f(r.added.bwrapTotal.p50)}** | ${f(r.added.bwrapTotal.p99)} | ${r.added.bwrapTotal.ratioToHook.toFixed(2)} |`,
    `| of bwrap's wrapper: the bwrap floor (floor - unwrapped) | ${f(r.added.floor.p50)} | ${f(r.added.floor.p99)} | ${r.added.floor.ratioToHook.toFixed(2)} |`,
    `| of bwrap's wrapper: grants and shell work (wrapped - floor) | ${f(r.added.grants.p50)} | ${f(r.added.grants.p99)} | ${r.added.grants.ratioToHook.toFixed(2)} |`,
    `| \`sandbox run\` instead of the wrapper | ${f(r.added.sandboxRun.p50)} | ${f(r.added.sandboxRun.p99)} | ${r.added.sandboxRun.ratioToHook.toFixed(2)} |`,
    '',
    `Target: p50 added <= ${r.target.p50AddedMs} ms: ${r.target.pass ? 'pass' : 'FAIL'}.`,
  ];
  if (r.added.zshTotal)
    L.push(
      '',
      `A zsh user (the client runs the call in zsh; the mounts made by ${r.zshBy}):`,
      '',
      '| added per call (paired per round) | p50 | p99 | p50 / hook alone |',
      '|---|---|---|---|',
      `| in the hook | ${f(r.added.zshHook.p50)} | ${f(r.added.zshHook.p99)} | ${r.added.zshHook.ratioToHook.toFixed(2)} |`,
      `| the wrapper, in zsh (wrapped - unwrapped) | ${f(r.added.zshWrapper.p50)} | ${f(r.added.zshWrapper.p99)} | ${r.added.zshWrapper.ratioToHook.toFixed(2)} |`,
      `| **enforcement total, zsh** | **${f(r.added.zshTotal.p50)}** | ${f(r.added.zshTotal.p99)} | ${r.added.zshTotal.ratioToHook.toFixed(2)} |`,
      ...(r.added.zshTotalB
        ? [
            `| ${r.against}: in the hook | ${f(r.added.zshHookB.p50)} | ${f(r.added.zshHookB.p99)} | ${r.added.zshHookB.ratioToHook.toFixed(2)} |`,
            `| ${r.against}: the wrapper, in zsh | ${f(r.added.zshWrapperB.p50)} | ${f(r.added.zshWrapperB.p99)} | ${r.added.zshWrapperB.ratioToHook.toFixed(2)} |`,
            `| ${r.against}: **enforcement total, zsh** | **${f(r.added.zshTotalB.p50)}** | ${f(r.added.zshTotalB.p99)} | ${r.added.zshTotalB.ratioToHook.toFixed(2)} |`,
          ]
        : []),
    );
  if (r.landlockSkipped) L.push('', `Landlock: skipped (${r.landlockSkipped}).`);
  else
    L.push(
      '',
      `Landlock (\`"enforce": "landlock"\`; the wrapper is ${r.landlockArgc} characters):`,
      '',
      '| subject | p50 | p99 |',
      '|---|---|---|',
      `| hook computing the Landlock wrapper | ${f(r.times.hookLandlock.p50)} | ${f(r.times.hookLandlock.p99)} |`,
      `| client shell, landlock wrapper | ${f(r.times.landlock.p50)} | ${f(r.times.landlock.p99)} |`,
      '',
      '| added per call (paired per round) | p50 | p99 | p50 / hook alone |',
      '|---|---|---|---|',
      `| in the hook (landlock - off) | ${f(r.added.landlockHook.p50)} | ${f(r.added.landlockHook.p99)} | ${r.added.landlockHook.ratioToHook.toFixed(2)} |`,
      `| landlock wrapper (wrapped - unwrapped) | ${f(r.added.landlockWrapper.p50)} | ${f(r.added.landlockWrapper.p99)} | ${r.added.landlockWrapper.ratioToHook.toFixed(2)} |`,
      `| **Landlock enforcement total** | **${f(r.added.landlockTotal.p50)}** | ${f(r.added.landlockTotal.p99)} | ${r.added.landlockTotal.ratioToHook.toFixed(2)} |`,
    );
  if (r.added.landlockHookB)
    L.push(
      `| ${r.against}: in the hook | ${f(r.added.landlockHookB.p50)} | ${f(r.added.landlockHookB.p99)} | ${r.added.landlockHookB.ratioToHook.toFixed(2)} |`,
      `| ${r.against}: landlock wrapper (${r.landlockArgcB} characters) | ${f(r.added.landlockWrapperB.p50)} | ${f(r.added.landlockWrapperB.p99)} | ${r.added.landlockWrapperB.ratioToHook.toFixed(2)} |`,
      `| ${r.against}: **Landlock enforcement total** | **${f(r.added.landlockTotalB.p50)}** | ${f(r.added.landlockTotalB.p99)} | ${r.added.landlockTotalB.ratioToHook.toFixed(2)} |`,
    );
  if (r.added.hookB)
    L.push(
      '',
      `Against ${r.against} (bubblewrap, the same rounds; its wrapper is ${r.argcB} characters):`,
      '',
      '| added per call (paired per round) | p50 | p99 |',
      '|---|---|---|',
      `| in the hook (on - off) | ${f(r.added.hookB.p50)} | ${f(r.added.hookB.p99)} |`,
      `| bwrap wrapper (wrapped - unwrapped) | ${f(r.added.wrapperB.p50)} | ${f(r.added.wrapperB.p99)} |`,
      `| **enforcement total** | **${f(r.added.totalB.p50)}** | ${f(r.added.totalB.p99)} |`,
    );
  return L;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const env = environment();
  const r = enforceBench();
  const lines = enforceReport(r);
  console.log(lines.join('\n'));
  console.log(`\n(${JSON.stringify(env)})`);
  if (args.out) writeFileSync(args.out, JSON.stringify({ environment: env, ...r }, null, 2) + '\n');
}
