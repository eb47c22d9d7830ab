/**
 * Seatbelt enforcement on macOS (issue #38): the allowed Bash call runs under `sandbox-exec` with a
 * profile computed from the same plan as bubblewrap's (./enforce.ts's enforcementPlan), through
 * the same wrapper text (so a `cd` persists, the exit status, output and background processes are
 * the client's: sandbox-exec applies the profile to itself and execs the command, whose children
 * inherit it).
 *
 * The profile allows everything but writing (`(allow default)`, then `(deny file-write*)`), allows
 * writing beneath each read-write grant (the plan's base `/` today; the write roots alone where the
 * plan has no writable base) and on the devices every command writes, and then denies (Seatbelt:
 * the last rule that matches decides, so the denies after the allows win):
 * - each read-only grant G denies `file-write*` beneath G, except beneath the read-write grants
 *   nested in G (`require-not`): the most specific grant decides, as with bubblewrap's binds;
 * - each directory that bubblewrap would make a mount point (a read-write grant, a pin) denies
 *   `file-write*` of the directory itself: it cannot be renamed or removed, so a rename of a
 *   directory between two grants cannot carry a read-only path away (bubblewrap gets the same
 *   from EBUSY on a mount point).
 * Reservations are not made: a rule on a name holds before the name exists.
 * Seatbelt matches the path a call names after the kernel resolved it, so every path of the plan
 * is resolved through its existing part first (/private/tmp rather than /tmp), and matched in any
 * case on a volume that ignores case; every ancestor of a read-only path is move-blocked
 * (`seatbeltEnforcementProfile`). It is path-based: a hard link made before the call is
 * another path to the same file; whether a new hard link escapes is measured by the probe below,
 * and reported by `doctor`.
 *
 * Nothing on this project's Linux machines can run sandbox-exec, so the mechanism proves itself
 * where it runs: before the first use on a boot, `seatbeltAvailable` runs the profile of a small plan
 * on a scratch tree and checks that a write, a create and a rename under the read-only part fail
 * and a write under the nested read-write part works. Only then does `auto` use it; otherwise the
 * hook says the call is not enforced and `doctor` fails with what the probe saw.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync, mkdirSync, existsSync, lstatSync } from 'node:fs';
import { physicalPath } from '../../util/physical-path.js';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import type { Env } from '../../policy/workspace/config.js';
import { isInside } from '../../engine/shell/paths.js';
import { kindOf, type Grant, type SandboxPlan } from './grants.js';
import { shellQuote as q } from '../../util/quote.js';
import { cachedProbe, type Probe } from './probes.js';

/** sandbox-exec from the system directory only (a copy on PATH could be anything the agent put there). */
export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** A command that succeeds where sandbox-exec can apply a profile (not inside another Seatbelt sandbox). */
export const SEATBELT_PROBE: readonly string[] = [SANDBOX_EXEC, '-p', '(version 1)(allow default)', '/usr/bin/true'];

/** A string literal of SBPL (a Scheme string: backslash and double quote escaped). */
export function sbplString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** File-system facts the profile is computed from (injected by tests). */
export interface ProfileFacts {
  /** Whether a grant's path is a directory. */
  isDir?: (p: string) => boolean;
  /** The path as the kernel resolves it: symlinks in its existing part followed (/tmp -> /private/tmp). */
  resolve?: (p: string) => string;
  /** Whether the volume holding `p` matches names case-insensitively (APFS and HFS+ by default). */
  caseInsensitive?: (p: string) => boolean;
}

/**
 * The enforcement profile of a plan (see the file comment). `facts` (or, as before, an `isDir`
 * function) tells which grant paths are directories, how a path resolves and which volumes ignore
 * case. On top of the plan's rules:
 * - every path is resolved through its existing part (a HOME or config dir under /tmp or behind a
 *   symlink, and a protected path that does not exist yet, would otherwise never match: Seatbelt
 *   sees the resolved path);
 * - on a case-insensitive volume a path is matched by a regex that ignores ASCII case (`.CLAUDE`
 *   is `.claude` there);
 * - every ancestor of a read-only path may not be created, removed or renamed (`file-write-create`,
 *   `file-write-unlink` of the ancestor itself): a protected name whose parent does not exist yet
 *   cannot be planted by creating or renaming the parent into place, and no parent can be moved
 *   away with the name in it (sandbox-runtime's move-blocking does the same).
 */
