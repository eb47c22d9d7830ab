/**
 * `bashguard audit`: after a builder ran, what changed outside its worktree. Compares a snapshot
 * of the repository's shared state (src/layers/audit/snapshot.ts) with the baseline saved before the run
 * (`--baseline save`), so dirt that was already there is not blamed on the builder. Without a
 * baseline only other checkouts' working trees can be judged (any dirt counts), and the report
 * says so. Optionally checks the worktree's own diff against its base with `writeRootViolations`
 * (seed 003) for declared write roots.
 *
 * Where the baseline lives: the user's state dir (`$XDG_STATE_HOME/bashguard/audit/`, default
 * `~/.local/state/...`), keyed by the common git dir and the worktree. Not under the common dir:
 * the builder may write `<common>/worktrees/<name>`, `objects`, `refs` and `logs` (it must, to
 * commit), so a baseline there could be rewritten to hide what it changed. The state dir is outside
 * the worktree: the hook denies writes there and the sandbox keeps it read-only.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { readRegularFile } from '../../util/safe-read.js';
import { basename, dirname, join } from 'node:path';
import type { Workspace } from '../../policy/workspace/index.js';
import { writeRootViolations } from '../../policy/write-roots.js';
import { LayerError } from '../env/env.js';
import { gitRunner, takeSnapshot, type AuditSnapshot } from './snapshot.js';

export type AuditKind = 'checkout' | 'head' | 'index' | 'config' | 'hooks' | 'ref' | 'protected' | 'write-root';

export interface AuditFinding {
  kind: AuditKind;
  /** The file, ref or checkout concerned. */
  path: string;
  detail: string;
}

export interface AuditReport {
  worktree: string;
  /** The baseline file compared against, or null when there was none. */
  baseline: string | null;
  baselineTakenAt: string | null;
  findings: AuditFinding[];
  /** What could not be judged (no baseline, no base for the diff). */
  notes: string[];
}

type Env = Record<string, string | undefined>;

/** Where the baseline for this worktree is kept (see the module comment for why there). */
export function baselineFile(ws: Workspace, env: Env): string {
  const l = ws.layout;
  if (!l || !l.current.root) throw new LayerError(`${ws.cwd} is not inside a git checkout with a work tree`);
  const state = env.XDG_STATE_HOME?.startsWith('/') ? env.XDG_STATE_HOME : env.HOME?.startsWith('/') ? join(env.HOME, '.local', 'state') : null;
  if (!state) throw new LayerError('cannot place the audit baseline: neither XDG_STATE_HOME nor HOME is set');
  const key = createHash('sha256').update(`${l.current.commonDir}\n${l.current.root}`).digest('hex').slice(0, 16);
  return join(state, 'bashguard', 'audit', `${basename(l.current.root)}-${key}.json`);
}

export function saveBaseline(ws: Workspace, env: Env, file = baselineFile(ws, env)): { file: string; snapshot: AuditSnapshot } {
  const snapshot = takeSnapshot(ws, env);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(snapshot, null, 2) + '\n', { mode: 0o600 });
  renameSync(tmp, file);
  return { file, snapshot };
}

export function loadBaseline(file: string): AuditSnapshot | null {
  const r = readRegularFile(file, { maxBytes: 64 * 1024 * 1024 });
  if (!r.ok && r.code === 'ENOENT') return null;
  if (!r.ok) throw new LayerError(`cannot read the audit baseline: ${r.message}`);
  const text = r.text;
  try {
    const s = JSON.parse(text) as AuditSnapshot;
    if (s.version !== 1 || typeof s.checkouts !== 'object') throw new Error('not a bashguard audit snapshot');
    return s;
  } catch (err) {
    throw new LayerError(`the audit baseline ${file} is unreadable (${(err as Error).message}); save a new one with --baseline save`);
  }
}

