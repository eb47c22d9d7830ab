#!/usr/bin/env node
// Execution-oracle driver. Runs INSIDE a private mount + network namespace, as root:
//
//   unshare --mount --propagation private --net node driver.mjs  < request.json  > results.jsonl
//
// It never writes to the real file system: everything it creates lives on a tmpfs it mounts over
// /tmp (visible only in this namespace). The layout is built once, as a template. Each case then
// runs in a nested mount + pid namespace that pivot_roots into an overlay of the real root (lower:
// a read-only bind of /) whose upper dir is fresh per case, with /home an overlay of the template
// (fresh upper per case), /dev an overlay of a minimal device dir, and empty private /tmp and
// /var/tmp; the old root is detached. Writes anywhere therefore land in per-case directories the
// driver can diff; the real root, the template and other cases are never written.
//
// Protocol: stdin is one JSON object { cases: DriverCase[], options: DriverOptions }.
// stdout gets one JSON object per line: { type: 'ready', ... } once the template is built, then
// { type: 'result', ... } per case (in completion order), then { type: 'done' }. A fatal setup
// error is reported as { type: 'fatal', message } with a non-zero exit code.
//
// The TypeScript side (oracle.ts) classifies paths, detects skips and computes git changes; this
// script only materialises the layout, runs commands and reports raw changes + git state.

import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { join, dirname, normalize } from 'node:path';

const WS = '/tmp/bashguard-oracle';
const LOWER = `${WS}/lower`;
const TEMPLATE = `${WS}/template`;
const CASES = `${WS}/cases`;
const HASH_LIMIT = 256 * 1024;
const OUTPUT_LIMIT = 64 * 1024;

const MAIN = '/home/dev/repo';
const WORKTREE = '/home/dev/repo/.builders/b1';
/** The linked worktrees of the layout and their admin names under .git/worktrees. */
const LINKED = { '/home/dev/repo/.builders/b1': 'b1', '/home/dev/repo/.builders/b2': 'b2', '/home/dev/repo/.claude/worktrees/w3': 'w3' };
const ALL_CHECKOUTS = [MAIN, ...Object.keys(LINKED)];

/** The linked worktree containing `cwd` (the agent's worktree for that case), or null. */
function worktreeOf(cwd) {
  for (const w of Object.keys(LINKED)) if (cwd === w || cwd.startsWith(w + '/')) return w;
  return null;
}
const SANDBOX_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** Shims live in the case's private /dev (never diffed); appended to PATH so real programs win. */
const SHIM_DIR = '/dev/.bashguard-oracle';