export function seatbeltEnforcementProfile(plan: SandboxPlan, facts: ProfileFacts | ((p: string) => boolean) = {}): string {
  const f: ProfileFacts = typeof facts === 'function' ? { isDir: facts } : facts;
  const isDir = f.isDir ?? ((p: string) => kindOf(p) === 'd');
  const resolve = f.resolve ?? resolveThroughExisting;
  const ci = f.caseInsensitive ?? (process.platform === 'darwin' ? caseInsensitiveVolume : () => false);
  // Path rules hold for names that do not exist yet: a reservation, and a protected path bubblewrap
  // could not reserve, are simply read-only here.
  const grants: Pick<Grant, 'path' | 'access'>[] = [...plan.grants, ...plan.unreserved.map((path) => ({ path, access: 'ro' as const }))].map((g) => ({ ...g, path: resolve(g.path) }));
  const sub = (p: string) => pathFilter('subpath', p, ci(p));
  // Writes are denied unless a read-write grant allows them (the last rule that matches decides:
  // the read-only rules below come after and win inside a read-write grant).
  const lines = ['(version 1)', '(allow default)', '(deny file-write*)'];
  for (const d of DEVICES) lines.push(`(allow file-write* ${d})`);
  for (const g of grants) if (g.access === 'rw') lines.push(`(allow file-write* ${sub(g.path)})`);
  for (const g of grants) {
    if (g.access !== 'ro') continue;
    const holes = grants.filter((h) => h.access === 'rw' && h.path !== g.path && isInside(h.path, g.path));
    lines.push(holes.length ? `(deny file-write* (require-all ${sub(g.path)}${holes.map((h) => ` (require-not ${sub(h.path)})`).join('')}))` : `(deny file-write* ${sub(g.path)})`);
  }
  for (const g of grants) if (g.access === 'rw' && g.path !== '/' && isDir(g.path)) lines.push(`(deny file-write* ${pathFilter('literal', g.path, ci(g.path))})`);
  const ancestors = new Set<string>();
  for (const g of grants) {
    if (g.access !== 'ro') continue;
    for (let a = g.path.slice(0, g.path.lastIndexOf('/')); a !== ''; a = a.slice(0, a.lastIndexOf('/'))) ancestors.add(a);
  }
  for (const a of [...ancestors].sort()) lines.push(`(deny file-write-create file-write-unlink ${pathFilter('literal', a, ci(a))})`);
  return lines.join('\n') + '\n';
}

/** Devices every command writes, whatever the grants (as `bashguard sandbox`'s profile, ./render.ts). */
const DEVICES = ['(literal "/dev/null")', '(literal "/dev/zero")', '(literal "/dev/tty")', '(regex #"^/dev/fd/")', '(regex #"^/dev/ttys")'];

/**
 * A path filter: `(subpath "…")` or `(literal "…")`, or where the volume ignores case a regex
 * that matches the same names in any ASCII case. A name a regex cannot carry safely (a double
 * quote, a newline) keeps the exact-case filter.
 */
