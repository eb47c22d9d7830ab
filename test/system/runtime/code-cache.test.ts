/**
 * The V8 code cache of the hook bundle (src/runtime/startup/code-cache.ts), through the real entry point
 * (`node bin/bashguard.js hook`, built dist/) against a real git layout. A cache may cost time,
 * never an answer: for a missing, stale, corrupt, refused, unreadable or unwritable cache the
 * hook must answer exactly as with no cache at all, print nothing but the debug line, and exit 0.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { PLATFORM_REASONS, REPO_ROOT, platformSkip } from '../../helpers/shared.js';
import { cacheFileName, readCache } from '../../../src/runtime/startup/code-cache.js';
import { leanFlagsPay } from '../../../src/runtime/startup/v8-flags.js';
import { workerV8Flags } from '../../../src/frontends/lint/spawn-worker.js';
import { isAllowOutput } from '../../helpers/allow.js';

const CLI = join(REPO_ROOT, 'bin', 'bashguard.js');
const BUNDLE = join(REPO_ROOT, 'dist', 'hook.cjs');

let layout: GitLayout;
let xdg: string;
/** The answers with the cache switched off: what every cached run must reproduce. */
const reference: Record<string, string> = {};

const COMMANDS = {
  deny: 'cd ../.. && echo done > notes.txt',
  allow: 'git status && npm test -- --run 2>&1 | tail -20',
  gitMain: 'git -C ../.. commit -qm x',
};
type Name = keyof typeof COMMANDS;

function hook(name: Name, extra: Record<string, string> = {}) {
  const input = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: COMMANDS[name] }, cwd: layout.worktree });
  const env = { PATH: process.env.PATH, HOME: layout.root, XDG_CACHE_HOME: xdg, BASHGUARD_CODE_CACHE_DEBUG: '1', ...extra };
  const r = spawnSync(process.execPath, [CLI, 'hook'], { input, env, cwd: layout.worktree, encoding: 'utf8', timeout: 60_000 });
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  const state = /^bashguard: code cache (\w+)/.exec(lines[0] ?? '')?.[1] ?? null;
  return { code: r.status, stdout: r.stdout, state, otherStderr: lines.slice(1).join('\n') };
}

/**
 * The same answer: byte for byte, or for an allow wrapped in the OS enforcement, the same command
 * wrapped (the wrapper's read-only paths follow what exists, the cache directory among them).
 */
function sameAnswer(got: string, want: string): boolean {
  if (got === want) return true;
  return isAllowOutput(want) && want !== '' && isAllowOutput(got, COMMANDS.allow) && isAllowOutput(want, COMMANDS.allow);
}

/** Runs every command and checks each answer against the reference; returns the cache states. */
function expectSameAnswers(extra: Record<string, string> = {}): (string | null)[] {
  const states: (string | null)[] = [];
  for (const name of Object.keys(COMMANDS) as Name[]) {
    const r = hook(name, extra);
    expect(r.code, r.otherStderr).toBe(0);
    expect(r.otherStderr).toBe('');
    expect(sameAnswer(r.stdout, reference[name]!), `${name}: ${r.stdout}`).toBe(true);
    states.push(r.state);
  }
  return states;
}

const cacheDirPath = () => join(xdg, 'bashguard');
function cacheFile(): string {
  // The hook bundle's file (a WASM run also writes web-tree-sitter's, hook-wts...).
  const files = readdirSync(cacheDirPath()).filter((f) => /^hook-[0-9a-f]{32}(-lean)?-node.*\.cache$/.test(f));
  expect(files).toHaveLength(1);
  return join(cacheDirPath(), files[0]!);
}

