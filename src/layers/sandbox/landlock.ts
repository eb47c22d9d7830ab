/**
 * Landlock enforcement (issue #38): where bubblewrap cannot start (unprivileged user namespaces
 * off, no bwrap), the allowed Bash call runs under native/landlock-exec.c (`bashguard-landlock`),
 * which confines writes to rules computed here from the same plan as bubblewrap's (./grants.ts
 * via ./enforce.ts's enforcementPlan). The wrapper text is ./enforce.ts's, with the helper in
 * place of bwrap, so the client's semantics (cd, exit status, output, background processes) are
 * the same.
 *
 * Landlock can only grant: a read-only hole cannot be carved out of a granted tree. So the rules
 * are the complement of the read-only set: each writable root of the plan that holds no read-only
 * path is granted whole; one that does is not granted itself, and each of its entries is, except
 * the read-only ones and those that hold one, which are descended into the same way. Consequences
 * (docs/limits.md):
 * - a protected path that does not exist cannot be created (bubblewrap cannot reserve a file's
 *   name: the plan's `unreserved`), since its directory gets no rule;
 * - a new entry directly in a directory that holds a protected path is refused: `touch ~/newfile`,
 *   `mkdir ~/.newtool`, a new entry beside the main checkout, a new top-level entry of the
 *   worktree (its `.git` file and `.claude/` are protected), and a file replaced by rename there
 *   (`sed -i`, atomic writers). The trusted config may choose the worktree granted whole instead,
 *   its own control files then left to the analyzer (`"landlockWorktree": "whole"`, ./landlock-line.ts);
 * - renames and hard links across rules fail with EXDEV unless both sides grant the same rights
 *   (Landlock's REFER), and always on ABI 1;
 * - a directory with more than PER_DIR_LIMIT entries is not descended into: its entries stay
 *   read-only (said by `doctor`); over RULE_LIMIT rules in all, no Landlock (the call is not
 *   enforced, and says why). The rules never grant a protected path.
 *
 * The one exception to "never grant a protected path" is this worktree's admin dir
 * (`<common>/worktrees/<name>`): git creates its lock files there (index.lock, HEAD.lock), so it
 * is granted whole, and with it the registration files `gitdir` and `commondir` inside it; the
 * plan says so (`widened`) and so does `doctor`.
 *
 * The rules are kept between calls as the plan is (./enforce.ts `enforcementPlan`): in the hook's
 * FactStore, under a key holding every input (the plan, root or not, the worktree's git dir, the
 * limits) compared whole, with every file-system fact they were computed from checked again
 * before reuse (`keptLandlockRules`): each directory listed, by its identity (dev, ino, mtime and
 * ctime in ns, one lstat: an entry added, removed or renamed changes them), each path lstat-ed
 * or resolved, by what was seen. A directory whose identity changed is read again: where what
 * the rules took from it is the same (its entries' names and types; for one with too many entries
 * to list, the types of those that are or hold a protected path), they hold and are kept with the
 * new listing; else they are computed again, reusing the listings whose identity still holds. A
 * listing that changed less than RACY_MS before it was read may change again within the same
 * timestamp tick unseen, so it is read again at each check (and never reused) until it has
 * settled. What is kept can only be stale in which entries beside a protected path are granted,
 * never in what is protected (the plan is in the key); and the helper opens each grant without
 * following a symlink and grants nothing where the name is gone or is no longer the kind the
 * rules name (see native/landlock-exec.c). A name holding a newline gets no rule (the helper's
 * `--rules` text has one line per name).
 *
 * As root, /proc and /sys get no rule (a root process could write /proc/sys/kernel/core_pattern,
 * which the kernel runs outside any sandbox) and /dev only its harmless nodes (bubblewrap's
 * minimal /dev); the helper drops every capability as well.
 */
import { dirname } from 'node:path';
import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import type { Workspace } from '../../policy/workspace/index.js';
import type { Env } from '../../policy/workspace/config.js';
import { isInside } from '../../engine/shell/paths.js';
import { kindOf, probesHold, type SandboxPlan } from './grants.js';
import { landlockAvailable } from './probes.js';
import { physicalPath } from '../../util/physical-path.js';
import { clientTmpDir, inShellBuiltin, inShellWrapper } from './in-shell.js';
import { landlockLine } from './landlock-line.js';