function pathFilter(kind: 'subpath' | 'literal', p: string, caseInsensitive: boolean): string {
  if (!caseInsensitive || !/[A-Za-z]/.test(p) || /["\n\r]/.test(p)) return `(${kind} ${sbplString(p)})`;
  let re = '';
  for (const c of p) re += /[A-Za-z]/.test(c) ? `[${c.toUpperCase()}${c.toLowerCase()}]` : /[.[\]()*+?{}|^$\\]/.test(c) ? `\\${c}` : c;
  return `(regex #"^${re}${kind === 'subpath' ? (p === '/' ? '' : '(/|$)') : '$'}")`;
}

/** `p` resolved as the kernel would: its longest existing prefix through realpath(3), the rest appended. */
export function resolveThroughExisting(p: string): string {
  let head = p.replace(/\/+$/, '') || '/';
  let rest = '';
  for (;;) {
    const r = physicalPath(head);
    if (r !== null) return r === '/' ? rest || '/' : `${r}${rest}`;
    if (head === '/' || head === '') return p;
    const i = head.lastIndexOf('/');
    rest = `${head.slice(i)}${rest}`;
    head = i === 0 ? '/' : head.slice(0, i);
  }
}

/**
 * Whether the volume of `p` ignores case: its nearest existing entry with a letter in the name,
 * looked up again with the case of that name flipped, is the same file.
 */
export function caseInsensitiveVolume(p: string): boolean {
  for (let q = p; q !== '' && q !== '/'; q = q.slice(0, q.lastIndexOf('/'))) {
    const name = q.slice(q.lastIndexOf('/') + 1);
    if (!/[A-Za-z]/.test(name)) continue;
    const a = lstatSync(q, { throwIfNoEntry: false });
    if (!a) continue;
    const flipped = [...name].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
    const b = lstatSync(`${q.slice(0, q.lastIndexOf('/'))}/${flipped}`, { throwIfNoEntry: false });
    return b !== undefined && b.ino === a.ino && b.dev === a.dev;
  }
  return false;
}

/** How the probe runs a shell command under a profile (injected by tests): the exit status. */
export type SeatbeltRunner = (profile: string, script: string) => { status: number | null; stderr: string };

const defaultRunner =
  (exec: string): SeatbeltRunner =>
  (profile, script) => {
    const r = spawnSync(exec, ['-p', profile, '/bin/sh', '-c', script], { encoding: 'utf8', timeout: 10_000 });
    return { status: r.status, stderr: (r.stderr ?? r.error?.message ?? '').trim() };
  };

export interface SeatbeltProbe extends Probe {
  /** Whether a hard link made under the profile to a read-only file could be written through. */
  links?: 'held' | 'escapes';
}

/**
 * Runs the enforcement profile of a small plan on a scratch tree (see the file comment): ok when
 * a write, a create and a rename under the read-only part fail and a write under the nested
 * read-write part succeeds. Also records whether a hard link escapes. Never throws.
 */
export function probeSeatbelt(run: SeatbeltRunner, scratchParent = tmpdir()): SeatbeltProbe {
  let t: string | null = null;
  try {
    t = realpathSync(mkdtempSync(`${realpathSync(scratchParent)}/bashguard-seatbelt-`));
    const p = `${t}/p`;
    mkdirSync(`${p}/w`, { recursive: true });
    writeFileSync(`${p}/f`, '0\n');
    const plan: SandboxPlan = {
      worktree: `${p}/w`,
      unreserved: [],
      grants: [
        { path: '/', access: 'rw', why: 'base' },
        { path: t, access: 'rw', why: 'pin', pin: true },
        { path: p, access: 'ro', why: 'protected' },
        { path: `${p}/w`, access: 'rw', why: 'worktree' },
      ],
    };
    const script = [`echo 1 > ${q(`${p}/f`)}`, `echo 1 > ${q(`${p}/new`)}`, `mv ${q(p)} ${q(`${t}/moved`)}`, `mv ${q(t)} ${q(`${t}-moved`)}`, `echo 1 > ${q(`${p}/w/ok`)}`].join('; ') + '; exit 0';
    const profile = seatbeltEnforcementProfile(plan);
    const r = run(profile, script);
    if (r.status !== 0) return { ok: false, why: `sandbox-exec cannot run the enforcement profile here (exit ${r.status}): ${r.stderr.split('\n')[0] || 'no message'}` };
    const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : null);
    const seen: string[] = [];
    if (read(`${p}/f`) !== '0\n') seen.push('a read-only file was written');
    if (existsSync(`${p}/new`)) seen.push('a file was created in a read-only directory');
    if (!existsSync(p) || existsSync(`${t}/moved`)) seen.push('a read-only directory was renamed');
    if (existsSync(`${t}-moved`)) seen.push('a directory holding a read-only path was renamed');
    if (read(`${p}/w/ok`) !== '1\n') seen.push('the writable directory inside a read-only one could not be written');
    if (seen.length) return { ok: false, why: `the Seatbelt profile does not hold here: ${seen.join('; ')}` };
    // A hard link to a read-only file, written through: path-based rules may not see it.
    run(profile, `ln ${q(`${p}/f`)} ${q(`${p}/w/h`)} && echo 1 >> ${q(`${p}/w/h`)}; exit 0`);
    return { ok: true, why: 'sandbox-exec holds the profile', links: read(`${p}/f`) === '0\n' ? 'held' : 'escapes' };
  } catch (err) {
    return { ok: false, why: `the Seatbelt probe failed: ${(err as Error).message.split('\n')[0]}` };
  } finally {
    if (t) for (const d of [t, `${t}-moved`]) rmSync(d, { recursive: true, force: true });
  }
}

/** Whether Seatbelt enforcement can be used here: macOS, sandbox-exec present, the probe holding (cached per boot). */
export function seatbeltAvailable(env: Env, exec = SANDBOX_EXEC, platform: string = process.platform): SeatbeltProbe {
  if (platform !== 'darwin') return { ok: false, why: `sandbox-exec needs macOS (this is ${platform})` };
  if (!existsSync(exec)) return { ok: false, why: `${exec} is missing` };
  return cachedProbe(env, `seatbelt ${exec}`, () => probeSeatbelt(defaultRunner(exec)));
}

export interface SeatbeltEnforcement {
  kind: 'seatbelt';
  command: string;
  plan: SandboxPlan;
  links?: 'held' | 'escapes';
}

/**
 * The Seatbelt enforcement of one call: `plan` and `wrap` are ./enforce.ts's, passed in so this
 * file does not import it. The profile goes on the command line (`-p`): nothing is written that
 * the command could change before sandbox-exec reads it.
 */
export function seatbeltCall(
  command: string,
  available: SeatbeltProbe,
  exec: string,
  deps: { plan: () => SandboxPlan; wrap: (command: string, argv: string[]) => string },
): SeatbeltEnforcement | { kind: 'none'; reason: string } {
  if (!available.ok) return { kind: 'none', reason: available.why };
  try {
    const plan = deps.plan();
    return { kind: 'seatbelt', command: deps.wrap(command, [exec, '-p', seatbeltEnforcementProfile(plan)]), plan, ...(available.links ? { links: available.links } : {}) };
  } catch (err) {
    return { kind: 'none', reason: `the Seatbelt profile cannot be computed: ${(err as Error).message.split('\n')[0]}` };
  }
}