function emit(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

function sh(script, args = [], opts = {}) {
  return execFileSync('/bin/sh', ['-c', script, 'sh', ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

// ---------------------------------------------------------------------------------------------
// Workspace and template

const TEMPLATE_SCRIPT = String.raw`
set -eu
export HOME=/home/dev GIT_CONFIG_NOSYSTEM=1 LC_ALL=C TZ=UTC
export GIT_AUTHOR_DATE='2024-01-01T00:00:00Z' GIT_COMMITTER_DATE='2024-01-01T00:00:00Z'
g() { git -c init.defaultBranch=main -c user.name=t -c user.email=t@t "$@"; }
mkdir -p /home/dev/repo /home/dev/other
cat > /home/dev/.gitconfig <<'EOF'
[user]
	name = t
	email = t@t
[init]
	defaultBranch = main
EOF
cd /home/dev/repo
g init -q
printf '# repo\n\nA sample project.\n' > README.md
g add README.md && g commit -q -m 'add README'
mkdir src && printf '#!/bin/sh\necho app\n' > src/app.sh && chmod 755 src/app.sh
g add src/app.sh && g commit -q -m 'add app'
mkdir docs && printf '# Guide\n\nHow to use it.\n' > docs/guide.md
g add docs/guide.md && g commit -q -m 'add guide'
printf '.builders/\n.claude/worktrees/\n' >> .git/info/exclude
g worktree add -q -b b1 .builders/b1
g worktree add -q -b b2 .builders/b2
g worktree add -q -b w3 .claude/worktrees/w3
printf 'notes\n' > /home/dev/other/notes.txt
# Give every checkout its own file times (as if checked out at different moments), older than the
# indexes, which are rewritten afterwards: no index entry is "racily clean" (else a read-only git
# status would rewrite an index and look like a write), and one checkout's index does not match
# another checkout's files by stat data alone.
T0=1704067200
find /home/dev \( -path /home/dev/repo/.git -o -path /home/dev/repo/.builders/b1 -o -path /home/dev/repo/.builders/b2 \
  -o -path /home/dev/repo/.claude/worktrees/w3 \) -prune -o -exec touch -h -d "@$T0" {} +
n=1
for w in .builders/b1 .builders/b2 .claude/worktrees/w3; do
  find "/home/dev/repo/$w" -exec touch -h -d "@$((T0 + 3600 * n))" {} +
  n=$((n + 1))
done
for d in /home/dev/repo /home/dev/repo/.builders/b1 /home/dev/repo/.builders/b2 /home/dev/repo/.claude/worktrees/w3; do
  g -C "$d" update-index -q --really-refresh >/dev/null 2>&1 || true
  g -C "$d" status --porcelain >/dev/null
done
`;

const SUDO_SHIM = String.raw`#!/bin/bash
# bashguard oracle: sudo is not installed here and we already run as root, so emulate the common
# forms of sudo by running the command directly (as root, or via runuser for -u USER).
echo sudo >> __SHIM_DIR__/used
user=
login=
shell=
while [ $# -gt 0 ]; do
  case "$1" in
    --) shift; break ;;
    -u|--user) user=$2; shift 2 ;;
    -u*) user=$(printf %s "$1" | cut -c3-); shift ;;
    --user=*) user=$(printf %s "$1" | cut -c8-); shift ;;
    -g|--group|-p|--prompt|-C|--close-from|-h|--host|-D|--chdir|-r|--role|-t|--type|-T|--command-timeout)
      case "$1" in -D|--chdir) cd "$2" || exit 1 ;; esac; shift 2 ;;
    --chdir=*) cd "$(printf %s "$1" | cut -c9-)" || exit 1; shift ;;
    --group=*|--prompt=*|--close-from=*|--host=*|--role=*|--type=*|--command-timeout=*) shift ;;
    -i|--login) login=1; shift ;;
    -s|--shell) shell=1; shift ;;
    -E|--preserve-env|--preserve-env=*|-H|--set-home|-n|--non-interactive|-S|--stdin|-k|--reset-timestamp|-b|--background|-P|--preserve-groups|-A|--askpass|-B|--bell) shift ;;
    -[EHnSkbPAB]*) shift ;;
    -V|--version) echo 'Sudo version 1.9 (bashguard oracle shim)'; exit 0 ;;
    -v|--validate|-K|--remove-timestamp) exit 0 ;;
    -l|--list) echo '(ALL : ALL) ALL'; exit 0 ;;
    -*) echo "sudo-shim: unsupported option $1" >&2; echo "unsupported:$1" >> __SHIM_DIR__/used; exit 64 ;;
    *) break ;;
  esac
done
case "$user" in ''|0|'#0') user=root ;; esac
# Like a default sudoers (env_reset): HOME becomes the target user's home.
home=$(getent passwd "$user" | cut -d: -f6)
[ -n "$home" ] || { echo "sudo: unknown user $user" >&2; exit 1; }
export HOME=$home USER=$user LOGNAME=$user SUDO_USER=root SUDO_UID=0 SUDO_GID=0
if [ -n "$login" ]; then cd "$home" 2>/dev/null || true; fi
if [ -n "$login$shell" ]; then
  if [ $# -eq 0 ]; then set -- /bin/bash; else set -- /bin/bash -c "$*"; fi
fi
[ $# -gt 0 ] || { echo 'usage: sudo command' >&2; exit 1; }
if [ "$user" != root ]; then exec runuser -u "$user" -- "$@"; fi
exec "$@"
`.replaceAll('__SHIM_DIR__', SHIM_DIR);

/** Capabilities the command itself runs without: nothing it could use to leave the sandbox. */
const DROPPED_CAPS = ['sys_admin', 'sys_module', 'sys_rawio', 'sys_boot', 'sys_time', 'mknod', 'syslog', 'mac_admin', 'mac_override'];

/**
 * Per case, in a fresh mount + pid namespace (this sh is pid 1). It mounts everything with one
 * `mount -a` over the case's fstab and pivot_roots into the merged root, detaching the real root
 * (so not even /proc/1/root leads out), then handshakes with the driver over stdin/stdout so the
 * driver can look at the sandbox (through /proc/<unshare pid>/root) while nothing runs:
 *   1. print "mounted", wait for a line (the driver applies the case's setup and snapshots);
 *   2. run the command under a timeout without mount/mknod/... capabilities, give background jobs
 *      a short grace period, kill the rest, print "ran", and wait for a line naming the checkouts
 *      whose `git status` the driver wants (it diffs the file system meanwhile);
 *   3. run those read-only git status and exit (pid 1 exiting tears the namespace down).
 * Results go to /dev/.bashguard-oracle/out, a bind of the case's out dir.
 * Args: caseDir timeoutSecs cwd cmd statusBeforeDirs graceSteps KEY=VAL...
 */
const CASE_SCRIPT = String.raw`
set -eu
C=$1 TO=$2 CWD=$3 CMD=$4 BEFORE=$5 GRACE=$6
shift 6
mount -a -T "$C/fstab"
cd "$C/merged"
pivot_root . .
umount -l .
cd /
O=${SHIM_DIR}/out
set +e
if [ -f "$O/setup.sh" ] && ! /bin/sh "$O/setup.sh" > "$O/setup.log" 2>&1; then : > "$O/setup-failed"; echo ran; exit 0; fi
echo mounted
read -r GO || exit 0
gitstate() {
  [ $# -gt 0 ] || return 0
  env -i HOME=/home/dev PATH=${SANDBOX_PATH} GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_OPTIONAL_LOCKS=0 LC_ALL=C \
    /bin/sh -c 'for d; do
      echo "@@ $d"
      git -C "$d" -c core.fsmonitor=false -c core.untrackedCache=false \
        status --porcelain=v1 --branch --untracked-files=all 2>&1
    done' gitstate "$@" </dev/null
}
others() {
  for p in /proc/[0-9]*; do
    [ "$p" = /proc/1 ] && continue
    s=
    read -r s < "$p/stat" 2>/dev/null || continue
    case "$s" in *") Z "*) continue ;; esac
    return 0
  done
  return 1
}
if [ ! -d "$CWD" ]; then : > "$O/no-cwd"; echo ran; exit 0; fi
# shellcheck disable=SC2086
gitstate $BEFORE > "$O/git-before" 2>&1
timeout -k 1 "$TO" setpriv --bounding-set=${DROPPED_CAPS.map((c) => '-' + c).join(',')} -- \
  /usr/bin/env -i -C "$CWD" "$@" /bin/bash -c "$CMD" </dev/null >"$O/stdout" 2>"$O/stderr"
echo $? > "$O/rc"
i=0
while [ "$i" -lt "$GRACE" ] && others; do sleep 0.05; i=$((i+1)); done
if others; then : > "$O/background-killed"; fi
i=0
while others && [ "$i" -lt 100 ]; do kill -9 -1 2>/dev/null; sleep 0.01; i=$((i+1)); done
echo ran
read -r AFTER || exit 0
# shellcheck disable=SC2086
gitstate $AFTER > "$O/git-after" 2>&1
exit 0
`;

function setupWorkspace(options) {
  // Private tmpfs over /tmp: the workspace, the template and every case's upper dirs live here.
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${options.tmpfsSize ?? '2g'},mode=1777`, 'bashguard-oracle', '/tmp']);
  fs.mkdirSync(LOWER, { recursive: true });
  // Non-recursive read-only bind of the root file system: the root overlay's lower layer, and the
  // reference upper-dir entries are compared with. Submounts (/proc, /dev, /sys ...) are not in it.
  execFileSync('mount', ['--bind', '-o', 'ro', '/', LOWER]);
  fs.mkdirSync(join(TEMPLATE, 'home'), { recursive: true });
  fs.mkdirSync(join(TEMPLATE, 'dev'), { recursive: true });
  // A minimal /dev with real device nodes (tmpfs allows mknod for root), plus the shim dir.
  sh(
    `set -e; cd "$1"; mknod -m 666 null c 1 3; mknod -m 666 zero c 1 5; mknod -m 666 full c 1 7
     mknod -m 666 random c 1 8; mknod -m 666 urandom c 1 9; mknod -m 666 tty c 5 0
     ln -s /proc/self/fd fd; ln -s /proc/self/fd/0 stdin; ln -s /proc/self/fd/1 stdout; ln -s /proc/self/fd/2 stderr
     ln -s pts/ptmx ptmx; mkdir -m 1777 shm; mkdir pts; mkdir -p "$2/out"`,
    [join(TEMPLATE, 'dev'), SHIM_DIR.slice('/dev/'.length)],
  );
  if (options.sudoShim !== false && !existsInLower('sudo')) {
    fs.writeFileSync(join(TEMPLATE, SHIM_DIR.slice(1), 'sudo'), SUDO_SHIM, { mode: 0o755 });
  }
  // Build the layout at its real absolute paths: bind the template's home over /home (in this
  // namespace only), so git records /home/dev/... in the worktrees' gitdir files.
  execFileSync('mount', ['--bind', join(TEMPLATE, 'home'), '/home']);
  try {
    sh(TEMPLATE_SCRIPT);
  } finally {
    execFileSync('umount', ['/home']);
  }
  fs.mkdirSync(CASES, { recursive: true });
}

const lowerLookup = new Map();
function existsInLower(program) {
  let hit = lowerLookup.get(program);
  if (hit === undefined) {
    hit = SANDBOX_PATH.split(':').some((d) => {
      try {
        fs.accessSync(join(LOWER, d, program), fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
    lowerLookup.set(program, hit);
  }
  return hit;
}

const CASE_DIRS = ['upper', 'work', 'home-upper', 'home-work', 'dev-upper', 'dev-work', 'tmp', 'vartmp', 'merged', 'out'];

function fstabFor(c) {
  const m = `${c}/merged`;
  // redirect_dir=on: renaming a directory that comes from a lower layer works (no EXDEV), as on
  // a normal file system.
  const ovl = (name, lower, upper, at) =>
    `${name} ${at} overlay lowerdir=${lower},upperdir=${c}/${upper}-upper,workdir=${c}/${upper}-work,redirect_dir=on 0 0`;
  return [
    `bashguard-oracle ${m} overlay lowerdir=${LOWER},upperdir=${c}/upper,workdir=${c}/work,redirect_dir=on 0 0`,
    ovl('bashguard-oracle-home', `${TEMPLATE}/home`, 'home', `${m}/home`),
    ovl('bashguard-oracle-dev', `${TEMPLATE}/dev`, 'dev', `${m}/dev`),
    `${c}/out ${m}${SHIM_DIR}/out none bind 0 0`,
    `devpts ${m}/dev/pts devpts newinstance,ptmxmode=0666,mode=0620 0 0`,
    `${c}/tmp ${m}/tmp none bind 0 0`,
    `${c}/vartmp ${m}/var/tmp none bind 0 0`,
    `proc ${m}/proc proc nosuid,nodev,noexec 0 0`,
    // The sandbox has its own pid namespace but shares the kernel: keep sysctls read-only.
    `${m}/proc/sys ${m}/proc/sys none bind,ro 0 0`,
    ...(fs.existsSync('/proc/sysrq-trigger') ? [`${m}/proc/sysrq-trigger ${m}/proc/sysrq-trigger none bind,ro 0 0`] : []),
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Snapshots

/** Walk below `root` (a host path; the root itself is not recorded) under the sandbox path `prefix`. */
function walk(root, prefix, out = new Map()) {
  const visit = (host, path, record) => {
    let st;
    try {
      st = fs.lstatSync(host, { bigint: true });
    } catch {
      return;
    }
    if (record) out.set(path, entryOf(host, st));
    if (st.isDirectory()) {
      let names;
      try {
        names = fs.readdirSync(host);
      } catch {
        return;
      }
      for (const n of names) visit(host + '/' + n, path === '/' ? '/' + n : path + '/' + n, true);
    }
  };
  visit(root, prefix, false);
  return out;
}

function typeOf(st) {
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'dir';
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isCharacterDevice()) return 'char';
  if (st.isBlockDevice()) return 'block';
  if (st.isFIFO()) return 'fifo';
  if (st.isSocket()) return 'socket';
  return 'other';
}

function entryOf(host, st) {
  const e = {
    type: typeOf(st),
    size: Number(st.size),
    mtimeNs: st.mtimeNs.toString(),
    ctimeNs: st.ctimeNs.toString(),
    mode: Number(st.mode & 0o7777n),
    uid: Number(st.uid),
    gid: Number(st.gid),
  };
  if (e.type === 'symlink') {
    try {
      e.target = fs.readlinkSync(host);
    } catch {}
  } else if (e.type === 'file' && e.size <= HASH_LIMIT) {
    try {
      e.hash = createHash('sha1').update(fs.readFileSync(host)).digest('hex');
    } catch {}
  } else if (e.type === 'char' || e.type === 'block') {
    e.rdev = Number(st.rdev);
  }
  return e;
}

function sameEntry(a, b) {
  return (
    a.type === b.type &&
    a.mode === b.mode &&
    a.uid === b.uid &&
    a.gid === b.gid &&
    a.mtimeNs === b.mtimeNs &&
    (a.type === 'dir' || a.size === b.size) &&
    a.target === b.target &&
    a.hash === b.hash &&
    a.rdev === b.rdev
  );
}

function sameDirMeta(a, b) {
  return !!a && !!b && a.type === 'dir' && b.type === 'dir' && a.mode === b.mode && a.uid === b.uid && a.gid === b.gid;
}

function parentOf(p) {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

/**
 * A directory present on both sides whose only difference is its mtime is reported only when no
 * direct child changed (say a lock file was created and removed again), flagged dirMtimeOnly.
 */
function settleDirs(changes, isMtimeOnlyDir) {
  const parentsWithChangedChild = new Set();
  const ancestorsOfChanges = new Set();
  for (const [p, kind] of changes) {
    for (let q = parentOf(p); q !== '/' && !ancestorsOfChanges.has(q); q = parentOf(q)) ancestorsOfChanges.add(q);
    if (kind !== 'touched') parentsWithChangedChild.add(parentOf(p));
  }
  const out = [];
  for (const [p, kind] of changes) {
    const mtimeOnly = kind === 'modified' && isMtimeOnlyDir(p);
    if (mtimeOnly && parentsWithChangedChild.has(p)) continue;
    // A directory whose only difference is its ctime was copied up (overlay) or re-stat'ed
    // because something below it changed: that change speaks for it.
    if (kind === 'touched' && isMtimeOnlyDir(p) && ancestorsOfChanges.has(p)) continue;
    out.push(mtimeOnly ? { path: p, kind, dirMtimeOnly: true } : { path: p, kind });
  }
  return out;
}

/**
 * 'touched': only the inode change time moved (chmod/chown/touch to the same values, cp -a of an
 * identical file, an open for writing that wrote nothing): a write happened, with no effect.
 */
function compare(b, a) {
  if (!sameEntry(b, a)) return 'modified';
  if (a.ctimeNs !== b.ctimeNs) return 'touched';
  return null;
}

function diff(before, after) {
  const changes = new Map();
  for (const [p, a] of after) {
    const b = before.get(p);
    const kind = b ? compare(b, a) : 'created';
    if (kind) changes.set(p, kind);
  }
  for (const p of before.keys()) if (!after.has(p)) changes.set(p, 'deleted');
  return settleDirs(changes, (p) => sameDirMeta(before.get(p), after.get(p)));
}

/**
 * Changes made through the root overlay: everything in its upper dir, compared with the lower
 * root (walking the merged root would mean walking the whole system). Limitation: without xattrs
 * we cannot see "opaque" or redirected dirs (a lower dir removed and recreated, or renamed); the
 * dir itself is still reported, its vanished lower children are not.
 */
function diffUpper(upperRoot) {
  const upper = walk(upperRoot, '/');
  const changes = new Map();
  const lower = new Map();
  for (const [p, u] of upper) {
    let lst = null;
    try {
      lst = fs.lstatSync(LOWER + p, { bigint: true });
    } catch {}
    if (u.type === 'char' && u.rdev === 0) {
      if (lst) changes.set(p, 'deleted'); // whiteout
      continue;
    }
    if (!lst) {
      changes.set(p, 'created');
      continue;
    }
    const l = entryOf(LOWER + p, lst);
    lower.set(p, l);
    // Copy-up keeps mtime and content (not ctime): an open-for-write that changed nothing is 'touched'.
    const kind = compare(l, u);
    if (kind) changes.set(p, kind);
  }
  return settleDirs(changes, (p) => sameDirMeta(lower.get(p), upper.get(p)));
}

function scratchSnapshot(caseDir) {
  const m = walk(join(caseDir, 'tmp'), '/tmp');
  walk(join(caseDir, 'vartmp'), '/var/tmp', m);
  return m;
}

// ---------------------------------------------------------------------------------------------
// Git state, read straight from the files (no git process runs in the driver's view)

/**
 * Reads a file the driver did not write. Never follows a symlink in the last component: paths
 * under /proc/<pid>/root resolve absolute symlinks against the DRIVER's root, and a case could
 * have planted one. (Intermediate components are checked by the callers against a walk.)
 */
function readText(p) {
  let fd;
  try {
    fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return null;
    return fs.readFileSync(fd, 'utf8');
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

const GIT = '/home/dev/repo/.git';

/**
 * `home` is where the sandbox's /home is visible to the driver, `snap` a walk of it. Only files the
 * walk saw as regular files (through real directories) are read.
 */
function gitState(home, snap) {
  const read = (p) => (snap.get(p)?.type === 'file' ? readText(join(home, p.slice('/home/'.length))) : null);
  const refs = {};
  const packed = read(`${GIT}/packed-refs`);
  if (packed) {
    for (const line of packed.split('\n')) {
      const m = /^([0-9a-f]{40,64}) (refs\/\S+)$/.exec(line);
      if (m) refs[m[2]] = m[1];
    }
  }
  const worktrees = [];
  for (const [p, e] of snap) {
    if (e.type === 'file' && p.startsWith(`${GIT}/refs/`) && !p.endsWith('.lock')) {
      const v = (read(p) ?? '').trim();
      if (v) refs[p.slice(GIT.length + 1)] = v;
    }
    if (e.type === 'dir' && parentOf(p) === `${GIT}/worktrees`) worktrees.push(p.slice(GIT.length + '/worktrees/'.length));
  }
  worktrees.sort();
  const one = (dir) => ({ head: read(`${dir}/HEAD`)?.trim() ?? null, index: snap.get(`${dir}/index`)?.hash ?? null });
  const checkouts = { main: one(GIT) };
  for (const w of worktrees) checkouts[w] = one(`${GIT}/worktrees/${w}`);
  return { refs, checkouts, worktrees, config: snap.get(`${GIT}/config`)?.hash ?? null };
}

function parseStatus(text) {
  const out = {};
  if (text == null) return out;
  let cur = null;
  for (const line of text.split('\n')) {
    const m = /^@@ (.*)$/.exec(line);
    if (m) {
      cur = m[1];
      out[cur] = [];
    } else if (cur && line !== '' && out[cur].length < 500) out[cur].push(line);
  }
  return out;
}

/** Which of `dirs` (checkouts) may have a different git status after these changes (cheap, conservative). */
function statusDirsFor(changes, dirs) {
  const want = new Set();
  const linked = Object.keys(LINKED);
  for (const { path } of changes) {
    if (!path.startsWith(MAIN + '/')) continue;
    if (path.startsWith(GIT + '/')) {
      const rest = path.slice(GIT.length + 1);
      if (rest.startsWith('objects/') || rest.startsWith('logs/')) continue;
      const m = /^worktrees\/([^/]+)/.exec(rest);
      if (m) {
        for (const w of linked) if (LINKED[w] === m[1]) want.add(w);
        continue;
      }
      for (const d of ALL_CHECKOUTS) want.add(d);
      continue;
    }
    const w = linked.find((l) => path === l || path.startsWith(l + '/'));
    if (w) want.add(w);
    else if (!path.startsWith(MAIN + '/.builders/') && !path.startsWith(MAIN + '/.claude/worktrees/')) want.add(MAIN);
  }
  return dirs.filter((d) => want.has(d));
}

// ---------------------------------------------------------------------------------------------
// Cases

function shellQuote(v) {
  return "'" + String(v).replaceAll("'", "'\\''") + "'";
}

/**
 * The case's setup as a shell script, run inside the sandbox before the "before" snapshot (so the
 * driver itself never writes through the sandbox's root). Paths must be under /home, /tmp or
 * /var/tmp; relative ones resolve against the cwd.
 */
function setupScript(setup, cwd) {
  const absPath = (p) => {
    const a = normalize(p.startsWith('/') ? p : join(cwd, p)).replace(/(.)\/+$/, '$1');
    if (!/^\/(home|tmp|var\/tmp)\/./.test(a)) throw new Error(`setup path outside /home, /tmp and /var/tmp: ${p}`);
    return a;
  };
  const touched = new Set();
  const abs = (p) => {
    const a = absPath(p);
    touched.add(a.startsWith('/home/') ? 'home' : 'scratch');
    return a;
  };
  const lines = ['set -e'];
  for (const d of setup.dirs ?? []) lines.push(`mkdir -p -- ${shellQuote(abs(d))}`);
  for (const [p, content] of Object.entries(setup.files ?? {})) {
    const a = abs(p);
    // A key ending in `/`: a directory (the corpus' complete directory).
    if (p.endsWith('/')) {
      lines.push(`mkdir -p -- ${shellQuote(a)}`);
      continue;
    }
    lines.push(`mkdir -p -- ${shellQuote(dirname(a))}`, `printf '%s' ${shellQuote(content)} > ${shellQuote(a)}`);
  }
  for (const [p, to] of Object.entries(setup.symlinks ?? {})) {
    const a = abs(p);
    lines.push(`mkdir -p -- ${shellQuote(dirname(a))}`, `rm -rf -- ${shellQuote(a)}`, `ln -s -- ${shellQuote(to)} ${shellQuote(a)}`);
  }
  return { script: lines.join('\n') + '\n', touched };
}

function readCapped(p) {
  let fd;
  try {
    fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    if (!fs.fstatSync(fd).isFile()) throw new Error('not a file');
  } catch {
    if (fd !== undefined) fs.closeSync(fd);
    return { text: '', truncated: false };
  }
  try {
    const buf = Buffer.alloc(OUTPUT_LIMIT);
    const n = fs.readSync(fd, buf, 0, OUTPUT_LIMIT, 0);
    return { text: buf.subarray(0, n).toString('utf8'), truncated: fs.fstatSync(fd).size > n };
  } finally {
    fs.closeSync(fd);
  }
}

/** The template's state, shared by every case without setup (their /home starts identical). */
const baseline = { home: null, git: null, status: null };
let caseSeq = 0;

async function runCase(c, options, { forceStatus = false } = {}) {
  const caseDir = join(CASES, String(++caseSeq));
  const cwd = (c.cwd ?? WORKTREE).replace(/(.)\/+$/, '$1');
  const worktree = c.worktree !== undefined ? c.worktree : worktreeOf(cwd);
  const statusDirs = forceStatus ? ALL_CHECKOUTS : [MAIN, ...(worktree ? [worktree] : [])];
  const result = { type: 'result', id: c.id, ran: false, worktree };
  const t0 = performance.now();
  try {
    for (const d of CASE_DIRS) fs.mkdirSync(join(caseDir, d), { recursive: true });
    fs.chmodSync(join(caseDir, 'tmp'), 0o1777);
    fs.chmodSync(join(caseDir, 'vartmp'), 0o1777);
    fs.writeFileSync(join(caseDir, 'fstab'), fstabFor(caseDir));

    const env = {
      HOME: '/home/dev',
      PATH: `${SANDBOX_PATH}:${SHIM_DIR}`,
      USER: 'root',
      LOGNAME: 'root',
      SHELL: '/bin/bash',
      TERM: 'dumb',
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      GIT_CONFIG_NOSYSTEM: '1',
      PWD: cwd,
      ...(c.env ?? {}),
    };
    const timeoutMs = c.timeoutMs ?? options.timeoutMs ?? 5000;
    const graceSteps = Math.ceil((options.backgroundGraceMs ?? 200) / 50);
    let touched = new Set();
    if (c.setup) {
      try {
        const s = setupScript(c.setup, cwd);
        fs.writeFileSync(join(caseDir, 'out', 'setup.sh'), s.script);
        touched = s.touched;
      } catch (e) {
        result.error = `bad setup: ${e?.message ?? e}`;
        return result;
      }
    }
    const hasHomeSetup = touched.has('home');
    const statusBefore = hasHomeSetup || !baseline.status ? statusDirs : [];
    const args = ['--mount', '--propagation', 'private', '--pid', '--fork', '--kill-child', '--', '/bin/sh', '-c', CASE_SCRIPT];
    args.push('case', caseDir, String(timeoutMs / 1000), cwd, c.cmd, statusBefore.join(' '), String(graceSteps));
    for (const [k, v] of Object.entries(env)) args.push(`${k}=${v}`);

    let homeBefore = baseline.home;
    let scratchBefore = new Map();
    let gitBefore = baseline.git;
    let observed = null;
    let failure = null;
    let mounted = false;
    let tRun = 0;
    let runMs = 0;
    const inner = await new Promise((resolve) => {
      const child = spawn('unshare', args, { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: SANDBOX_PATH, LC_ALL: 'C' } });
      // The unshare process lives in the case's mount namespace and was moved into the merged root
      // by pivot_root: its /proc root shows the sandbox as the command sees it.
      const merged = `/proc/${child.pid}/root`;
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.stdin.on('error', () => {});
      const step = (line) => {
        if (line === 'mounted') {
          mounted = true;
          if (touched.has('scratch')) scratchBefore = scratchSnapshot(caseDir);
          if (hasHomeSetup) {
            homeBefore = walk(merged + '/home', '/home');
            gitBefore = gitState(merged + '/home', homeBefore);
          }
          tRun = performance.now();
          child.stdin.write('go\n');
        } else if (line === 'ran' && !mounted) {
          child.stdin.end();
        } else if (line === 'ran') {
          // The command and everything it started are gone: look now, then ask for git status.
          runMs = performance.now() - tRun;
          const homeAfter = walk(merged + '/home', '/home');
          const changes = [
            ...diff(homeBefore, homeAfter),
            ...diff(scratchBefore, scratchSnapshot(caseDir)),
            ...diffUpper(join(caseDir, 'upper')),
          ];
          observed = { changes, gitAfter: gitState(merged + '/home', homeAfter) };
          const dirs = forceStatus ? statusDirs : statusDirsFor(changes, statusDirs);
          child.stdin.end(dirs.join(' ') + '\n');
        }
      };
      child.stdout.on('data', (d) => {
        stdout += d;
        let nl;
        while ((nl = stdout.indexOf('\n')) >= 0) {
          const line = stdout.slice(0, nl);
          stdout = stdout.slice(nl + 1);
          try {
            step(line);
          } catch (e) {
            failure = `driver error: ${e?.stack ?? e}`;
            child.kill('SIGKILL');
          }
        }
      });
      const backstop = setTimeout(() => {
        failure ??= 'sandbox did not finish (killed by the backstop timer)';
        child.kill('SIGKILL');
      }, timeoutMs + 15_000);
      child.on('close', (code, signal) => {
        clearTimeout(backstop);
        resolve({ code, signal, stderr });
      });
    });
    const out = join(caseDir, 'out');
    if (failure) {
      result.error = failure;
      return result;
    }
    if (fs.existsSync(join(out, 'setup-failed'))) {
      result.error = `setup failed: ${readCapped(join(out, 'setup.log')).text.slice(0, 2000)}`;
      return result;
    }
    if (fs.existsSync(join(out, 'no-cwd'))) {
      result.error = `cwd does not exist in the layout: ${cwd}`;
      return result;
    }
    const rcText = readText(join(out, 'rc'));
    if (rcText == null || observed === null) {
      result.error = `sandbox failed (exit ${inner.code ?? inner.signal}): ${inner.stderr.slice(0, 2000)}`;
      return result;
    }
    const rc = Number(rcText.trim());
    const timedOut = rc === 124 && runMs >= timeoutMs - 20;
    const statusAfterRun = parseStatus(readText(join(out, 'git-after')));
    const statusBeforeRun = parseStatus(readText(join(out, 'git-before')));
    const sBefore = {};
    const sAfter = {};
    for (const d of statusDirs) {
      sBefore[d] = statusBeforeRun[d] ?? baseline.status?.[d] ?? [];
      sAfter[d] = statusAfterRun[d] ?? sBefore[d];
    }
    const stdout = readCapped(join(out, 'stdout'));
    const stderr = readCapped(join(out, 'stderr'));
    Object.assign(result, {
      ran: true,
      exitCode: timedOut ? null : rc,
      timedOut,
      changes: observed.changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
      git: { before: gitBefore, after: observed.gitAfter, statusBefore: sBefore, statusAfter: sAfter },
      stdout: stdout.text,
      stderr: stderr.text,
      outputTruncated: stdout.truncated || stderr.truncated,
      backgroundKilled: fs.existsSync(join(out, 'background-killed')),
      shims: (readText(join(caseDir, 'dev-upper', SHIM_DIR.slice('/dev/'.length), 'used')) ?? '').split('\n').filter(Boolean),
      ms: { run: round(runMs) },
    });
    return result;
  } catch (e) {
    result.error = String(e?.stack ?? e);
    return result;
  } finally {
    result.ms = { ...(result.ms ?? {}), total: round(performance.now() - t0) };
    if (!options.keepCaseDirs) fs.rm(caseDir, { recursive: true, force: true }, () => {});
  }
}

function round(ms) {
  return Math.round(ms * 10) / 10;
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const req = JSON.parse(await readStdin());
  const options = req.options ?? {};
  const cases = req.cases ?? [];
  const t0 = performance.now();
  try {
    setupWorkspace(options);
  } catch (e) {
    emit({ type: 'fatal', message: `template setup failed: ${e?.stderr?.toString?.() ?? ''} ${e?.message ?? e}` });
    process.exitCode = 2;
    return;
  }
  baseline.home = walk(join(TEMPLATE, 'home'), '/home');
  baseline.git = gitState(join(TEMPLATE, 'home'), baseline.home);
  // A no-op case yields the baseline git status and proves the pipeline reports no changes.
  const noop = await runCase({ id: '@baseline', cmd: 'true' }, options, { forceStatus: true });
  if (!noop.ran) {
    emit({ type: 'fatal', message: `baseline case failed: ${noop.error}` });
    process.exitCode = 2;
    return;
  }
  const warnings = [];
  if (noop.changes.length) warnings.push(`the no-op case reported changes: ${JSON.stringify(noop.changes)}`);
  baseline.status = noop.git.statusAfter;
  emit({ type: 'ready', setupMs: round(performance.now() - t0), warnings, baselineStatus: baseline.status });

  const concurrency = Math.max(1, options.concurrency ?? 1);
  let next = 0;
  const worker = async () => {
    while (next < cases.length) emit(await runCase(cases[next++], options));
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  emit({ type: 'done', ms: round(performance.now() - t0) });
}

main().catch((e) => {
  emit({ type: 'fatal', message: String(e?.stack ?? e) });
  process.exitCode = 2;
});