/** Rules in all above which the helper is not used (each costs the helper ~3.5 µs at every call). */
export const RULE_LIMIT = 1000;
/** Entries of one directory above which it is not descended into (its entries stay read-only). */
export const PER_DIR_LIMIT = 300;

/** /dev nodes a root command may write (bubblewrap's minimal /dev, plus the pseudo-terminals and shared memory). */
const ROOT_DEV = new Set(['null', 'zero', 'full', 'random', 'urandom', 'tty', 'ptmx', 'pts', 'shm']);

export interface LandlockRule {
  path: string;
  /** Not a directory: the file rights only. */
  file: boolean;
}

export interface LandlockRules {
  rules: LandlockRule[];
  /** The helper's arguments for them (`landlockArgs`). */
  args: string[];
  /** Protected paths the rules grant all the same, and why (the worktree's admin dir). */
  widened: { path: string; why: string }[];
  /** Directories not descended into (too many entries): their entries stay read-only. */
  coarse: { path: string; entries: number }[];
}

/**
 * The file-system facts a computation of the rules read (see the file comment): `facts` in
 * ./grants.ts's `probesHold` form (`[path, kind]` for an lstat, `[NUL + path, real path or '']`
 * for a realpath), `listings` one per directory read: `[path, identity, entries (listingText;
 * null: unreadable), racy, relevant]`, racy where the listing may have changed within its
 * timestamps' granularity, relevant the names in it that are or hold a protected path.
 */
export type Listing = [path: string, identity: string, entries: string | null, racy: boolean, relevant: string[]];
export interface RuleFacts {
  facts: [string, string][];
  listings: Listing[];
}

/** How recent a directory's change may be for its timestamps to miss a second change (coarse clocks; 1-2 s file systems). */
const RACY_MS = 2000;

/**
 * A directory's identity and when it last changed (ms), from one lstat; null where it cannot be
 * read. The times as Node's doubles (ms, sub-µs fraction), not bigint ns (a cold path that cost
 * the hook ~0.5 ms): a listing is trusted only when read RACY_MS after its directory last changed,
 * so any later change moves a time by at least that much.
 */
function dirIdentity(p: string): { id: string; changed: number } | null {
  const st = lstatQuiet(p);
  return st ? { id: `${st.dev}:${st.ino}:${st.mtimeMs}:${st.ctimeMs}:${st.mode}`, changed: Math.max(st.ctimeMs, st.mtimeMs) } : null;
}