/** What changed between two snapshots (or, without a baseline, the other checkouts' dirt). */
export function compareSnapshots(before: AuditSnapshot | null, after: AuditSnapshot): AuditFinding[] {
  const out: AuditFinding[] = [];
  for (const [root, now] of Object.entries(after.checkouts)) {
    const was = before?.checkouts[root];
    const label = now.kind === 'main' ? 'the main checkout' : 'a sibling worktree';
    const paths = new Set([...Object.keys(now.status), ...Object.keys(was?.status ?? {})]);
    for (const p of [...paths].sort()) {
      const a = was?.status[p];
      const b = now.status[p];
      if (a === b) continue;
      const full = join(root, p);
      // Every line names the path itself (and where a rename came from): "untracked file" alone
      // leaves the reader to find which.
      const from = (entry: string) => (entry.includes(' from ') ? ` (renamed or copied from ${join(root, entry.slice(entry.indexOf(' from ') + 6))})` : '');
      if (b === undefined) out.push({ kind: 'checkout', path: full, detail: `${full}: no longer ${describeXY(a!)} (reverted or committed), in ${label} ${root}` });
      else if (a === undefined) out.push({ kind: 'checkout', path: full, detail: `${full}: ${describeXY(b)}${from(b)}, in ${label} ${root}` });
      else out.push({ kind: 'checkout', path: full, detail: `${full}: ${describeXY(b)}${from(b)}, and its content changed since the baseline, in ${label} ${root}` });
    }
    if (!was) continue;
    if (was.head !== now.head) out.push({ kind: 'head', path: root, detail: `${root}: HEAD of ${label} moved: ${was.head} -> ${now.head}` });
    if (was.index !== now.index) {
      // The staged paths that changed are named by the status lines above; the index line says where.
      const staged = [...paths].filter((p) => (was.status[p] ?? '  ')[0] !== (now.status[p] ?? '  ')[0] && (now.status[p] ?? '  ')[0] !== '?').map((p) => join(root, p));
      out.push({ kind: 'index', path: root, detail: `${root}: what is staged in ${label} changed${staged.length ? ` (${staged.slice(0, 10).join(', ')}${staged.length > 10 ? ', ...' : ''})` : ''}` });
    }
  }
  if (!before) return out;
  for (const root of Object.keys(before.checkouts)) if (!after.checkouts[root]) out.push({ kind: 'checkout', path: root, detail: `${root}: the checkout is gone` });
  if (before.config !== after.config) out.push({ kind: 'config', path: join(after.commonDir, 'config'), detail: `${join(after.commonDir, 'config')}: the shared repository config changed` });
  const hooks = new Set([...Object.keys(before.hooks), ...Object.keys(after.hooks)]);
  for (const h of [...hooks].sort()) {
    if (before.hooks[h] === after.hooks[h]) continue;
    const what = before.hooks[h] === undefined ? 'added' : after.hooks[h] === undefined ? 'removed' : 'changed';
    out.push({ kind: 'hooks', path: join(after.commonDir, 'hooks', h), detail: `${join(after.commonDir, 'hooks', h)}: git hook ${h} ${what} (it runs for every checkout)` });
  }
  const own = new Set([before.branch, after.branch].filter((b): b is string => b !== null));
  const refs = new Set([...Object.keys(before.refs), ...Object.keys(after.refs)]);
  for (const r of [...refs].sort()) {
    if (own.has(r) || before.refs[r] === after.refs[r]) continue;
    const what = before.refs[r] === undefined ? `created at ${after.refs[r]}` : after.refs[r] === undefined ? `deleted (was ${before.refs[r]})` : `moved ${before.refs[r]} -> ${after.refs[r]}`;
    out.push({ kind: 'ref', path: r, detail: `shared ref ${r} ${what} (not this worktree's branch${own.size ? ` ${[...own].join(', ')}` : ''})` });
  }
  for (const [p, sum] of Object.entries(after.protected)) {
    const was = before.protected[p];
    if (was === undefined || was === sum) continue;
    out.push({ kind: 'protected', path: p, detail: `${p} ${was === null ? 'was created' : sum === null ? 'was deleted' : 'changed'}: it controls the guard or the agent client` });
  }
  return out;
}

