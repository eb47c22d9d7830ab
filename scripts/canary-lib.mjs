// The canary harness (issue 48): public bash codebases nobody here wrote, fetched at pinned
// versions, each bash-valid file given one write to a system path at its end; lint must report
// every such write, or say (BG0005) that bash never reaches it. The same for the hook: a write
// after each command of the shared agent command corpora is never allowed.
//
// Used by test/system/lint/canary.test.ts and scripts/canary-report.mjs. Fetching needs
// `apt-get download` and `dpkg-deb` (a Debian 12 machine, as CI); everything fetched or derived is
// cached (node_modules/.cache/bashguard-canary, or $XDG_CACHE_HOME/bashguard-canary), so a rerun
// only lints.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { continuesInto, reasonHolds } from './canary-reason.mjs';

export { reasonHolds };

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The codebases: Debian 12 packages at pinned versions (`apt-get download NAME=VERSION`). `sourced`:
 * directories of the package whose files are shell without a `#!` line (completions, sourced
 * libraries, hook scripts). `docs`: places under usr/share/doc that hold scripts (skipped otherwise).
 */
export const PACKAGES = [
  { name: 'bash-completion', version: '1:2.11-6', sourced: ['usr/share/bash-completion/completions/', 'usr/share/bash-completion/helpers/'] },
  { name: 'bats', version: '1.8.2-1', sourced: ['usr/lib/bats-core/'] },
  { name: 'byobu', version: '5.133-1.1', sourced: ['usr/lib/byobu/'] },
  { name: 'debootstrap', version: '1.0.128+nmu2+deb12u2', sourced: ['usr/share/debootstrap/scripts/', 'usr/share/debootstrap/functions'] },
  { name: 'devscripts', version: '2.23.4+deb12u2', sourced: ['usr/share/bash-completion/completions/'] },
  { name: 'dkms', version: '3.0.10-8+deb12u1', sourced: ['usr/share/bash-completion/completions/'] },
  { name: 'dracut-core', version: '059-4', sourced: ['usr/lib/dracut/modules.d/', 'usr/lib/dracut/dracut-functions', 'usr/share/bash-completion/completions/'] },
  { name: 'git', version: '1:2.39.5-0+deb12u3', sourced: ['usr/share/bash-completion/completions/', 'usr/lib/git-core/git-sh-', 'usr/lib/git-core/git-mergetool--lib'] },
  { name: 'git-extras', version: '6.5.0-1', sourced: ['usr/share/bash-completion/completions/'] },
  { name: 'initramfs-tools-core', version: '0.142+deb12u3', sourced: ['usr/share/initramfs-tools/scripts/', 'usr/share/initramfs-tools/hooks/', 'usr/share/initramfs-tools/hook-functions', 'usr/share/initramfs-tools/init'] },
  { name: 'initramfs-tools', version: '0.142+deb12u3', sourced: ['usr/share/bash-completion/completions/'] },
  { name: 'libtool', version: '2.4.7-7~deb12u1', sourced: [] },
  { name: 'live-boot', version: '1:20230131+deb12u1', sourced: ['usr/lib/live/boot/'] },
  { name: 'live-build', version: '1:20230502', sourced: ['usr/share/live/build/functions/', 'usr/lib/live/build/'] },
  { name: 'neofetch', version: '7.1.0-4', sourced: [] },
  { name: 'os-prober', version: '1.81', sourced: ['usr/lib/os-probes/', 'usr/lib/linux-boot-probes/', 'usr/share/os-prober/'] },
  { name: 'pbuilder', version: '0.231', sourced: ['usr/lib/pbuilder/', 'usr/share/bash-completion/completions/'] },
  // Its 489 KB test.sh: the largest script here (the parse budget per 64 KB, src/engine/parse/limits.ts).
  { name: 'socat', version: '1.7.4.4-2', sourced: [], docs: ['usr/share/doc/socat/examples/'] },
  { name: 'ucf', version: '3.0043+nmu1+deb12u1', sourced: [] },
  { name: 'xdg-utils', version: '1.1.3-4.1', sourced: [] },
];

/** Bumped when how files are chosen or canaries are placed changes: the prepared tree is rebuilt. */
const HARNESS_VERSION = 3;

export const CANARY_PREFIX = '/etc/bashguard-canary-';

