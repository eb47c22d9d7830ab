/**
 * Shared git state held by the mounts (issue 51 item 2): of the common dir a linked worktree
 * shares, only what this worktree's own commits write stays writable: `objects/` (new objects),
 * `refs/heads/` for the lock file and the rename of its own branch's ref, with every other entry
 * there (another branch's ref, a directory of other branches) bound read-only, and its own reflog
 * (or `logs/refs/heads/` held the same way where it does not exist yet); `refs/` itself (tags, remotes, notes, replace refs, the
 * stash), `logs/` (the main checkout's HEAD reflog, the stash's), `packed-refs`, `config`, `hooks`
 * and the main checkout's `HEAD` and `index` are read-only with the common dir. A mount holds
 * whatever route writes (porcelain, `update-ref`, a raw write under `.git/`), and the agent
 * cannot switch it off from inside, unlike git's `reference-transaction` hook, which any
 * `git -c core.hooksPath=...` or `GIT_CONFIG_GLOBAL` skips. What a mount cannot hold: a new name
 * beside the own branch (`refs/heads/<new>`, a new branch made by a raw write or by
 * `git branch`): it changes no existing ref, and the analyzer predicts the git routes to it
 * (docs/limits.md).
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';

export interface RefGrant {
  path: string;
  access: 'rw' | 'ro';
  why: string;
}

/** The branch this worktree's HEAD names (`ref: refs/heads/<branch>`), or null (detached, unreadable). */
export function ownBranch(gitDir: string): string | null {
  let head: string;
  try {
    head = readFileSync(`${gitDir}/HEAD`, 'utf8');
  } catch {
    return null;
  }
  const m = /^ref: refs\/heads\/(\S+)\s*$/.exec(head);
  return m && !m[1]!.split('/').some((c) => c === '' || c === '.' || c === '..') ? m[1]! : null;
}

function isFile(p: string): boolean {
  try {
    return lstatSync(p).isFile();
  } catch {
    return false;
  }
}

function dirEntries(dir: string): { name: string; dir: boolean }[] | null {
  try {
    return readdirSync(dir, { withFileTypes: true }).map((e) => ({ name: e.name, dir: e.isDirectory() }));
  } catch {
    return null;
  }
}

/**
 * Beneath `top` (`refs/heads` or `logs/refs/heads`): writable along the branch's own path, every
 * other entry read-only (a directory whole). Nothing where `top` does not exist.
 */
function holdBeside(top: string, branch: string, what: string, out: RefGrant[]): void {
  const parts = branch.split('/');
  let dir = top;
  if (dirEntries(top) === null) return;
  out.push({ path: top, access: 'rw', why: `${what}: this worktree's branch ${branch} is written here` });
  for (let i = 0; i < parts.length; i++) {
    const entries = dirEntries(dir);
    if (entries === null) return;
    const own = parts[i]!;
    const last = i === parts.length - 1;
    for (const e of entries) {
      if (e.name === own && (last ? !e.dir : e.dir)) continue;
      // (a lock file of a git at work: gone in a moment, and bound it would stay)
      if (!e.dir && e.name.endsWith('.lock')) continue;
      out.push({ path: `${dir}/${e.name}`, access: 'ro', why: `${what}: another branch's, shared by every checkout` });
    }
    if (last || !entries.some((e) => e.name === own && e.dir)) return;
    dir = `${dir}/${own}`;
  }
}

/** The grants of the common dir for a linked worktree whose admin dir is `gitDir` (see the file comment). */
export function refGrants(common: string, gitDir: string): RefGrant[] {
  const out: RefGrant[] = [{ path: `${common}/objects`, access: 'rw', why: "git's object store: this worktree's commits add objects" }];
  const branch = ownBranch(gitDir);
  if (branch === null) return out;
  holdBeside(`${common}/refs/heads`, branch, 'branch refs', out);
  // A reflog is appended in place (no lock file, no rename): where the own one exists, it alone
  // is bound writable, one mount however many other branches there are.
  const ownLog = `${common}/logs/refs/heads/${branch}`;
  if (isFile(ownLog)) out.push({ path: ownLog, access: 'rw', why: `this worktree's branch ${branch}: its reflog` });
  else holdBeside(`${common}/logs/refs/heads`, branch, 'branch reflogs', out);
  return out;
}

