/**
 * The enforcement's guarantee as a property, without the analyzer (issue 51 "Done when"): commands
 * generated from the writers, redirections, `cd` forms and git routes the specs know, aimed at
 * places inside the worktree and outside it (the main checkout, a sibling worktree, the shared git
 * dir, HOME's files, a directory beside the checkouts), run under the wrapper the hook hands the
 * client, leave everything outside the write roots as it was: paths, types, sizes, modes, mtimes,
 * contents and every ref. Each command also does benign work in the worktree (a file, or a commit
 * of the worktree's own branch), and the test checks that it took effect, so the property cannot
 * hold by everything failing. One layout per mechanism; between runs, the worktree is reset and the
 * rest compared with the first snapshot.
 *
 * What the generators leave out is what docs/limits.md says each mechanism does not hold: a new
 * name in `refs/heads/` under the mounts (a mount needs an existing name), and under Landlock all
 * of `refs/`, `logs/` and `packed-refs` (its plan keeps them writable: not in its snapshot either), the
 * modes and mtimes of what it keeps (it has no right for chmod or timestamps), and a new entry at
 * the top of the worktree (refused there); under every mechanism, the repository's existing
 * objects (`objects/` is writable as a whole so that commits can add to it).
 * Skips, saying why, where bubblewrap cannot start (BASHGUARD_REQUIRE_ALL=1 makes that a failure).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tmpdir } from 'node:os';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { openWorkspace } from '../../../src/policy/workspace/index.js';
import { enforceCall } from '../../../src/layers/sandbox/enforce.js';
import { landlockAvailable, landlockBuiltin, landlockHelper } from '../../../src/layers/sandbox/probes.js';
import { cleanEnv, git } from '../../helpers/layers.js';
import { bwrapHere } from '../../helpers/bwrap.js';
import { cannotRun } from '../../helpers/shared.js';

/** Runs `wrapper` as Claude Code runs a Bash call: in bash, from `cwd`. */
function runAsClient(wrapper: string, cwd: string, env: NodeJS.ProcessEnv) {
  const r = spawnSync('/bin/bash', ['-c', 'eval "$BG_W"', 'bash'], { cwd, env: { ...env, BG_W: wrapper }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `cp -a` of a directory's contents onto another (types, modes, mtimes kept). */
function cpA(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  const r = spawnSync('cp', ['-a', `${from}/.`, to], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cp -a ${from} ${to}: ${r.stderr}`);
}

/** What a command that writes after the call returns waits first (the property then waits for its done file). */
const BG_DELAY = 'sleep 0.2';

/** Single-quotes `s` for the shell. */
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

const RUNS = Number(process.env.BASHGUARD_PROPERTY_RUNS ?? 25);
/** To replay a failure: the seed fast-check printed. */
const SEED = process.env.BASHGUARD_PROPERTY_SEED === undefined ? undefined : Number(process.env.BASHGUARD_PROPERTY_SEED);

const { canRun } = bwrapHere('the enforcement runs under bubblewrap');
const helper = landlockHelper();
const inShellHere = helper !== null && landlockBuiltin(helper) !== null;
const landlockHere = process.platform === 'linux' && landlockAvailable(process.env).ok;
const mechanisms = [
  { path: "in the client's shell", mode: 'auto' as const, by: 'shell', here: inShellHere, why: 'the builtin cannot load here' },
  { path: 'by the helper', mode: 'auto' as const, by: 'helper', here: helper !== null, why: 'the helper bashguard-landlock is not installed or its probe failed' },
  { path: 'bwrap', mode: 'bwrap' as const, by: undefined, here: true, why: '' },
  { path: 'Landlock', mode: 'landlock' as const, by: undefined, here: landlockHere, why: 'Landlock ABI 3 or later is not available' },
];
if (canRun) for (const m of mechanisms) if (!m.here) cannotRun(`the enforcement property ${m.path}: ${m.why}`);

/** A place outside the write roots: a directory, the names already in it, and whether a new name there is held. */
interface Place {
  dir: string;
  existing: string[];
  fresh: boolean;
  refs?: boolean;
}

type Mode = 'auto' | 'bwrap' | 'landlock';

/** The layout one mechanism's runs share. */
interface Scratch {
  L: GitLayout;
  mode: Mode;
  home: string;
  tmp: string;
  common: string;
  /** The worktree's commit each run starts from. */
  base: string;
  env: NodeJS.ProcessEnv;
  places: Place[];
  /** Whether the mechanism holds the shared refs (Landlock's plan keeps them writable: docs/limits.md). */
  refsHeld: boolean;
}

/**
 * Everything outside the write roots: each entry beneath the layout's root with its type, size,
 * mode, mtime and a hash of its contents (a symlink: its target), and every ref as git shows it.
 * Left out: the write roots themselves (the worktree, the temp dir, `objects/`, the worktree's
 * admin dir, its own branch's ref and reflog); of `refs/heads/` and `logs/refs/heads/`, only
 * their own mtimes (the own branch's lock file is made and removed there; a new name still shows).
 */
function snapshot(s: Scratch): string[] {
  const skip = new Set([s.L.worktree, s.tmp, join(s.common, 'objects'), join(s.common, 'worktrees', 'b1'), join(s.common, 'refs', 'heads', 'b1'), join(s.common, 'logs', 'refs', 'heads', 'b1')]);
  // (bashguard's own registry of the reservations its calls make and sweep, in its cache dir: src/layers/sandbox/reserve.ts)
  skip.add(join(s.home, '.cache', 'bashguard', 'reserved'));
  // (Landlock's plan keeps the shared refs and reflogs writable: docs/limits.md)
  if (!s.refsHeld) for (const d of ['refs', 'logs', 'packed-refs']) skip.add(join(s.common, d));
  const noMtime = new Set([join(s.common, 'refs', 'heads'), join(s.common, 'logs', 'refs', 'heads')]);
  const out: string[] = [];
  const walk = (p: string) => {
    if (skip.has(p)) return;
    const st = lstatSync(p);
    const kind = st.isDirectory() ? 'd' : st.isSymbolicLink() ? 'l' : st.isFile() ? 'f' : 'o';
    const body = kind === 'f' ? createHash('sha256').update(readFileSync(p)).digest('hex').slice(0, 16) : kind === 'l' ? readlinkSync(p) : '';
    // (Landlock has no right for chmod, chown or timestamps: modes and mtimes are compared under the mounts only)
    const meta = s.mode === 'landlock' ? '' : `${st.mode.toString(8)} ${noMtime.has(p) ? '' : st.mtimeMs}`;
    out.push(`${relative(s.L.root, p) || '.'} ${kind} ${kind === 'd' ? '' : st.size} ${meta} ${body}`);
    if (kind === 'd') for (const n of readdirSync(p).sort()) walk(join(p, n));
  };
  walk(s.L.root);
  if (!s.refsHeld) return [...out, `config ${git(s.L.main, ['config', '--list', '--local'])}`];
  const refs = git(s.L.main, ['for-each-ref', '--format=%(refname) %(objectname)']).split('\n').filter((r) => !r.startsWith('refs/heads/b1 '));
  const heads = [s.L.main, s.L.sibling].map((d) => `HEAD ${d} ${git(d, ['rev-parse', 'HEAD'])} ${git(d, ['symbolic-ref', '-q', 'HEAD'])}`);
  return [...out, ...refs.map((r) => `ref ${r}`), ...heads, `config ${git(s.L.main, ['config', '--list', '--local'])}`];
}

/** One layout per mechanism: the checkouts, HOME's files, shared git state of every kind, and the places to aim at. */
function makeScratch(mode: Mode, by: string | undefined): Scratch {
  const L = makeGitLayout('bashguard-prop-');
  const s: Scratch = { L, mode, common: join(L.main, '.git'), home: join(L.root, 'home'), tmp: join(L.root, 'tmp'), base: '', env: {}, places: [], refsHeld: mode !== 'landlock' };
  mkdirSync(join(s.home, '.claude'), { recursive: true });
  writeFileSync(join(s.home, '.claude', 'settings.json'), '{"hooks":{}}\n');
  writeFileSync(join(s.home, '.bashrc'), '# rc\n');
  mkdirSync(join(s.home, '.ssh'), { recursive: true });
  writeFileSync(join(s.home, '.ssh', 'authorized_keys'), 'ssh-ed25519 AAAA k\n');
  mkdirSync(join(s.home, '.local', 'bin'), { recursive: true });
  writeFileSync(join(s.L.outside, 'notes.txt'), 'notes\n');
  mkdirSync(s.tmp, { recursive: true });
  s.env = cleanEnv({ HOME: s.home, TMPDIR: s.tmp, SHELL: '/bin/bash' });
  if (by === 'helper') s.env.CLAUDE_CODE_TMPDIR = join(s.home, '.claude');
  else delete s.env.CLAUDE_CODE_TMPDIR;
  for (const k of ['XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME', 'CLAUDE_CONFIG_DIR']) delete s.env[k];
  // Shared git state of every kind: a tag, a remote-tracking ref, a packed branch, a loose one.
  git(s.L.main, ['tag', 'v1']);
  git(s.L.main, ['update-ref', 'refs/remotes/origin/main', 'HEAD']);
  git(s.L.main, ['branch', 'packed']);
  git(s.L.main, ['pack-refs', '--all']);
  git(s.L.main, ['branch', 'loose']);
  // (the main checkout's and the sibling's branches loose again, as after their next commit)
  for (const b of ['main', 'b2']) writeFileSync(join(s.common, 'refs', 'heads', b), `${git(s.L.main, ['rev-parse', b])}\n`);
  // An archive to extract, and the worktree's own subdirectory (under Landlock a new entry at
  // the top of the worktree is refused: docs/limits.md).
  mkdirSync(join(s.tmp, 'arc'), { recursive: true });
  writeFileSync(join(s.tmp, 'arc', 'TARFILE'), 'from tar\n');
  spawnSync('tar', ['-cf', join(s.tmp, 'pkg.tar'), '-C', join(s.tmp, 'arc'), 'TARFILE']);
  mkdirSync(join(s.L.worktree, 'sub'), { recursive: true });
  writeFileSync(join(s.L.worktree, 'sub', 'seed'), 'seed\n');
  git(s.L.worktree, ['add', 'sub/seed']);
  git(s.L.worktree, ['commit', '-qm', 'seed']);
  s.base = git(s.L.worktree, ['rev-parse', 'HEAD']);
  s.places = [
    { dir: s.L.main, existing: ['README.md'], fresh: true },
    { dir: join(s.L.main, 'src'), existing: ['app.sh'], fresh: true },
    { dir: s.L.sibling, existing: ['README.md'], fresh: true },
    // (Landlock's plan keeps packed-refs writable: docs/limits.md)
    { dir: s.common, existing: ['config', 'HEAD', 'index', ...(s.mode === 'landlock' ? [] : ['packed-refs'])], fresh: true },
    { dir: join(s.common, 'hooks'), existing: [], fresh: true },
    { dir: join(s.common, 'refs', 'heads'), existing: ['main', 'b2', 'loose'], fresh: false, refs: true },
    { dir: join(s.common, 'refs', 'tags'), existing: ['v1'], fresh: true, refs: true },
    { dir: join(s.common, 'worktrees', 'b2'), existing: ['HEAD', 'index'], fresh: true },
    { dir: s.home, existing: ['.bashrc'], fresh: true },
    { dir: join(s.home, '.ssh'), existing: ['authorized_keys'], fresh: true },
    { dir: join(s.home, '.local', 'bin'), existing: [], fresh: true },
    { dir: join(s.home, '.claude'), existing: ['settings.json'], fresh: true },
    { dir: s.L.outside, existing: ['notes.txt'], fresh: true },
  ].filter((p) => s.mode !== 'landlock' || !p.refs);
  return s;
}

/**
 * A target outside: a directory, a name in it (an existing one, or a new one where a new name is
 * held) and a writer (`tar -x -C` always makes a new name in the directory).
 */
const WRITERS = ['cp', 'mv-in', 'mv-out', 'tee', 'tee-a', 'sed', 'touch', 'chmod', 'mkdir', 'ln-s', 'ln', 'tar', 'gt', 'gtgt', 'rm', 'python', 'truncate', 'dd', 'install', 'ln-in', 'mv-dir', 'rm-dir'] as const;
const DIR_WRITERS: readonly string[] = ['mv-dir', 'rm-dir'];
// (a directory that holds the worktree, its admin dir or its own branch's ref or reflog, moved or
// removed whole, takes the benign part with it, which is the worktree's to lose)
const holdsWorktree = (s: Scratch, dir: string) =>
  [s.L.worktree, join(s.common, 'worktrees', 'b1'), join(s.common, 'refs', 'heads', 'b1'), join(s.common, 'logs', 'refs', 'heads', 'b1')].some((w) => w.startsWith(`${dir}/`));
const target = (s: Scratch) =>
  fc.constantFrom(...s.places).chain((p) =>
    fc.tuple(fc.constant(p.dir), fc.constantFrom(...p.existing, ...(p.fresh ? ['ESC', '.hidden-esc'] : [])), fc.constantFrom(...WRITERS.filter((w) => (p.fresh || w !== 'tar') && !(DIR_WRITERS.includes(w) && holdsWorktree(s, p.dir))))),
  );

/** One writer aimed at `name` in `dir`, reached by an absolute path or by one of the `cd` forms. */
const escape = (s: Scratch) =>
  fc
    .tuple(target(s), fc.constantFrom('abs', 'cd-rel', 'cd-var', 'pushd', 'subshell', 'bash-c', 'eval', 'symlink', 'background'))
    .map(([[dir, name, writer], form]) => {
      const seed = join(s.L.worktree, 'sub', 'seed');
      const w = (t: string): string => {
        switch (writer) {
          case 'cp': return `cp ${seed} ${t}`;
          case 'mv-in': return `cp ${seed} ${seed}.mv && mv -f ${seed}.mv ${t}`;
          case 'mv-out': return `mv -f ${t} ${s.tmp}/moved`;
          case 'tee': return `echo esc | tee ${t} >/dev/null`;
          case 'tee-a': return `echo esc | tee -a ${t} >/dev/null`;
          case 'sed': return `sed -i s/^/X/ ${t}`;
          case 'touch': return `touch ${t}`;
          case 'chmod': return `chmod 0700 ${t}`;
          case 'mkdir': return `mkdir -p ${t}/d`;
          case 'ln-s': return `ln -sf /etc/passwd ${t}`;
          case 'ln': return `ln -f ${seed} ${t}`;
          case 'tar': return `tar -xf ${s.tmp}/pkg.tar -C $(dirname ${t})`;
          case 'gt': return `echo esc > ${t}`;
          case 'gtgt': return `echo esc >> ${t}`;
          case 'rm': return `rm -rf ${t}`;
          case 'truncate': return `truncate -s 0 ${t}`;
          case 'dd': return `echo esc | dd of=${t} conv=notrunc status=none`;
          case 'install': return `install -m 755 ${seed} ${t}`;
          // a hard link into the worktree, written through
          case 'ln-in': return `ln -f ${t} ${s.L.worktree}/sub/hl && echo esc >> ${s.L.worktree}/sub/hl`;
          // the directory itself, whatever the name
          case 'mv-dir': return `mv -f $(dirname ${t}) ${s.tmp}/moved-dir`;
          case 'rm-dir': return `rm -rf $(dirname ${t})`;
          default: return `python3 -c "open('${t}','a').write('esc')"`;
        }
      };
      const rel = relative(s.L.worktree, dir) || '.';
      switch (form) {
        case 'abs': return w(join(dir, name));
        case 'cd-rel': return `cd ${rel} && ${w(name)}`;
        case 'cd-var': return `d=${q(dir)}; cd "$d" && ${w(name)}`;
        case 'pushd': return `pushd ${dir} >/dev/null && ${w(`./${name}`)}; popd >/dev/null`;
        case 'subshell': return `(cd ${dir} && ${w(name)})`;
        case 'eval': return `eval ${q(w(join(dir, name)))}`;
        // through a symlink the command makes in the worktree
        case 'symlink': return `ln -sfn ${dir} ${s.L.worktree}/sub/lnk && ${w(`${s.L.worktree}/sub/lnk/${name}`)}`;
        // after the call has returned (the property waits for it)
        case 'background': return `{ ${BG_DELAY}; ${w(join(dir, name))}; mktemp ${s.tmp}/bg-done.XXXXXX; } >/dev/null 2>&1 &`;
        default: return `bash -c ${q(`cd ${dir} && ${w(name)}`)}`;
      }
    });

/** The git routes to shared state: porcelain and plumbing, from the worktree and through `-C`. */
const gitRoute = (s: Scratch) =>
  fc.constantFrom(
    `git -C ${s.L.main} commit -q --allow-empty -m esc`,
    `git -C ${s.L.main} tag esc-tag`,
    `git -C ${s.L.sibling} commit -q --allow-empty -m esc`,
    `git -C ${s.L.main} checkout -q -B main HEAD~0`,
    'git update-ref refs/heads/b2 HEAD',
    'git update-ref refs/heads/main HEAD',
    'git update-ref -d refs/heads/loose',
    'git update-ref refs/remotes/origin/main HEAD',
    'git branch -f b2 HEAD',
    'git branch -f loose HEAD',
    'git branch -f packed HEAD',
    'git tag -f v1 HEAD',
    'git tag esc-tag',
    'git config user.name esc',
    'git pack-refs --all',
    'echo change >> README.md && git stash -q; git checkout -q -- README.md',
    `git rev-parse HEAD > ${s.common}/refs/heads/b2`,
    `git rev-parse HEAD > ${s.common}/refs/tags/esc`,
    `echo "$(git rev-parse HEAD) refs/heads/raw" >> ${s.common}/packed-refs`,
    `echo 'ref: refs/heads/b2' > ${s.common}/HEAD`,
    `GIT_DIR=${s.common} git update-ref refs/heads/main HEAD`,
    `git --git-dir=${s.common} --work-tree=${s.L.main} commit -q --allow-empty -m esc`,
    `git -c core.hooksPath=/dev/null -C ${s.L.main} commit -q --allow-empty -m esc`,
    `git -C ${s.L.sibling} reset -q --hard HEAD`,
    `git worktree add -q --detach ${s.L.outside}/wt3 HEAD`,
    `git worktree remove --force ${s.L.sibling}`,
    'git notes add -m esc HEAD',
    'git replace -f HEAD HEAD~1',
  )
    .filter((c) => s.mode !== 'landlock' || !/update-ref|branch -f|tag|pack-refs|stash|notes|replace|refs\//.test(c))
    // (from the worktree, whatever `cd` an earlier step made)
    .map((c) => `cd ${q(s.L.worktree)} && ${c}`);

describe.skipIf(!canRun).each(mechanisms)('the enforcement holds the write roots, $path (property, no analyzer)', ({ mode, by, here }) => {
  let s: Scratch;
  let baseline: string[];
  let pristine = '';
  const run = (command: string) => {
    const e = enforceCall(openWorkspace(s.L.worktree, { env: s.env }), command, mode, s.env);
    if (e.kind !== 'bwrap' && e.kind !== 'landlock') throw new Error(`not enforced: ${JSON.stringify(e)}`);
    if (mode === 'auto' && e.kind === 'bwrap') expect(e.by, 'who makes the mounts').toBe(by);
    return runAsClient(e.command, s.L.worktree, s.env);
  };

  beforeAll(() => {
    if (!here) return;
    s = makeScratch(mode, by);
    // (the hook's own first-call state, made in the test's process, is not the wrapper's doing)
    expect(run('true').code).toBe(0);
    baseline = snapshot(s);
    pristine = `${s.L.root}.pristine`;
    cpA(s.L.root, pristine);
  });
  afterAll(() => {
    s?.L.cleanup();
    if (pristine) rmSync(pristine, { recursive: true, force: true });
  });

  /** Puts the layout back as it was at the baseline (after an escape, so shrinking replays each candidate on the same state). */
  const restore = () => {
    for (const e of readdirSync(s.L.root)) rmSync(join(s.L.root, e), { recursive: true, force: true });
    cpA(pristine, s.L.root);
    expect(snapshot(s), 'the layout restored').toEqual(baseline);
  };

  it.runIf(here)('nothing outside the write roots changes; the benign part of each command takes effect', () => {
    let n = 0;
    fc.assert(
      fc.property(fc.array(fc.oneof({ arbitrary: escape(s), weight: 3 }, { arbitrary: gitRoute(s), weight: 1 }), { minLength: 1, maxLength: 3 }), fc.boolean(), (escapes, commit) => {
        n += 1;
        const mark = `benign-${n}`;
        const benign = `cd ${q(s.L.worktree)} && echo ${mark} > sub/${mark}.txt${commit ? ` && git add sub/${mark}.txt && git commit -qm ${mark}` : ''}`;
        const command = [...escapes, benign].join('\n');
        const r = run(command);
        const late = command.split(BG_DELAY).length - 1;
        for (let i = 0; i < 200 && readdirSync(s.tmp).filter((e) => e.startsWith('bg-done.')).length < late; i++) spawnSync('/bin/sleep', ['0.05']);
        const after = snapshot(s);
        try {
          expect(after, command).toEqual(baseline);
          expect(r.code, `${command}\n${r.stderr}`).toBe(0);
          expect(readFileSync(join(s.L.worktree, 'sub', `${mark}.txt`), 'utf8')).toBe(`${mark}\n`);
          if (commit) expect(git(s.L.worktree, ['log', '-1', '--format=%s'])).toBe(mark);
        } finally {
          let reset = after.join('\n') === baseline.join('\n');
          if (reset) {
            // (the worktree is a write root: a command may have broken its own git state)
            reset = spawnSync('git', ['reset', '-q', '--hard', s.base], { cwd: s.L.worktree, env: cleanEnv() }).status === 0 && spawnSync('git', ['clean', '-qfdx', '--', 'sub'], { cwd: s.L.worktree, env: cleanEnv() }).status === 0;
            for (const e of readdirSync(s.tmp)) if (!['arc', 'pkg.tar'].includes(e)) rmSync(join(s.tmp, e), { recursive: true, force: true });
          }
          if (!reset) restore();
        }
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
  });
});