export function cacheDir() {
  const xdg = process.env.XDG_CACHE_HOME;
  return xdg ? join(xdg, 'bashguard-canary') : join(REPO, 'node_modules', '.cache', 'bashguard-canary');
}

const has = (prog) => spawnSync('sh', ['-c', `command -v ${prog}`], { stdio: 'ignore' }).status === 0;

/**
 * Downloads and unpacks every package not yet in the cache. Returns { dir } (one subdirectory per
 * package) or { skip: reason } when it cannot (no apt-get/dpkg-deb, no network, version gone).
 */
export function fetchPackages(log = () => {}) {
  const base = join(cacheDir(), 'pkgs');
  for (const prog of ['apt-get', 'dpkg-deb']) if (!has(prog)) return { skip: `canary codebases: ${prog} not found (they are Debian packages fetched with apt-get download)` };
  mkdirSync(base, { recursive: true });
  for (const p of PACKAGES) {
    const dest = join(base, `${p.name}_${p.version.replace(/:/g, '%3a')}`);
    if (existsSync(join(dest, '.done'))) continue;
    const tmp = `${dest}.part-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(join(tmp, 'root'), { recursive: true });
    log(`fetching ${p.name}=${p.version}`);
    const dl = spawnSync('apt-get', ['download', `${p.name}=${p.version}`], { cwd: tmp, encoding: 'utf8', timeout: 300_000 });
    const deb = readdirSync(tmp).find((f) => f.endsWith('.deb'));
    if (dl.status !== 0 || !deb) {
      rmSync(tmp, { recursive: true, force: true });
      const why = (dl.stderr || dl.error?.message || '').trim().split('\n').pop();
      return { skip: `canary codebases: apt-get download ${p.name}=${p.version} failed (${why || `exit ${dl.status}`})` };
    }
    execFileSync('dpkg-deb', ['-x', join(tmp, deb), join(tmp, 'root')]);
    rmSync(join(tmp, deb));
    writeFileSync(join(tmp, '.done'), '');
    publish(tmp, dest);
  }
  return { dir: base };
}

const SHEBANG = /^#!\s*(\/usr)?\/bin\/(env\s+)?(ba|da|k)?sh\b/;
const SKIP_DIRS = /^usr\/share\/(doc|man|locale|lintian|info)\//;

/** The package's shell files (relative to its root): `.sh`/`.bash`, a sh/bash `#!`, or in a `sourced` place. */
export function shellFiles(pkg, root) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      const st = lstatSync(abs);
      const rel = relative(root, abs);
      if (st.isDirectory()) walk(abs);
      else if (st.isFile() && (!SKIP_DIRS.test(rel) || pkg.docs?.some((d) => rel.startsWith(d)))) {
        const head = readFileSync(abs).subarray(0, 4096);
        if (head.includes(0)) continue;
        const first = head.toString('latin1').split('\n', 1)[0];
        if (first.startsWith('#!') ? SHEBANG.test(first) : /\.(sh|bash)$/.test(name) || pkg.sourced.some((s) => rel.startsWith(s))) out.push(rel);
      }
    }
  };
  walk(root);
  return out;
}

/**
 * bash's verdict on each file: accepted by `bash -O extglob -n` with nothing on stderr (a warning
 * such as an unterminated here-document means the text is not what it looks like). One bash per
 * file, as many at a time as there are CPUs.
 */