/**
 * What refGrants read, as a string that changes when its answer can: the HEAD it read and the
 * identity of each directory it listed along the branch's path (a name added or removed changes
 * its directory's mtime). For the kept plan's key (./enforce.ts).
 */
export function refStamp(common: string, gitDir: string): string {
  const branch = ownBranch(gitDir);
  if (branch === null) return 'detached';
  const parts = branch.split('/');
  const out: string[] = [branch];
  for (const top of [`${common}/refs/heads`, `${common}/logs/refs/heads`]) {
    let dir = top;
    for (let i = 0; i < parts.length; i++) {
      let st: ReturnType<typeof lstatSync> | undefined;
      try {
        st = lstatSync(dir, { throwIfNoEntry: false });
      } catch {
        st = undefined;
      }
      out.push(st ? `${st.ino}:${st.mtimeMs}:${st.ctimeMs}` : '-');
      if (!st || i === parts.length - 1) break;
      dir = `${dir}/${parts[i]}`;
    }
  }
  return out.join('\0');
}

/**
 * The common dir held as it is and still lockable (issue 51 item 2): git's files backend takes
 * `<common>/packed-refs.lock` for every ref deletion, this worktree's own pseudo-refs included
 * (`git bisect`, the end of `revert`/`cherry-pick`/`rebase`, `update-ref -d refs/worktree/x`), and
 * a read-only common dir refuses it. So, under the mounts, a writable tmpfs covers the common dir
 * (`dir`, volatile) and each of its entries is bound back onto it with the access the plan gives
 * it (`back`: `objects` writable, `refs`, `config`, `HEAD`, `worktrees` read-only, the finer
 * grants beneath them applied after as before): a new top-level name (a lock, `gc.pid`) lands in
 * the tmpfs and vanishes with the call, while a rename over a bound entry fails (EBUSY), so
 * `packed-refs` itself stays held and no deletion of a ref it holds goes through.
 *
 * Where `packed-refs` does not exist it is reserved in the tmpfs with an empty read-only file
 * (/dev/null, which git reads as an empty `packed-refs`), not left absent: absent, `git pack-refs`
 * (and `git gc`) would write a `packed-refs` that vanishes with the call, then prune the loose
 * refs it packed, this worktree's own branch among them (its directory is writable), which would
 * lose that branch. Likewise `modules` (a read-only empty directory): a submodule's git dir made
 * there would vanish, and its checkout in the worktree would point at nothing; git fails there as
 * it did before. The reservations exist only inside the namespace: nothing is created on disk.
 *
 * Left as the plan has it (null: no tmpfs) where the listing cannot be read or holds a name that
 * cannot be bound back as it is (a symlink, a newline); a lock file of a git at work outside is
 * not bound back (gone in a moment; the call has its own lock there, which it cannot commit).
 */
export function volatileGrants(dir: RefGrant & { path: string }, entries: { name: string; kind: string }[] | null, accessOf: (path: string) => 'rw' | 'ro'): { dir: RefGrant & { volatile: true }; back: (RefGrant & { back: true | 'empty' | 'empty-dir' })[] } | null {
  if (entries === null || dir.access !== 'ro') return null;
  const back: (RefGrant & { back: true | 'empty' | 'empty-dir' })[] = [];
  for (const e of entries) {
    if (e.kind === 'l' || e.name.includes('\n')) return null;
    if (e.kind !== 'd' && e.name.endsWith('.lock')) continue;
    const path = `${dir.path}/${e.name}`;
    back.push({ path, access: accessOf(path), why: `${e.name} of the shared git dir, bound back onto its tmpfs`, back: true });
  }
  if (!entries.some((e) => e.name === 'modules')) back.push({ path: `${dir.path}/modules`, access: 'ro', why: "modules, reserved empty inside the call only (a submodule's git dir made there would vanish, its checkout left broken)", back: 'empty-dir' });
  if (!entries.some((e) => e.name === 'packed-refs')) back.push({ path: `${dir.path}/packed-refs`, access: 'ro', why: 'packed-refs, reserved empty inside the call only (a new one would vanish, and its pruned loose refs with it)', back: 'empty' });
  return { dir: { ...dir, volatile: true, why: `${dir.why}: a tmpfs where new names vanish with the call, its entries bound back` }, back };
}