function lstatQuiet(p: string) {
  try {
    return lstatSync(p, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** A listing as text: each entry's type from readdir (d_type; `u` where the file system does not say) and name, `/`-separated (no name holds one; NUL would cost JSON six characters). */
function listingText(entries: Dirent[]): string {
  return entries.map((e) => `${e.isDirectory() ? 'd' : e.isSymbolicLink() ? 'l' : e.isFile() ? 'f' : e.isFIFO() || e.isSocket() || e.isCharacterDevice() || e.isBlockDevice() ? 'o' : 'u'}${e.name}`).join('/');
}

function readdirQuiet(p: string): string | null {
  try {
    return listingText(readdirSync(p, { withFileTypes: true }));
  } catch {
    return null;
  }
}

/** Whether every fact the rules were computed from still holds (and no listing kept with its entries has settled: then computing them again keeps a cheaper check). */
export function ruleFactsHold(f: RuleFacts, now = Date.now(), perDirLimit = PER_DIR_LIMIT): 'held' | 'updated' | false {
  let updated = false;
  for (const l of f.listings) {
    const [p, id, entries, racy, relevant] = l;
    const d = dirIdentity(p);
    const idNow = d?.id ?? '';
    if (idNow === id && !racy) continue;
    // Changed, or racy: read again. The rules still hold when what they took from the listing
    // is the same; the listing is then kept as it is now.
    const text = readdirQuiet(p);
    if (projection(text, relevant, perDirLimit) !== projection(entries, relevant, perDirLimit)) return false;
    const racyNow = d !== null && now - d.changed < RACY_MS;
    if (idNow === id && text === entries && racyNow === racy) continue;
    l[1] = idNow;
    l[2] = text;
    l[3] = racyNow;
    updated = true;
  }
  if (!probesHold(f.facts)) return false;
  return updated ? 'updated' : 'held';
}

/**
 * What the rules take from a listing: the entries (names and types, in any order) where the
 * directory is descended into entry by entry; where it holds too many (its entries stay
 * read-only), only that, and the types of the entries that are or hold a protected path
 * (`relevant`), which are descended into or left out.
 */
function projection(text: string | null, relevant: readonly string[], perDirLimit: number): string {
  if (text === null) return '!';
  const entries = text === '' ? [] : text.split('/');
  if (entries.length <= perDirLimit) return `N${entries.sort().join('/')}`;
  const types = new Map(entries.map((e) => [e.slice(1), e[0]]));
  return `L${relevant.map((n) => types.get(n) ?? '-').join('/')}`;
}

const join = (dir: string, name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`);

/**
 * The rules for a plan (see the file comment), or why there are none. `adminDir`: the worktree's
 * git admin dir, granted whole (or `gitDir`, resolved here). `root`: the command runs as root.
 * `facts`: filled with what was read.
 */
export function landlockRules(
  plan: SandboxPlan,
  opts: { root: boolean; adminDir?: string | null; gitDir?: string | null; ruleLimit?: number; perDirLimit?: number },
  facts: RuleFacts = { facts: [], listings: [] },
  prior: readonly Listing[] = [],
): LandlockRules | { error: string } {
  // Listings of an earlier computation, reused where the directory's identity is the same and the listing was not racy.
  const reusable = new Map<string, Listing>();
  for (const l of prior) if (!l[3]) reusable.set(l[0], l);
  const ruleLimit = opts.ruleLimit ?? RULE_LIMIT;
  const perDirLimit = opts.perDirLimit ?? PER_DIR_LIMIT;
  const started = Date.now();
  const kind = (p: string) => {
    const k = kindOf(p);
    facts.facts.push([p, k]);
    return k;
  };
  // (once per path: the missing control paths share their ancestors; a missing one by its lstat,
  // which is cheaper than realpath's failure and says the same)
  const resolved = new Map<string, string | null>();
  const realOrNull = (p: string) => {
    if (resolved.has(p)) return resolved.get(p)!;
    let r: string | null = null;
    if (kind(p) !== '-') {
      r = physicalPath(p);
      facts.facts.push([`\0${p}`, r ?? '']);
    }
    resolved.set(p, r);
    return r;
  };
  const adminDir = opts.adminDir ?? (opts.gitDir ? realOrNull(opts.gitDir) : null);
  const grants = plan.grants.filter((g) => !g.pin);
  // The protected paths that do not exist and that bubblewrap cannot reserve (`unreserved`) count as
  // read-only too: no rule reaches them, so they cannot be created.
  const ro = [...grants.filter((g) => g.access === 'ro').map((g) => g.path), ...plan.unreserved.map((u) => physical(u, realOrNull))];
  const rules: LandlockRule[] = [];
  const widened: { path: string; why: string }[] = [];
  const coarse: { path: string; entries: number }[] = [];
  // Every directory above a read-only path, and the read-only paths, as sets (looked up per entry).
  const above = new Set<string>();
  for (const r of ro) for (let d = dirname(r); !above.has(d); d = dirname(d)) {
    above.add(d);
    if (d === '/') break;
  }
  const roSet = new Set(ro);
  const holdsRo = (p: string) => above.has(p);
  const relevantIn = (dir: string) => [...above, ...roSet].filter((p) => p !== dir && dirname(p) === dir).map((p) => p.slice(dir === '/' ? 1 : dir.length + 1));
  const isRo = (p: string) => roSet.has(p);
  const seen = new Set<string>();
  const add = (p: string, file: boolean) => {
    if (seen.has(p)) return;
    seen.add(p);
    rules.push({ path: p, file });
  };
  const cover = (dir: string): void => {
    if (!holdsRo(dir)) {
      add(dir, false);
      return;
    }
    // (the identity first: a change while listing shows as a different identity at the next check)
    const id = dirIdentity(dir);
    const before = reusable.get(dir);
    const text = id && before && before[1] === id.id ? before[2] : readdirQuiet(dir);
    facts.listings.push([dir, id?.id ?? '', text, id !== null && started - id.changed < RACY_MS, relevantIn(dir)]);
    if (text === null) return; // unreadable: nothing granted beneath
    const entries = text === '' ? [] : text.split('/');
    const limited = entries.length > perDirLimit;
    if (limited) coarse.push({ path: dir, entries: entries.length });
    for (const ent of entries) {
      const name = ent.slice(1);
      const p = join(dir, name);
      if (isRo(p)) continue;
      if (opts.root && (p === '/proc' || p === '/sys' || (dir === '/dev' && !ROOT_DEV.has(name)))) continue;
      if (!opts.root && p === '/sys') continue;
      // The entry's type from readdir (d_type); lstat where the file system does not give it.
      const t = ent[0];
      const k = t === 'd' || t === 'l' ? t : t === 'u' ? kind(p) : 'f';
      if (k === '-' || k === 'l') continue;
      if (k === 'd' && holdsRo(p)) cover(p);
      else if (!limited) add(p, k !== 'd');
      if (rules.length > ruleLimit) return;
    }
  };
  for (const g of grants) {
    if (g.access !== 'rw') continue;
    // (as root, /proc gets no rule even where the plan grants it: see the file comment)
    if (opts.root && (g.path === '/proc' || g.path.startsWith('/proc/'))) continue;
    // Granted by an enclosing rule already, or descended into from one.
    const enclosing = grants.filter((e) => e.path !== g.path && isInside(g.path, e.path)).sort((a, b) => b.path.length - a.path.length)[0];
    if (enclosing && enclosing.access === 'rw') continue;
    if (adminDir && g.path === adminDir) {
      add(g.path, false);
      for (const r of ro) if (isInside(r, g.path) && r !== g.path) widened.push({ path: r, why: "inside this worktree's git admin dir, where git creates its lock files" });
      continue;
    }
    const k = kind(g.path);
    if (k === 'd') cover(g.path);
    else if (k === 'f') add(g.path, true); // (`packed-refs`)
    if (rules.length > ruleLimit) return { error: `more than ${ruleLimit} Landlock rules would be needed (the directories around the protected paths hold too many entries)` };
  }
  if (opts.root) restrictDev(rules, kind);
  // The invariant, checked rather than trusted: no rule reaches a protected path, but the ones
  // named. (A rule reaches one when it is that path or one of its ancestors.)
  for (const x of rules) {
    if (!isRo(x.path) && !holdsRo(x.path)) continue;
    for (const r of ro) if ((r === x.path || isInside(r, x.path)) && !widened.some((w) => w.path === r)) return { error: `a Landlock rule for ${x.path} would make ${r} writable` };
  }
  // (the rules as the helper gets them: grouped by directory, a name with a newline left out)
  const args = landlockArgs(rules);
  // (one argument of exec is at most 128 KiB on Linux: MAX_ARG_STRLEN)
  if (Buffer.byteLength(args[1]!) > 120_000) return { error: `the Landlock rules would not fit in one argument (${rules.length} rules)` };
  return { rules: rulesFromText(args[1]!), args, widened, coarse };
}

/** A path that does not exist, through the real path of its nearest existing ancestor (the rules are physical). */
function physical(p: string, real: (p: string) => string | null): string {
  for (let d = dirname(p), rest = p.slice(d === '/' ? 1 : d.length + 1); ; rest = `${d.slice(d.lastIndexOf('/') + 1)}/${rest}`, d = dirname(d)) {
    const r = real(d);
    if (r) return r === '/' ? `/${rest}` : `${r}/${rest}`;
    if (d === '/') return p;
  }
}

/** As root, a rule for all of /dev (granted where /dev holds nothing protected) becomes one per harmless node. */
function restrictDev(rules: LandlockRule[], kind: (p: string) => string): void {
  const i = rules.findIndex((r) => r.path === '/dev');
  if (i < 0) return;
  rules.splice(i, 1);
  for (const n of ROOT_DEV) {
    const k = kind(`/dev/${n}`);
    if (k !== '-' && k !== 'l') rules.push({ path: `/dev/${n}`, file: k !== 'd' });
  }
}

/**
 * The helper's arguments before `--`: the rules as one `--rules` text (native/landlock-exec.c),
 * the entries of a directory that holds several under one `@` line. A name holding a newline
 * cannot be written there and gets no rule (it stays read-only).
 */
export function landlockArgs(rules: LandlockRule[]): string[] {
  const byDir = new Map<string, LandlockRule[]>();
  for (const r of rules) {
    if (r.path.includes('\n')) continue;
    const d = dirname(r.path);
    const list = byDir.get(d);
    if (list) list.push(r);
    else byDir.set(d, [r]);
  }
  const lines: string[] = [];
  for (const [d, list] of byDir) {
    if (list.length === 1 || d === '/') for (const r of list) lines.push(`${r.file ? 'F' : 'D'}${r.path}`);
    else {
      lines.push(`@${d}`);
      for (const r of list) lines.push(`${r.file ? 'f' : 'd'}${r.path.slice(d.length + 1)}`);
    }
  }
  return ['--rules', lines.join('\n')];
}

/** The kept rules' format: changed whenever landlockRules' output for the same facts could change. */
const RULES_FORMAT = 'landlock-rules-6';

/** Where the hook keeps facts between calls (./enforce.ts's FactStore). */
interface Store {
  read(name: string): string | null;
  write(name: string, text: string): void;
}

/** What is kept of the rules: the helper's arguments (the rules themselves are read back from them when asked for). */
interface KeptRules {
  args: string[];
  widened: { path: string; why: string }[];
  coarse: { path: string; entries: number }[];
}

function isKept(x: unknown): x is KeptRules {
  const r = x as KeptRules;
  return (
    typeof r === 'object' && r !== null && Array.isArray(r.args) && r.args.length === 2 && r.args[0] === '--rules' && typeof r.args[1] === 'string' &&
    Array.isArray(r.widened) && r.widened.every((w) => typeof w?.path === 'string' && typeof w.why === 'string') && Array.isArray(r.coarse) && r.coarse.every((c) => typeof c?.path === 'string' && typeof c.entries === 'number')
  );
}

/** The rules a `--rules` text grants (the inverse of landlockArgs). */
export function rulesFromText(text: string): LandlockRule[] {
  const out: LandlockRule[] = [];
  let parent = '';
  for (const line of text.split('\n')) {
    const k = line[0];
    const rest = line.slice(1);
    if (k === '@') parent = rest;
    else if (k === 'D' || k === 'F') out.push({ path: rest, file: k === 'F' });
    else if (k === 'd' || k === 'f') out.push({ path: `${parent === '/' ? '' : parent}/${rest}`, file: k === 'f' });
  }
  return out;
}

function fromKept(k: KeptRules): LandlockRules {
  let rules: LandlockRule[] | null = null;
  return {
    get rules() {
      return (rules ??= rulesFromText(k.args[1]!));
    },
    args: k.args,
    widened: k.widened,
    coarse: k.coarse,
  };
}

function isFacts(x: unknown): x is RuleFacts {
  const f = x as RuleFacts;
  const pair = (p: unknown) => Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'string';
  return typeof f === 'object' && f !== null && Array.isArray(f.facts) && f.facts.every((p) => pair(p) && p.length === 2) && Array.isArray(f.listings) && f.listings.every((l) => pair(l) && l.length === 5 && (l[2] === null || typeof l[2] === 'string') && typeof l[3] === 'boolean' && Array.isArray(l[4]) && l[4].every((n) => typeof n === 'string'));
}

/**
 * landlockRules, kept in `store` under `name` (see the file comment): reused while the key (every
 * input) is the same and every fact read still holds (`ruleFactsHold`), else computed again and
 * kept. An error is not kept.
 */
export function keptLandlockRules(plan: SandboxPlan, opts: { root: boolean; gitDir: string | null }, store: Store | undefined, name: string): LandlockRules | { error: string } {
  if (!store) return landlockRules(plan, opts);
  const key = JSON.stringify([RULES_FORMAT, opts.root, opts.gitDir, RULE_LIMIT, PER_DIR_LIMIT, plan]);
  const text = store.read(name);
  let prior: Listing[] = [];
  if (text !== null) {
    try {
      const kept = JSON.parse(text) as { key?: unknown; facts?: unknown; rules?: unknown };
      if (isFacts(kept.facts)) {
        if (kept.key === key && isKept(kept.rules)) {
          const held = ruleFactsHold(kept.facts);
          // (what the rules took from a changed listing is the same: kept with the listing as it is now)
          if (held === 'updated') store.write(name, JSON.stringify({ key, facts: kept.facts, rules: kept.rules }));
          if (held) return fromKept(kept.rules);
        }
        // (a listing is the directory's whatever the plan: reused under another key too)
        prior = kept.facts.listings;
      }
    } catch {
      // computed again below
    }
  }
  const facts: RuleFacts = { facts: [], listings: [] };
  const rules = landlockRules(plan, opts, facts, prior);
  if (!('error' in rules)) store.write(name, JSON.stringify({ key, facts, rules: { args: rules.args, widened: rules.widened, coarse: rules.coarse } satisfies KeptRules }));
  return rules;
}

/**
 * Whether the rules (their `--rules` text) grant `dir` whole: it is a granted directory or lies
 * beneath one (a directory that only has some of its entries granted is not: no new entry can be
 * made in it).
 */
export function grantsWhole(rulesText: string, dir: string): boolean {
  let parent = '';
  for (const line of rulesText.split('\n')) {
    const k = line[0];
    if (k === '@') parent = line.slice(1);
    else if ((k === 'D' && isInside(dir, line.slice(1))) || (k === 'd' && isInside(dir, `${parent === '/' ? '' : parent}/${line.slice(1)}`))) return true;
  }
  return false;
}

export interface LandlockEnforcement {
  kind: 'landlock';
  command: string;
  plan: SandboxPlan;
  rules: LandlockRules;
  /** Whether the wrapper confines the client's own shell (the builtin) before falling back to the helper. */
  inShell: boolean;
}

/**
 * The Landlock enforcement of one call: `plan` and `wrap` are ./enforce.ts's (the plan for the
 * helper and shell, the wrapper text), passed in so this file does not import it; `store` and
 * `name`: where the rules are kept between calls (`keptLandlockRules`); `available`: the caller's
 * landlockAvailable answer for this call, when it has one.
 */
export function landlockCall(
  ws: Workspace,
  command: string,
  env: Env,
  deps: { plan: (helper: string) => SandboxPlan; wrap: (command: string, helper: string, args: string[]) => string; shell: string; store?: Store; name?: string; available?: ReturnType<typeof landlockAvailable>; seccomp?: readonly string[] },
): LandlockEnforcement | { kind: 'none'; reason: string } {
  const a = deps.available ?? landlockAvailable(env);
  if (!a.ok || !a.helper) return { kind: 'none', reason: a.why };
  try {
    // (the worktree granted whole, its control files left to the analyzer, where the trusted config chooses it: ./landlock-line.ts)
    const planned = deps.plan(a.helper);
    const plan = ws.config.landlockWorktree === 'whole' ? landlockLine(planned, ws) : planned;
    const l = ws.layout?.current;
    const gitDir = l?.kind === 'linked-worktree' ? l.gitDir : null;
    const rules = keptLandlockRules(plan, { root: process.getuid?.() === 0, gitDir }, deps.name ? deps.store : undefined, deps.name ?? '');
    if ('error' in rules) return { kind: 'none', reason: rules.error };
    // (`seccomp`: the Unix-socket filter's words, `--seccomp HEX`, for the helper and the builtin alike)
    const more = deps.seccomp ?? [];
    const wrapped = deps.wrap(command, a.helper, [...rules.args, ...more]);
    // The client's own shell confined in place where it is bash, the builtin is installed and the
    // client's cwd file can still be written after the command; else the helper.
    const so = inShellBuiltin(deps.shell, a.helper);
    const tmp = so ? clientTmpDir(env) : null;
    const fast = so && tmp && grantsWhole(rules.args[1]!, tmp) ? inShellWrapper(command, so, 'bashguard_landlock', rules.args[1]!, wrapped, more) : null;
    return { kind: 'landlock', command: fast ?? wrapped, plan, rules, inShell: fast !== null };
  } catch (err) {
    return { kind: 'none', reason: `the Landlock rules cannot be computed: ${(err as Error).message.split('\n')[0]}` };
  }
}