function describeXY(entry: string): string {
  const [xy] = entry.split(' ');
  if (xy === '??') return 'untracked file';
  if (xy === '!!') return 'ignored file';
  const m: Record<string, string> = { M: 'modified', A: 'added', D: 'deleted', R: 'renamed', C: 'copied', T: 'type changed', U: 'unmerged' };
  const parts: string[] = [];
  if (xy![0] !== ' ' && m[xy![0]!]) parts.push(`${m[xy![0]!]} in the index`);
  if (xy![1] !== ' ' && m[xy![1]!]) parts.push(`${m[xy![1]!]} in the working tree`);
  return parts.join(', ') || `status ${xy}`;
}

export interface AuditOptions {
  env: Env;
  /** The baseline file (default: baselineFile). */
  baselineFile?: string;
  /** Declared write roots for the worktree's own diff (relative to the worktree, or absolute). */
  writeRoots?: string[];
  /** The commit the worktree's diff is taken against (default: the baseline's worktree HEAD). */
  base?: string;
}

export function audit(ws: Workspace, opts: AuditOptions): AuditReport {
  const file = opts.baselineFile ?? baselineFile(ws, opts.env);
  const before = loadBaseline(file);
  const after = takeSnapshot(ws, opts.env);
  if (before && (before.commonDir !== after.commonDir || before.worktree !== after.worktree)) {
    throw new LayerError(`the baseline ${file} is for ${before.worktree}, not ${after.worktree}`);
  }
  const notes: string[] = [];
  if (!before) notes.push(`no baseline (${file}): only the other checkouts' working trees were checked, and all their dirt counts; run \`bashguard audit --baseline save\` before the builder starts to also check the config, hooks, refs, HEADs and indexes`);
  const findings = compareSnapshots(before, after);
  if (opts.writeRoots && opts.writeRoots.length) {
    const base = opts.base ?? before?.worktreeHead ?? null;
    if (!base) notes.push('write roots not checked: no base commit (give --base, or save a baseline first)');
    else {
      const changed = changedPaths(ws, opts.env, base);
      for (const p of writeRootViolations(changed, opts.writeRoots, { base: after.worktree })) {
        findings.push({ kind: 'write-root', path: join(after.worktree, p), detail: `${p} changed (since ${base.slice(0, 12)}) outside the declared write roots ${opts.writeRoots.join(', ')}` });
      }
    }
  }
  return { worktree: after.worktree, baseline: before ? file : null, baselineTakenAt: before?.takenAt ?? null, findings, notes };
}

/** Paths the worktree changed since `base`: committed, staged, unstaged and untracked. */
export function changedPaths(ws: Workspace, env: Env, base: string): string[] {
  const git = gitRunner(env);
  const root = ws.layout!.current.root!;
  const diff = git(['-C', root, 'diff', '--name-only', '--no-renames', '-z', base]);
  if (diff === null) throw new LayerError(`cannot diff the worktree ${root} against ${base}`);
  const untracked = git(['-C', root, 'ls-files', '--others', '--exclude-standard', '-z']) ?? '';
  return [...new Set([...diff.split('\0'), ...untracked.split('\0')].filter(Boolean))].sort();
}

export function formatAudit(r: AuditReport): string {
  const lines = [`bashguard audit: worktree ${r.worktree}${r.baseline ? ` (baseline ${r.baseline}, taken ${r.baselineTakenAt})` : ''}`];
  for (const f of r.findings) lines.push(`  ${f.kind.padEnd(10)} ${f.detail}`);
  for (const n of r.notes) lines.push(`  note: ${n}`);
  lines.push(r.findings.length ? `${r.findings.length} change(s) outside the worktree or its write roots.` : 'Nothing changed outside the worktree.');
  return lines.join('\n') + '\n';
}