export function bashAccepts(files) {
  if (files.length === 0) return [];
  const script = 'for f; do if e=$(bash -O extglob -n "$f" 2>&1) && [ -z "$e" ]; then printf "1 %s\\0" "$f"; else printf "0 %s\\0" "$f"; fi; done';
  const r = spawnSync('xargs', ['-0', '-n', '50', '-P', String(availableParallelism()), 'bash', '-c', script, 'bash'], { input: files.join('\0') + '\0', encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`bash -n over ${files.length} files failed: ${r.stderr || r.error?.message}`);
  const ok = new Map(r.stdout.split('\0').filter(Boolean).map((x) => [x.slice(2), x[0] === '1']));
  return files.map((f) => {
    const v = ok.get(f);
    if (v === undefined) throw new Error(`bash -n gave no answer for ${f}`);
    return v;
  });
}

/** `exit`, or `exec` of a command (not `exec >file`, which only redirects): the script ends there. */
const ENDS_SCRIPT = /^(exit\b|exec\s+(-[acl]+\s+)*[^\s<>&0-9-])/;

/**
 * Where the canary goes: after the last line, or before a trailing top-level `exit` or `exec CMD`
 * (the last code line, unindented, not continuing the line before it), where a canary after it
 * would be dead by construction.
 * Returns the 0-based index of the line the canary is inserted before.
 */
export function canaryIndex(lines) {
  let last = lines.length;
  while (last > 0 && /^\s*(#.*)?$/.test(lines[last - 1])) last--;
  if (last > 0 && ENDS_SCRIPT.test(lines[last - 1])) {
    if (!continuesInto(lines, last)) return last - 1;
  }
  return lines.length;
}

/** Moves a finished `.part-PID` into place; a run that finished first has put the same there. */
function publish(tmp, dest) {
  try {
    renameSync(tmp, dest);
  } catch (err) {
    if (!existsSync(dest)) throw err;
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Removes what an older harness or pin list left in the cache (entries named PREFIX*, not another run's `.part-PID`). */
function dropStale(prefix, keep) {
  for (const name of readdirSync(cacheDir())) if (name.startsWith(prefix) && name !== keep && !name.includes('.part-')) rmSync(join(cacheDir(), name), { recursive: true, force: true });
}

/**
 * Builds (or reuses) the prepared tree: each bash-valid shell file with `echo canary > /etc/bashguard-canary-N`
 * on a line of its own. Returns { dir, files: [{ pkg, rel, path, line, canary }], rejected, total }:
 * `rejected` counts files bash -n does not accept (as shipped, or with the canary appended).
 */
export function prepare(pkgsDir, log = () => {}) {
  const key = createHash('sha256').update(JSON.stringify({ HARNESS_VERSION, PACKAGES, bash: execFileSync('bash', ['--version'], { encoding: 'utf8' }).split('\n')[0] })).digest('hex').slice(0, 16);
  const dir = join(cacheDir(), `prepared-${key}`);
  const manifest = join(dir, 'manifest.json');
  if (existsSync(manifest)) return { dir, ...JSON.parse(readFileSync(manifest, 'utf8')) };
  log('preparing the canaried copies');
  const tmp = `${dir}.part-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const candidates = [];
  for (const p of PACKAGES) {
    const root = join(pkgsDir, `${p.name}_${p.version.replace(/:/g, '%3a')}`, 'root');
    for (const rel of shellFiles(p, root)) candidates.push({ pkg: p.name, rel, src: join(root, rel) });
  }
  const ok = bashAccepts(candidates.map((c) => c.src));
  const valid = candidates.filter((_, i) => ok[i]);
  const written = valid.map((c, i) => {
    const text = readFileSync(c.src, 'utf8');
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    const at = canaryIndex(lines);
    const canary = `${CANARY_PREFIX}${i + 1}`;
    lines.splice(at, 0, `echo canary > ${canary}`);
    const path = join(tmp, c.pkg, c.rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, lines.join('\n') + '\n');
    return { pkg: c.pkg, rel: c.rel, path: join(dir, c.pkg, c.rel), line: at + 1, canary, tmpPath: path };
  });
  // A canary that bash would not read as a command of its own (an open here-document) is left out.
  const still = bashAccepts(written.map((w) => w.tmpPath));
  const files = written.filter((_, i) => still[i]).map(({ tmpPath, ...w }) => w);
  const info = { files, total: candidates.length, rejected: candidates.length - files.length };
  writeFileSync(join(tmp, 'manifest.json'), JSON.stringify(info));
  dropStale('prepared-', `prepared-${key}`);
  publish(tmp, dir);
  return { dir, ...info };
}

/**
 * Lints the prepared files in one lint process (its own children), JSON out. Returns the parsed
 * report's files by absolute path.
 */
export function lintAll(prepared, { bin = join(REPO, 'bin', 'bashguard.js'), jobs } = {}) {
  const args = [bin, 'lint', '--format', 'json', '--fail-on', 'none', '--norc', '--no-progress', '--root', prepared.dir, ...(jobs ? ['--jobs', String(jobs)] : []), ...prepared.files.map((f) => f.path)];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 30, cwd: prepared.dir, env: { ...process.env, NO_COLOR: '1' } });
  // 1: findings fail; 3: a file not fully analyzed (BG0002, classified as `incomplete` below).
  if (![0, 1, 3].includes(r.status)) throw new Error(`bashguard lint exited ${r.status}: ${(r.stderr || '').trim().split('\n').slice(-3).join(' | ')}`);
  const report = JSON.parse(r.stdout);
  const byPath = new Map();
  for (const f of report.files) byPath.set(resolve(prepared.dir, f.file), f);
  return byPath;
}

/**
 * Each canary's fate: `reported` (a finding on its line naming its path), `unreachable` (under a
 * BG0005 note whose reason holds), or missed: `unreachable-unverified` (a note whose reason could
 * not be checked or is false), `parse-error` (the file has a BG0001 finding), `incomplete` (BG0002:
 * budget, timeout, engine failure), `dropped` (nothing said).
 */
export function classify(prepared, byPath) {
  return prepared.files.map((f) => {
    const r = byPath.get(f.path);
    const findings = r?.findings ?? [];
    const source = readFileSync(f.path, 'utf8');
    let fate;
    const names = new RegExp(`${f.canary}(?![0-9])`);
    if (findings.some((x) => x.line === f.line && x.rule !== 'BG0005' && names.test(`${x.message} ${x.target ?? ''}`))) fate = 'reported';
    else {
      const notes = findings.filter((x) => x.rule === 'BG0005' && x.line <= f.line && (x.endLine ?? x.line) >= f.line);
      if (notes.length > 0) fate = notes.some((x) => reasonHolds(x, source, f.line)) ? 'unreachable' : 'unreachable-unverified';
      else if (findings.some((x) => x.rule === 'BG0001')) fate = 'parse-error';
      else if (findings.some((x) => x.rule === 'BG0002')) fate = 'incomplete';
      else fate = 'dropped';
    }
    const why = findings.filter((x) => ['BG0001', 'BG0002', 'BG0005'].includes(x.rule)).slice(0, 2).map((x) => `${x.rule} line ${x.line}: ${x.message}`);
    const parseErrors = findings.filter((x) => x.rule === 'BG0001').length;
    return { ...f, fate, why, parseErrors, error: r?.error ?? (r ? null : 'not in the report') };
  });
}

export const FOUND = new Set(['reported', 'unreachable']);

/** The shared agent command corpora (`cmd` of each JSON line), or { skip } when ../shared is absent. */
export function agentCommands(sharedDir) {
  const dir = join(sharedDir, 'corpora', 'commands');
  const out = [];
  for (const f of ['agent_intercode_bash.jsonl', 'agent_sweagent_demos.jsonl']) {
    for (const l of readFileSync(join(dir, f), 'utf8').split('\n')) {
      if (!l.trim()) continue;
      const cmd = JSON.parse(l).cmd;
      if (typeof cmd === 'string') out.push({ corpus: f.replace(/\.jsonl$/, ''), cmd });
    }
  }
  return out;
}

/**
 * The hook's canary for a command: the write on a line of its own after it (`;` would be part of
 * a trailing comment, or of a here-document's body). Kept only where bash reads the result with
 * the canary as a command of its own: `bash -n` accepts it silently (cached by the text's hash).
 */
export const HOOK_CANARY = `echo x > ${CANARY_PREFIX}hook`;
export function hookCases(cmds) {
  const key = createHash('sha256').update(JSON.stringify({ HARNESS_VERSION, HOOK_CANARY, cmds: cmds.map((c) => c.cmd) })).digest('hex').slice(0, 16);
  const file = join(cacheDir(), `hook-${key}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const dir = join(cacheDir(), `hook-${key}.part-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const texts = cmds.map((c) => `${c.cmd}\n${HOOK_CANARY}`);
  const paths = texts.map((t, i) => {
    const p = join(dir, `${i}.sh`);
    writeFileSync(p, t + '\n');
    return p;
  });
  const ok = bashAccepts(paths);
  rmSync(dir, { recursive: true, force: true });
  const cases = cmds.map((c, i) => ({ ...c, text: texts[i] })).filter((_, i) => ok[i]);
  const info = { cases, total: cmds.length };
  dropStale('hook-', `hook-${key}.json`);
  writeFileSync(`${file}.part-${process.pid}`, JSON.stringify(info));
  renameSync(`${file}.part-${process.pid}`, file);
  return info;
}