beforeAll(() => {
  expect(existsSync(BUNDLE), 'dist/ is built (npm run build)').toBe(true);
  layout = makeGitLayout('bashguard-code-cache-');
  xdg = join(layout.root, 'xdg');
  for (const name of Object.keys(COMMANDS) as Name[]) {
    const r = hook(name, { BASHGUARD_CODE_CACHE: '0' });
    expect(r.code).toBe(0);
    expect(r.state).toBe('off');
    reference[name] = r.stdout;
  }
  // The reference answers are the real ones, not a blank allow.
  expect(JSON.parse(reference.deny!).hookSpecificOutput.permissionDecision).toBe('deny');
  expect(JSON.parse(reference.gitMain!).hookSpecificOutput.permissionDecision).toBe('deny');
  expect(isAllowOutput(reference.allow!)).toBe(true);
}, 120_000);
afterAll(() => layout?.cleanup());
beforeEach(() => rmSync(xdg, { recursive: true, force: true }));

describe('hook code cache', () => {
  it('is written on the first run (0700 directory, 0600 file), then used, same answers', () => {
    expect(expectSameAnswers()[0]).toBe('miss');
    const st = statSync(cacheDirPath());
    expect(st.mode & 0o777).toBe(0o700);
    expect(statSync(cacheFile()).mode & 0o777).toBe(0o600);
    expect(expectSameAnswers()).toEqual(['hit', 'hit', 'hit']);
    // The file name carries the Node version: another Node never reads it.
    expect(cacheFile()).toContain(`node${process.versions.node}-${process.arch}`);
  }, 60_000);

  it('a hit runs on the start entry alone; the whole loader (dist/code-cache.cjs) is loaded for a miss, WASM, the JavaScript reader', () => {
    // A preload reports at exit whether the process loaded the whole loader (src/runtime/startup/full-load.ts).
    const preload = join(layout.root, 'report-loader.cjs');
    writeFileSync(preload, "process.on('exit', () => process.stderr.write('whole loader: ' + Object.keys(require.cache).some((f) => f.endsWith('/dist/code-cache.cjs')) + '\\n'));\n");
    const opts = { NODE_OPTIONS: `--require ${preload}` };
    const loader = (r: ReturnType<typeof hook>) => /whole loader: (\w+)/.exec(r.otherStderr)?.[1];
    const runs = (Object.keys(COMMANDS) as Name[]).flatMap((name) => [hook(name, opts), hook(name, opts)]);
    expect(runs.map((r) => [r.state, loader(r)])).toEqual([['miss', 'true'], ['hit', 'false'], ['hit', 'false'], ['hit', 'false'], ['hit', 'false'], ['hit', 'false']]);
    runs.forEach((r, i) => expect(sameAnswer(r.stdout, reference[(Object.keys(COMMANDS) as Name[])[i >> 1]!]!)).toBe(true));
    expect(loader(hook('deny', { ...opts, BASHGUARD_PARSER: 'wasm' }))).toBe('true');
    expect(loader(hook('deny', { ...opts, BASHGUARD_NATIVE_READ: '0' }))).toBe('true');
  }, 60_000);

  it('falls back to ~/.cache/bashguard without XDG_CACHE_HOME', () => {
    const home = join(layout.root, 'home-fallback');
    mkdirSync(home, { recursive: true });
    hook('deny', { XDG_CACHE_HOME: '', HOME: home });
    expect(readdirSync(join(home, '.cache', 'bashguard')).some((f) => f.endsWith('.cache'))).toBe(true);
  }, 60_000);

  it('stale: a file made for other source text of the same length is not used, and is replaced', () => {
    expectSameAnswers();
    const file = cacheFile();
    const buf = readFileSync(file);
    // The stored source copy starts after the 16-byte header: change one character of it, as an
    // edited bundle of the same length would look. V8 alone would accept the data (it checks the length).
    const i = buf.indexOf('bashguard', 16);
    expect(i).toBeGreaterThan(16);
    expect(i).toBeLessThan(16 + buf.readUInt32LE(8));
    buf[i] = buf[i]! ^ 0x20;
    writeFileSync(file, buf);
    expect(readCache(file, readFileSync(BUNDLE))).toBeNull();
    expect(expectSameAnswers()[0]).toBe('miss');
    expect(readCache(file, readFileSync(BUNDLE))).not.toBeNull();
    expect(expectSameAnswers()).toEqual(['hit', 'hit', 'hit']);
  }, 60_000);

  it('corrupt: a damaged byte in the bytecode, a truncated file, garbage, an empty file', () => {
    expectSameAnswers();
    const file = cacheFile();
    const good = readFileSync(file);
    const damaged = Buffer.from(good);
    damaged[good.length - 1000] = damaged[good.length - 1000]! ^ 0xff; // in the second copy
    const damagedFirst = Buffer.from(good);
    const sourceLen = good.readUInt32LE(8);
    damagedFirst[16 + sourceLen + 500] = damagedFirst[16 + sourceLen + 500]! ^ 0x01; // in the first copy
    for (const bad of [damaged, damagedFirst, good.subarray(0, good.length - 7), Buffer.from('garbage'.repeat(1000)), Buffer.alloc(0)]) {
      writeFileSync(file, bad, { mode: 0o600 });
      expect(expectSameAnswers()[0]).toBe('miss');
      // Rewritten whole by that run.
      expect(readCache(file, readFileSync(BUNDLE))).not.toBeNull();
    }
  }, 120_000);

  it('refused by V8 (data that passes our checks but not V8 own): same answers, rewritten', () => {
    expectSameAnswers();
    const file = cacheFile();
    const good = readFileSync(file);
    const sourceLen = good.readUInt32LE(8);
    const dataLen = good.readUInt32LE(12);
    const bad = Buffer.from(good);
    // Byte 4 of V8's header (its version hash), in both copies: our checks pass, V8 refuses.
    for (const at of [16 + sourceLen + 4, 16 + sourceLen + dataLen + 4]) bad[at] = bad[at]! ^ 0xff;
    writeFileSync(file, bad, { mode: 0o600 });
    expect(readCache(file, readFileSync(BUNDLE))).not.toBeNull();
    expect(expectSameAnswers()[0]).toBe('rejected');
    expect(readFileSync(file).equals(bad)).toBe(false);
    expect(expectSameAnswers()).toEqual(['hit', 'hit', 'hit']);
  }, 60_000);

  it('unwritable: a cache location that cannot be created changes nothing', () => {
    const notADir = join(layout.root, 'a-file');
    writeFileSync(notADir, 'x');
    expect(expectSameAnswers({ XDG_CACHE_HOME: notADir })).toEqual(['miss', 'miss', 'miss']);
    expect(expectSameAnswers({ XDG_CACHE_HOME: join(notADir, 'below') })).toEqual(['miss', 'miss', 'miss']);
  }, 60_000);

  // (root writes anyway; for root the case is the ENOTDIR one above)
  it.skipIf(platformSkip(process.getuid?.() === 0, PLATFORM_REASONS.asNonRoot) !== null)(`unwritable: a read-only cache directory changes nothing (${PLATFORM_REASONS.asNonRoot})`, () => {
    mkdirSync(cacheDirPath(), { recursive: true, mode: 0o500 });
    chmodSync(cacheDirPath(), 0o500);
    expect(expectSameAnswers()).toEqual(['miss', 'miss', 'miss']);
  }, 60_000);

  it('a directory that is not private is not read from, and is tightened before writing', () => {
    expectSameAnswers();
    chmodSync(cacheDirPath(), 0o777);
    expect(readCache(cacheFile(), readFileSync(BUNDLE))).toBeNull();
    expect(expectSameAnswers()[0]).toBe('miss');
    expect(statSync(cacheDirPath()).mode & 0o777).toBe(0o700);
    expect(expectSameAnswers()).toEqual(['hit', 'hit', 'hit']);
  }, 60_000);

  it('a symlinked cache directory is neither read nor written', () => {
    const real = join(layout.root, 'real-cache');
    mkdirSync(real, { recursive: true, mode: 0o700 });
    mkdirSync(xdg, { recursive: true });
    symlinkSync(real, cacheDirPath());
    expect(expectSameAnswers()).toEqual(['miss', 'miss', 'miss']);
    expect(readdirSync(real)).toEqual([]);
  }, 60_000);

  // (chown needs root)
  it.skipIf(platformSkip(process.getuid?.() !== 0, PLATFORM_REASONS.asRoot) !== null)(`a cache directory owned by another user is neither read nor written (${PLATFORM_REASONS.asRoot})`, () => {
    mkdirSync(xdg, { recursive: true });
    mkdirSync(cacheDirPath(), { mode: 0o700 });
    chownSync(cacheDirPath(), 65534, 65534);
    expect(expectSameAnswers()).toEqual(['miss', 'miss', 'miss']);
    expect(readdirSync(cacheDirPath())).toEqual([]);
  }, 60_000);

  it('the WASM fallback (native addon failing: V8 flags changed mid-run) still writes a cache a later process uses', () => {
    // node-gyp-build honours TREE_SITTER_PREBUILD: a path that does not exist makes the native
    // binding fail to load, and auto mode falls back to WASM.
    const fallback = { TREE_SITTER_PREBUILD: join(layout.root, 'no-such-prebuild') };
    const first = hook('deny', fallback);
    expect(first.state).toBe('miss');
    expect(first.stdout).toBe(reference.deny);
    const file = cacheFile();
    expect(readCache(file, readFileSync(BUNDLE))).not.toBeNull();
    const second = hook('deny', fallback);
    expect(second.state).toBe('hit');
    expect(second.stdout).toBe(reference.deny);
    // and a native process accepts it too (made under the default flags, before they changed)
    expect(expectSameAnswers()).toEqual(['hit', 'hit', 'hit']);
  }, 60_000);

  it('BASHGUARD_PARSER=wasm: the flags are set first and the cache is a file of its own, used by the next such process; native ones keep theirs', () => {
    const wasm = { BASHGUARD_PARSER: 'wasm' };
    const first = hook('deny', wasm);
    expect(first.state).toBe('miss');
    expect(first.stdout).toBe(reference.deny);
    const files = readdirSync(cacheDirPath()).filter((f) => f.endsWith('.cache'));
    expect(files.some((f) => /^hook-[0-9a-f]+-wasm-node/.test(f))).toBe(true);
    expect(hook('deny', wasm).state).toBe('hit');
    // The native processes start from their own file (a miss, then hits), with the same answers.
    expect(expectSameAnswers()).toEqual(['miss', 'hit', 'hit']);
    expect(hook('deny', wasm)).toMatchObject({ state: 'hit', stdout: reference.deny });
  }, 60_000);

  it('the cache written after a file-tool call covers Bash calls too (the warm-up, src/frontends/hook/warm-up.ts), and the warm-up writes nothing', () => {
    const log = join(layout.root, 'function-events.log');
    const state = join(layout.root, 'state');
    rmSync(state, { recursive: true, force: true });
    // V8's function events name every function compiled from source instead of taken from the cache.
    const run = (input: object) => {
      rmSync(log, { force: true });
      const env = { PATH: process.env.PATH, HOME: layout.root, XDG_CACHE_HOME: xdg, XDG_STATE_HOME: state, BASHGUARD_CODE_CACHE_DEBUG: '1' };
      const r = spawnSync(process.execPath, ['--log-function-events', `--logfile=${log}`, '--no-logfile-per-isolate', CLI, 'hook'], { input: JSON.stringify(input), env, cwd: layout.worktree, encoding: 'utf8', timeout: 60_000 });
      const lines = readFileSync(log, 'latin1').split('\n');
      const bundleScripts = new Set(lines.filter((l) => l.startsWith('script-details,') && l.includes(BUNDLE)).map((l) => l.split(',')[1]));
      const compiled = lines.filter((l) => l.startsWith('function,parse-function,') && bundleScripts.has(l.split(',')[2])).length;
      return { ...r, state: /^bashguard: code cache (\w+)/.exec(r.stderr)?.[1], compiled };
    };
    const edit = run({ hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: join(layout.worktree, 'notes.md'), old_string: 'a', new_string: 'b' }, cwd: layout.worktree });
    expect(edit.state).toBe('miss');
    expect(edit.status).toBe(0);
    // one answer (an allow: nothing), nothing else on stderr, no decision logged: the warm-up's own calls stay silent
    expect(edit.stdout).toBe('');
    expect(edit.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('bashguard: code cache'))).toEqual([]);
    expect(existsSync(join(state, 'bashguard', 'decisions.jsonl'))).toBe(false);
    // A Bash call unlike the warm-up's: git, a pipeline, a write outside the worktree.
    const bash = run({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git diff HEAD~1 | head -3 && printf ok > ../../out.txt' }, cwd: layout.worktree });
    expect(bash.state).toBe('hit');
    expect(JSON.parse(bash.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    // Without the warm-up ~150 functions of the bundle are compiled again here; with it, a handful.
    expect(bash.compiled).toBeLessThan(40);
    expect(readFileSync(join(state, 'bashguard', 'decisions.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
  }, 60_000);

  it.skipIf(process.platform === 'win32')('a FIFO in place of the cache file blocks nothing (it is opened before the time limit is armed): same answers', () => {
    expectSameAnswers();
    const file = cacheFile();
    rmSync(file);
    expect(spawnSync('mkfifo', ['-m', '600', file]).status).toBe(0);
    const t0 = performance.now();
    const states = expectSameAnswers();
    expect(performance.now() - t0).toBeLessThan(20_000);
    // Not read, and not replaced by a cache either (the write goes through a rename, which would
    // replace it; what matters is that nothing waited on it).
    expect(states.every((s) => s === 'miss' || s === 'hit')).toBe(true);
  });

  it("the JavaScript reader and Node's fs (BASHGUARD_NATIVE_READ=0, BASHGUARD_NATIVE_IO=0: as without the addon) give the same answers, and the two share one cache", () => {
    const js = { BASHGUARD_NATIVE_READ: '0', BASHGUARD_NATIVE_IO: '0' };
    expect(expectSameAnswers(js)[0]).toBe('miss');
    expect(expectSameAnswers(js)).toEqual(['hit', 'hit', 'hit']);
    expect(expectSameAnswers()).toEqual(['hit', 'hit', 'hit']);
    rmSync(xdg, { recursive: true, force: true });
    expect(expectSameAnswers()[0]).toBe('miss');
    expect(expectSameAnswers(js)).toEqual(['hit', 'hit', 'hit']);
  }, 60_000);

  it.skipIf(platformSkip(!leanFlagsPay(), PLATFORM_REASONS.nodeBefore24) !== null)(`the hook sets its own V8 flags (as the installed command's command line has them): a file of its own, used by the next hook; not with the flags given, nor with BASHGUARD_LEAN=0 (${PLATFORM_REASONS.nodeBefore24})`, () => {
    expect(hook('deny').state).toBe('miss');
    expect(cacheFile()).toMatch(/^.*\/hook-[0-9a-f]{32}-lean-node[^/]*\.cache$/);
    const allow = hook('allow');
    expect(allow.state).toBe('hit');
    expect(sameAnswer(allow.stdout, reference.allow!)).toBe(true);
    const names = () => readdirSync(cacheDirPath()).filter((f) => f.endsWith('.cache')).sort();
    const lean = names();
    // Without them: the default file (a miss first), the same answers.
    expect(hook('deny', { BASHGUARD_LEAN: '0' })).toMatchObject({ state: 'miss', stdout: reference.deny });
    expect(hook('deny', { BASHGUARD_LEAN: '0' })).toMatchObject({ state: 'hit', stdout: reference.deny });
    const plain = names().filter((f) => !lean.includes(f));
    expect(plain).toHaveLength(1);
    expect(plain[0]).toMatch(/^hook-[0-9a-f]{32}-node[^-]+-[a-z0-9]+\.cache$/);
    // With the flags on the command line, the file of that command line (cacheFileName).
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: COMMANDS.deny }, cwd: layout.worktree });
    const env = { PATH: process.env.PATH, HOME: layout.root, XDG_CACHE_HOME: xdg, BASHGUARD_CODE_CACHE_DEBUG: '1' };
    const r = spawnSync(process.execPath, ['--no-sparkplug', '--no-maglev', CLI, 'hook'], { input, env, cwd: layout.worktree, encoding: 'utf8' });
    expect(r.stdout).toBe(reference.deny);
    expect(r.stderr).toMatch(/^bashguard: code cache miss .*\/hook-[0-9a-f]{32}-node[^/]*-f[0-9a-f]+\.cache\n/);
  }, 60_000);

  it('V8\'s flags pay on V8 11 to 13 (Node 20 to 24), not assumed past them', () => {
    expect([leanFlagsPay('11.3.244.8-node.33'), leanFlagsPay('12.4.254.21-node.33'), leanFlagsPay('13.6.233.17-node.37'), leanFlagsPay('14.1.0')]).toEqual([true, true, true, false]);
  });

  it.skipIf(platformSkip(leanFlagsPay(), PLATFORM_REASONS.node24On) !== null)(`the hook leaves V8's flags alone where they do not pay (${PLATFORM_REASONS.node24On})`, () => {
    expect(hook('deny').state).toBe('miss');
    expect(cacheFile()).toMatch(/^.*\/hook-[0-9a-f]{32}-node[^/]*\.cache$/);
  }, 60_000);

  it('other node flags get their own file', () => {
    expect(cacheFileName('k', [], '')).not.toBe(cacheFileName('k', ['--max-old-space-size=100'], ''));
    expect(cacheFileName('k', [], '')).not.toBe(cacheFileName('k', [], '--stack-size=2000'));
    expect(cacheFileName('k', [], '')).toBe(cacheFileName('k', [], ''));
  });
});

describe('lint worker code cache', () => {
  it('written after a one-line file, it covers a real script too (the training run, src/frontends/lint/training.ts), whose findings go nowhere', () => {
    const dir = join(layout.root, 'lint-training');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    const tiny = join(dir, 'tiny.sh');
    writeFileSync(tiny, '#!/bin/sh\necho hi\n');
    // V8's function events (one log per process: %p) name every function compiled from source
    // instead of taken from the cache; both runs have the same flags, so the same cache file.
    const run = (file: string) => {
      for (const f of readdirSync(dir)) if (f.endsWith('.log')) rmSync(join(dir, f));
      const env = { PATH: process.env.PATH, HOME: layout.root, XDG_CACHE_HOME: xdg, BASHGUARD_CODE_CACHE_DEBUG: '1' };
      const r = spawnSync(process.execPath, ['--log-function-events', `--logfile=${join(dir, '%p.log')}`, '--no-logfile-per-isolate', CLI, 'lint', '--jobs', '1', '--format', 'json', file], { env, cwd: dir, encoding: 'utf8', timeout: 60_000 });
      let compiled = -1;
      for (const f of readdirSync(dir).filter((n) => n.endsWith('.log'))) {
        const lines = readFileSync(join(dir, f), 'latin1').split('\n');
        const worker = new Set(lines.filter((l) => l.startsWith('script-details,') && l.includes(join('dist', 'lint-worker.cjs'))).map((l) => l.split(',')[1]));
        if (worker.size > 0) compiled = lines.filter((l) => l.startsWith('function,parse-function,') && worker.has(l.split(',')[2])).length;
      }
      return { ...r, state: /lint worker code cache (\w+)/.exec(r.stderr)?.[1], compiled, files: (JSON.parse(r.stdout) as { files: { file: string }[] }).files.map((f) => f.file) };
    };
    const first = run(tiny);
    expect(first.state).toBe('miss');
    expect(first.files).toEqual(['tiny.sh']);
    // The CI script: loops, arrays, conditionals, git, npm, redirections; nothing the one-line file ran.
    const second = run(join(REPO_ROOT, '.ci', 'run'));
    expect(second.state).toBe('hit');
    expect(second.files).toHaveLength(1);
    expect(second.compiled).toBeGreaterThanOrEqual(0);
    // Without the training run ~340 of the worker's functions were compiled again here; with it, ~50.
    expect(second.compiled).toBeLessThan(120);
  }, 60_000);

  it('a lint that was to analyze but ended in a usage error writes no cache: the next real run writes one with its training', () => {
    const dir = join(layout.root, 'lint-usage-error');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    const cacheHome = join(dir, 'xdg');
    writeFileSync(join(dir, 'a.sh'), '#!/bin/sh\necho hi > /tmp/x\n');
    const env = { PATH: process.env.PATH, HOME: layout.root, XDG_CACHE_HOME: cacheHome, BASHGUARD_CODE_CACHE_DEBUG: '1' };
    const run = (extra: string[]) => {
      const r = spawnSync(process.execPath, [CLI, 'lint', '--format', 'json', '--timeout', '0', ...extra, 'a.sh'], { env, cwd: dir, encoding: 'utf8', timeout: 60_000 });
      const cli = / code cache (\w+) (\S+)/.exec(r.stderr);
      return { status: r.status, state: cli?.[1], file: cli?.[2] ?? '' };
    };
    const typo = run(['--format', 'bogus']);
    expect(typo.status).toBe(2);
    expect(typo.state).toBe('miss');
    expect(existsSync(typo.file)).toBe(false);
    // The same file: the first real run finds none, analyzes, trains and writes it; the next hits.
    const first = run([]);
    expect([first.state, first.file]).toEqual(['miss', typo.file]);
    expect(existsSync(first.file)).toBe(true);
    expect(run([]).state).toBe('hit');
  }, 60_000);

  it('`--timeout 0` runs (this process analyzes, with the lint child\'s V8 flags) keep a CLI cache of their own: alternating runs all hit', () => {
    const dir = join(layout.root, 'lint-inprocess');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.sh'), '#!/bin/sh\necho hi > /tmp/x\n');
    const env = { PATH: process.env.PATH, HOME: layout.root, XDG_CACHE_HOME: xdg, BASHGUARD_CODE_CACHE_DEBUG: '1' };
    const run = (extra: string[]) => {
      const r = spawnSync(process.execPath, [CLI, 'lint', '--format', 'json', ...extra, 'a.sh'], { env, cwd: dir, encoding: 'utf8', timeout: 60_000 });
      const cli = / code cache (\w+) (\S+)/.exec(r.stderr);
      return { state: cli?.[1], file: cli?.[2] ?? '', findings: (JSON.parse(r.stdout) as { files: { findings: unknown[] }[] }).files[0]!.findings };
    };
    const states: string[] = [];
    const files = { inProcess: new Set<string>(), children: new Set<string>() };
    let findings: unknown = null;
    for (let round = 0; round < 2; round++) {
      for (const mode of ['inProcess', 'children'] as const) {
        const r = run(mode === 'inProcess' ? ['--timeout', '0'] : ['--jobs', '1']);
        states.push(r.state!);
        files[mode].add(r.file);
        findings ??= r.findings;
        expect(r.findings).toEqual(findings);
      }
    }
    expect([files.inProcess.size, files.children.size]).toEqual([1, 1]);
    const [inProcess, children] = [[...files.inProcess][0]!, [...files.children][0]!];
    expect(children).not.toContain('-analysis-');
    if (workerV8Flags(process.versions.v8).length > 0) {
      expect(inProcess).toContain('-analysis-');
      expect(states).toEqual(['miss', 'miss', 'hit', 'hit']);
    } else {
      // A V8 the lint child gets no flags for: one file for both.
      expect(inProcess).toBe(children);
      expect(states).toEqual(['miss', 'hit', 'hit', 'hit']);
    }
  }, 60_000);
});
